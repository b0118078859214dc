// Stored responses of requests made with an Idempotency-Key, per merchant.
import type { Kysely } from 'kysely'
import type { Database, IdempotencyKeysTable } from '../db/schema.js'

export function findIdempotencyRecord(
  db: Kysely<Database>,
  merchantId: string,
  key: string,
): Promise<IdempotencyKeysTable | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('key', '=', key)
    .executeTakeFirst()
}

export async function insertIdempotencyRecord(db: Kysely<Database>, record: IdempotencyKeysTable): Promise<void> {
  await db.insertInto('idempotency_keys').values(record).execute()
}
