// Work that moves money in one database transaction, where a ledger transaction Stellar would
// include as failed (op_underfunded, op_no_trust, op_line_full, …) must still leave its trace:
// the work rolls back as a whole, then the failed transaction is recorded in a transaction of
// its own, its fee charged and its sequence number used, and the error goes on to the caller.
import { runTransaction, type SandboxDb } from '../db/database.js'
import type { Database } from '../db/schema.js'
import type { Transaction } from 'kysely'
import { LedgerError } from './ledger-errors.js'
import type { Ledger } from './ledger-types.js'

/** The ledger error behind an error: itself, or the cause of the HTTP error it became. */
function ledgerErrorOf(error: unknown): LedgerError | undefined {
  if (error instanceof LedgerError) return error
  const cause = error instanceof Error ? error.cause : undefined
  return cause instanceof LedgerError ? cause : undefined
}

/** Runs `work` in one transaction, recording a ledger transaction it failed as included (above). */
export function runRecordingFailures<T>(
  deps: { db: SandboxDb; ledger: Ledger },
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return recordingFailures(deps, () => runTransaction(deps.db, work))
}

/** Runs `run`, which starts its own transaction (the idempotency gate's, say), recording as above. */
export async function recordingFailures<T>(deps: { db: SandboxDb; ledger: Ledger }, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    const included = ledgerErrorOf(error)?.included
    if (included) await runTransaction(deps.db, (trx) => deps.ledger.recordFailed(trx, included.envelopeXdr))
    throw error
  }
}
