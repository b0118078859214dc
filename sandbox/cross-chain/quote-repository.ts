// Cross-chain quote rows: the only code that reads or writes the cross_chain_quotes table.
import type { Kysely } from 'kysely'
import type { CrossChainQuoteRow, Database } from '../db/schema.js'

export async function insertQuote(db: Kysely<Database>, quote: CrossChainQuoteRow): Promise<void> {
  await db.insertInto('cross_chain_quotes').values(quote).execute()
}

export function findQuote(db: Kysely<Database>, id: string): Promise<CrossChainQuoteRow | undefined> {
  return db.selectFrom('cross_chain_quotes').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function updateQuote(db: Kysely<Database>, id: string, changes: Partial<CrossChainQuoteRow>): Promise<void> {
  await db.updateTable('cross_chain_quotes').set(changes).where('id', '=', id).execute()
}
