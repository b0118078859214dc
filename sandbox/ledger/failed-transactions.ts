// A ledger transaction Stellar would include as failed (op_underfunded, …) must leave its trace even
// though the work around it rolls back: it is recorded afterwards in a transaction of its own.
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
