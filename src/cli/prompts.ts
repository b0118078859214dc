// The only place that asks the user questions. Nothing prompts without a terminal or in CI:
// a command that lacks a value fails instead and names the flag that provides it.
import { UserError } from './errors.js'

export function canPrompt(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY) && !env.CI
}

/** Returns `value` if given; otherwise asks on a terminal, or fails naming `flag`. */
export async function valueOrPrompt(value: string | undefined, flag: string, question: string): Promise<string> {
  if (value !== undefined) return value
  if (!canPrompt()) throw new UserError(`Missing --${flag}`, `pass --${flag}; paybox does not prompt without a terminal or when CI is set`)
  const { input } = await import('@inquirer/prompts')
  return input({ message: question, required: true })
}

export async function askText(message: string, defaultValue?: string): Promise<string> {
  const { input } = await import('@inquirer/prompts')
  return input({ message, default: defaultValue, required: true })
}

export async function askSecret(message: string): Promise<string> {
  const { password } = await import('@inquirer/prompts')
  return password({ message, mask: '•' })
}

export async function askChoice<T extends string>(message: string, choices: Array<{ name: string; value: T }>): Promise<T> {
  const { select } = await import('@inquirer/prompts')
  return select({ message, choices })
}

export async function askConfirm(message: string, defaultValue = false): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts')
  return confirm({ message, default: defaultValue })
}
