// Stored responses of requests made with an Idempotency-Key, per merchant.
import type { CompiledQuery, Kysely } from 'kysely'
import { isPostgres } from '../db/database.js'
import { errorCode, SQLSTATE } from '../db/error-codes.js'
import { defineStatement } from '../db/statement.js'
import type { Database, IdempotencyKeysTable } from '../db/schema.js'

// Both run in every POST with a key: statements, built once (db/statement.ts).
const findRecord = defineStatement((db, p: { merchantId: string; key: string }) =>
  db.selectFrom('idempotency_keys').selectAll().where('merchant_id', '=', p.merchantId).where('key', '=', p.key).compile(),
)
// A twin's committed row leaves this one unwritten (no error, which would abort the transaction).
const insertRecord = defineStatement((db, record: IdempotencyKeysTable) =>
  db
    .insertInto('idempotency_keys')
    .values(record)
    .onConflict((conflict) => conflict.columns(['merchant_id', 'key']).doNothing())
    .returning('key')
    .compile(),
)

// On PostgreSQL, deferred: it goes with the payment's other writes and the COMMIT, so a twin's
// committed row fails the transaction there (storedByTwin) instead of leaving this one unwritten.
const insertRecordWithCommit = defineStatement(
  (db, record: IdempotencyKeysTable) => db.insertInto('idempotency_keys').values(record).compile(),
  { deferred: true },
)

/** The primary key of idempotency_keys (the PostgreSQL baseline migration), which a twin's row violates. */
const KEY_CONSTRAINT = 'idempotency_keys_pk'

/** Whether `error` is a PostgreSQL transaction's failure to store its record because a twin's row was there first. */
export function storedByTwin(error: unknown): boolean {
  return errorCode(error) === SQLSTATE.uniqueViolation && (error as { constraint?: unknown }).constraint === KEY_CONSTRAINT
}

/** The lookup findIdempotencyRecord sends, as a PostgreSQL transaction's prefetch (db/database.ts runTransaction); SQLite has none. */
export function idempotencyRecordLookup(db: Kysely<Database>, merchantId: string, key: string): CompiledQuery | undefined {
  return isPostgres(db) ? findRecord.query(db, { merchantId, key }) : undefined
}

export async function findIdempotencyRecord(
  db: Kysely<Database>,
  merchantId: string,
  key: string,
): Promise<IdempotencyKeysTable | undefined> {
  return (await findRecord(db, { merchantId, key }))[0]
}

/**
 * Whether the record was written: false when the key's row is there already, stored by a twin
 * that committed meanwhile. In a PostgreSQL transaction always true: such a twin's row fails the
 * transaction at its COMMIT instead (storedByTwin), saving the statement's round trip.
 */
export async function insertIdempotencyRecord(db: Kysely<Database>, record: IdempotencyKeysTable): Promise<boolean> {
  if (db.isTransaction && isPostgres(db)) {
    await insertRecordWithCommit(db, record)
    return true
  }
  return (await insertRecord(db, record)).length > 0
}
