// Merchant rows: the only code that reads or writes the merchants table.
import type { Kysely } from 'kysely'
import { defineStatement } from '../db/statement.js'
import type { Database, MerchantRow, NewMerchant } from '../db/schema.js'

export async function insertMerchant(db: Kysely<Database>, merchant: NewMerchant): Promise<void> {
  await db.insertInto('merchants').values(merchant).execute()
}

// Every authenticated request looks its merchant up (never cached: keys rotate, and another
// process may rotate them): a statement, built once (db/statement.ts).
const merchantByApiKey = defineStatement((db, p: { apiKey: string }) =>
  db.selectFrom('merchants').selectAll().where('api_key', '=', p.apiKey).compile(),
)

export async function findMerchantByApiKey(db: Kysely<Database>, apiKey: string): Promise<MerchantRow | undefined> {
  return (await merchantByApiKey(db, { apiKey }))[0]
}

export function findMerchantById(db: Kysely<Database>, id: string): Promise<MerchantRow | undefined> {
  return db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst()
}

export function listMerchants(db: Kysely<Database>): Promise<MerchantRow[]> {
  return db.selectFrom('merchants').selectAll().orderBy('created_at').orderBy('id').execute()
}

export async function updateMerchant(
  db: Kysely<Database>,
  id: string,
  changes: Partial<Pick<MerchantRow, 'api_secret' | 'webhooks_paused'>>,
): Promise<void> {
  await db.updateTable('merchants').set(changes).where('id', '=', id).execute()
}
