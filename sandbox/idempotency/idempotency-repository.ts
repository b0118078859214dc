// Stored responses of requests made with an Idempotency-Key, per merchant.
import type { Kysely } from 'kysely'
import { runStatement } from '../db/database.js'
import type { Database, IdempotencyKeysTable } from '../db/schema.js'

// Both run in every POST with a key: built and compiled by kysely once, run with each call's values.
let findSql: string | undefined
let insertSql: string | undefined
const RECORD_COLUMNS = ['merchant_id', 'key', 'request_hash', 'response_status', 'response_body', 'created_at'] as const

export async function findIdempotencyRecord(
  db: Kysely<Database>,
  merchantId: string,
  key: string,
): Promise<IdempotencyKeysTable | undefined> {
  findSql ??= db.selectFrom('idempotency_keys').selectAll().where('merchant_id', '=', merchantId).where('key', '=', key).compile().sql
  const { rows } = await runStatement<IdempotencyKeysTable>(db, findSql, [merchantId, key])
  return rows[0]
}

export async function insertIdempotencyRecord(db: Kysely<Database>, record: IdempotencyKeysTable): Promise<void> {
  // Compiled from the record's columns in RECORD_COLUMNS order, the order the values are bound in.
  insertSql ??= db
    .insertInto('idempotency_keys')
    .values(Object.fromEntries(RECORD_COLUMNS.map((column) => [column, record[column]])) as unknown as IdempotencyKeysTable)
    .compile().sql
  await runStatement(db, insertSql, RECORD_COLUMNS.map((column) => record[column]))
}
