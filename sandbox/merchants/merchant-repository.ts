// Merchant rows: the only code that reads or writes the merchants table.
import type { Kysely } from 'kysely'
import { runStatement } from '../db/database.js'
import type { Database, MerchantRow, NewMerchant } from '../db/schema.js'

export async function insertMerchant(db: Kysely<Database>, merchant: NewMerchant): Promise<void> {
  await db.insertInto('merchants').values(merchant).execute()
}

// Every authenticated request looks its merchant up (never cached: keys rotate, and another
// process may rotate them), so the query is built and compiled once and run with the key.
let byApiKeySql: string | undefined

export async function findMerchantByApiKey(db: Kysely<Database>, apiKey: string): Promise<MerchantRow | undefined> {
  byApiKeySql ??= db.selectFrom('merchants').selectAll().where('api_key', '=', apiKey).compile().sql
  const { rows } = await runStatement<MerchantRow>(db, byApiKeySql, [apiKey])
  return rows[0]
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
