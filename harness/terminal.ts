// Runs `node bin/dev.js …` on a real pseudo-terminal (util-linux `script`), for the questions a
// command asks only on a terminal: type answers, wait for what the screen shows. No CI variable.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { afterEach } from 'vitest'
import { ROOT, type CliEnv } from './cli.js'
import { waitFor } from './wait.js'

export interface TerminalSession {
  /** Everything shown so far, ANSI codes stripped. */
  screen(): string
  /** Types a line and presses Enter. */
  type(line: string): void
  /** Resolves once the screen, after what it showed when `type` was last called, contains `text`. */
  waitForText(text: string, timeoutMs?: number): Promise<string>
  exited: Promise<number | null>
}

const sessions: Array<ReturnType<typeof spawn>> = []
afterEach(() => {
  for (const child of sessions.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g

export function runOnTerminal(argv: string[], env: CliEnv, columns = 100): TerminalSession {
  const command = `stty cols ${columns} rows 50; exec ${[process.execPath, path.join(ROOT, 'bin', 'dev.js'), ...argv].map(quote).join(' ')}`
  const childEnv: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env))
    if (!/^(PAYBOX_|CI$|NO_COLOR$|FORCE_COLOR$|NODE_OPTIONS$)/.test(key)) childEnv[key] = value
  for (const [key, value] of Object.entries(env)) if (value !== undefined) childEnv[key] = value
  delete childEnv.CI
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, env: childEnv, stdio: 'pipe' })
  sessions.push(child)
  let output = ''
  let mark = 0
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const screen = () => output.replace(ANSI, '')
  return {
    screen,
    type(line) {
      mark = screen().length
      child.stdin.write(`${line}\r`)
    },
    waitForText: (text, timeoutMs = 20_000) =>
      waitFor(
        `the terminal to show ${JSON.stringify(text)}; it shows:\n${screen()}`,
        () => screen().slice(mark).includes(text) && screen(),
        timeoutMs,
      ),
    exited: once(child, 'exit').then(([code]) => code as number | null),
  }
}
