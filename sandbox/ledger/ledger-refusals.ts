// A movement of money the ledger refused, as the API answers it: the ledger's result codes in an
// ApiError's message, the ledger error kept as its cause.
import { ApiError } from '../errors.js'
import { LedgerError } from './ledger-errors.js'

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
