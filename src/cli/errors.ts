// Errors the CLI reports: a UserError is something the user can fix (bad flag value, missing
// setting) and prints as one line with a hint; anything unexpected is reported as a bug.
import { PayboxApiError, PayboxConnectionError } from '../client/errors.js'
import { UserError } from '../user-error.js'
import { flagSuggestion } from './did-you-mean.js'

export interface ErrorReport {
  message: string
  exitCode: number
  /** Present for API errors: what the server said. */
  statusCode?: number
  reason?: string
}

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? []

// A message that already says every word of the reason is said alone: not "Asset is not supported: Asset DOGE is not supported".
function apiErrorText(reason: string, message: string): string {
  if (!message || message === reason) return reason
  const said = new Set(wordsOf(message))
  return wordsOf(reason).every((word) => said.has(word)) ? message : `${reason}: ${message}`
}

/** The one line the CLI prints and its exit code; `knownFlags` lets an unknown flag be answered with the nearest one. */
export function reportError(error: unknown, knownFlags: readonly string[] = []): ErrorReport {
  if (error instanceof PayboxApiError) {
    return {
      message: `${error.statusCode} ${apiErrorText(error.reason, error.message)}`,
      exitCode: 1,
      statusCode: error.statusCode,
      reason: error.reason,
    }
  }
  if (error instanceof PayboxConnectionError) {
    return { message: `${error.message} (is the sandbox running? start it with: paybox sandbox start)`, exitCode: 1 }
  }
  if (error instanceof UserError) return { message: error.hint ? `${error.message} (${error.hint})` : error.message, exitCode: 1 }
  const oclif = (error as { oclif?: { exit?: number } }).oclif
  if (error instanceof Error && oclif !== undefined) {
    // oclif's own parse errors span several lines: fold them into one.
    const lines = error.message
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !/^See more help with/i.test(line))
    // Exit 1 like every other failure: one code for a refused flag, whoever refuses it (README, The CLI).
    const unknownFlags = (error as { flags?: unknown }).flags
    const suggestion = Array.isArray(unknownFlags) ? flagSuggestion(unknownFlags.map(String), knownFlags) : ''
    return { message: `${lines.join(': ').replace(/:\s*:/g, ':')}${suggestion} (see --help)`, exitCode: 1 }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { message: `Unexpected error: ${message}. This is a bug in paybox; DEBUG=* shows more.`, exitCode: 70 }
}
