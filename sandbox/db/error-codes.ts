// The codes database drivers put on their errors, read in one way, and the PostgreSQL SQLSTATEs
// the sandbox tells apart, each named once (https://www.postgresql.org/docs/current/errcodes-appendix.html).

/** The SQLSTATEs the sandbox answers differently; the rest are failures as any other. */
export const SQLSTATE = {
  /** A row whose key (or unique index) another transaction stored first. */
  uniqueViolation: '23505',
  /** A schema of that name exists already: another transaction created it first. */
  duplicateSchema: '42P06',
  /** PostgreSQL undid the transaction to keep it serializable; running it again is safe. */
  serializationFailure: '40001',
  /** PostgreSQL undid the transaction to break a deadlock; running it again is safe. */
  deadlockDetected: '40P01',
  /** A wait in a lock's queue ran past lock_timeout. */
  lockNotAvailable: '55P03',
  /** A statement ran past statement_timeout (or was cancelled). */
  queryCanceled: '57014',
  /** The server ended a transaction left idle past idle_in_transaction_session_timeout, and its session. */
  idleInTransactionTimeout: '25P03',
  /** The server refused the user's password. */
  invalidPassword: '28P01',
  /** The server refused the user (pg_hba.conf, no such role). */
  invalidAuthorization: '28000',
  /** No database of the URL's name. */
  invalidCatalogName: '3D000',
  /**
   * paybox_take_claim's own (migration 2026-11-27T23-00-payment-create-costs, which spells it as
   * migrations import no app code): the claim a transaction took at its COMMIT is held by another.
   */
  claimHeld: 'PB409',
} as const

/**
 * The code on a driver's error: PostgreSQL's SQLSTATE, SQLite's result code name (SQLITE_NOTADB),
 * or a socket's (ECONNREFUSED); undefined when it carries none.
 */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code
  return typeof code === 'string' ? code : undefined
}
