// Cross-chain quote (bridge order) rows: the only code that reads or writes the cross_chain_quotes table.
import { sql, type Kysely } from 'kysely'
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

// Literals, not parameters: SQLite uses the partial index only for a query it can see matches.
const LIVE = sql<boolean>`status in ('PENDING_DEPOSIT', 'INCOMPLETE_DEPOSIT')`

/** A payment's quotes that still take deposits (at most one, but for one made before this rule). */
export function findLiveQuotesOfPayment(db: Kysely<Database>, paymentId: string): Promise<CrossChainQuoteRow[]> {
  return db.selectFrom('cross_chain_quotes').selectAll().where('payment_id', '=', paymentId).where(LIVE).execute()
}

/** Live quotes whose deadline has passed, oldest deadline first. */
export function findDueQuotes(db: Kysely<Database>, now: number, limit: number): Promise<CrossChainQuoteRow[]> {
  return db
    .selectFrom('cross_chain_quotes')
    .selectAll()
    .where(LIVE)
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute()
}
