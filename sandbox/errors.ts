// Errors a request can end in, thrown by the domain: each carries the HTTP status and the
// reason the API answers with (spec 7); sandbox/http/errors.ts turns them into the answer.
import { LedgerError } from './ledger/ledger-errors.js'

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly reason: string,
    message?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? reason)
    this.name = 'ApiError'
  }
}

export const badRequest = (message: string, reason = 'Bad Request') => new ApiError(400, reason, message)
export const unauthorized = (reason: string, message: string) => new ApiError(401, reason, message)
export const notFound = (message = 'Not Found') => new ApiError(404, 'Not Found', message)
export const conflict = (reason: string, message?: string) => new ApiError(409, reason, message)
export const unprocessable = (reason: string, message?: string) => new ApiError(422, reason, message)

/**
 * Runs a movement of money on the ledger; when the ledger refuses it, answers `status` with
 * what was refused and the ledger's result codes (tx_failed, op_underfunded, …).
 */
export async function refusedByLedgerAs<T>(status: 400 | 409, what: string, move: () => Promise<T>): Promise<T> {
  try {
    return await move()
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error
    throw ledgerRefusal(status, what, error)
  }
}

/** A ledger error as an ApiError; its cause stays the ledger error, whose failed transaction runRecordingFailures records. */
export function ledgerRefusal(status: 400 | 409, what: string, error: LedgerError): ApiError {
  const codes = [error.code, ...(error.operationCodes ?? [])].join(', ')
  const included = error.included
    ? ` The transaction ${error.included.hash} was included in a ledger as failed: its fee was charged and its sequence number used.`
    : ''
  const refusal = new ApiError(
    status,
    status === 400 ? 'Bad Request' : 'Conflict',
    `The ledger refused ${what} (${codes}): ${error.message}.${included}`,
  )
  refusal.cause = error
  return refusal
}
