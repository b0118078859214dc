// Merchant rows: the only code that reads or writes the merchants table.
import type { Kysely } from 'kysely'
import type { Database, MerchantRow, NewMerchant } from '../db/schema.js'

export async function insertMerchant(db: Kysely<Database>, merchant: NewMerchant): Promise<void> {
  await db.insertInto('merchants').values(merchant).execute()
}

export function findMerchantByApiKey(db: Kysely<Database>, apiKey: string): Promise<MerchantRow | undefined> {
  return db.selectFrom('merchants').selectAll().where('api_key', '=', apiKey).executeTakeFirst()
}

export function findMerchantById(db: Kysely<Database>, id: string): Promise<MerchantRow | undefined> {
  return db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst()
}

export function listMerchants(db: Kysely<Database>): Promise<MerchantRow[]> {
  return db.selectFrom('merchants').selectAll().orderBy('created_at').orderBy('id').execute()
}

export async function updateMerchant(db: Kysely<Database>, id: string, changes: Partial<Pick<MerchantRow, 'api_secret' | 'webhooks_paused'>>): Promise<void> {
  await db.updateTable('merchants').set(changes).where('id', '=', id).execute()
}
