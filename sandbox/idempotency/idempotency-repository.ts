// Stored responses of requests made with an Idempotency-Key, per merchant.
import type { Kysely } from 'kysely'
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

export async function findIdempotencyRecord(
  db: Kysely<Database>,
  merchantId: string,
  key: string,
): Promise<IdempotencyKeysTable | undefined> {
  return (await findRecord(db, { merchantId, key }))[0]
}

/** Whether the record was written: false when the key's row is there already, stored by a twin that committed meanwhile. */
export async function insertIdempotencyRecord(db: Kysely<Database>, record: IdempotencyKeysTable): Promise<boolean> {
  return (await insertRecord(db, record)).length > 0
}
