// Errors the CLI reports: a UserError is something the user can fix (bad flag value, missing
// setting) and prints as one line with a hint; anything unexpected is reported as a bug.
import { STATUS_CODES } from 'node:http'
import { PayboxApiError, PayboxConnectionError } from '../client/errors.js'
import { UserError } from '../user-error.js'
import { flagSuggestion } from './did-you-mean.js'
import { nameFlagsIn, type FlagOfField } from './field-flags.js'

/** How a user without a running sandbox starts one, from the package or from a clone. */
export const START_SANDBOX_HINT = 'start one with: npx paybox sandbox start, or npm start in a clone'

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

/**
 * Every API error as "400 Bad Request: …": the status with its standard phrase, then what the
 * API said. A reason of its own (the spec's "Asset is not supported") follows the phrase.
 */
function apiErrorLine(statusCode: number, reason: string, message: string): string {
  const phrase = STATUS_CODES[statusCode]
  if (phrase === undefined) return `${statusCode} ${apiErrorText(reason, message)}`
  const sameAsPhrase = (text: string) => text.toLowerCase() === phrase.toLowerCase()
  const detail = sameAsPhrase(reason) ? message : apiErrorText(reason, message)
  return !detail || sameAsPhrase(detail) ? `${statusCode} ${phrase}` : `${statusCode} ${phrase}: ${detail}`
}

export interface ReportContext {
  /** Lets an unknown flag be answered with the nearest one. */
  knownFlags?: readonly string[]
  /** The flag that sent an API field ("--next-number" for next_number), to name it as the user typed it. */
  flagOfField?: FlagOfField
}

/** The one line the CLI prints and its exit code. */
export function reportError(error: unknown, { knownFlags = [], flagOfField }: ReportContext = {}): ErrorReport {
  if (error instanceof PayboxApiError) {
    const message = flagOfField ? nameFlagsIn(error.message, flagOfField) : error.message
    return {
      message: apiErrorLine(error.statusCode, error.reason, message),
      exitCode: 1,
      statusCode: error.statusCode,
      reason: error.reason,
    }
  }
  if (error instanceof PayboxConnectionError) {
    return { message: `${error.message} (is the sandbox running? ${START_SANDBOX_HINT})`, exitCode: 1 }
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
