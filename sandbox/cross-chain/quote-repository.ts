// Cross-chain quote (bridge order) rows: the only code that reads or writes the cross_chain_quotes table.
import { sql, type Kysely } from 'kysely'
import type { PageRequest } from '../db/paginate.js'
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

/** Bridge orders, newest first; one merchant's (through their payments), or all when none is given. */
export async function listQuotes(
  db: Kysely<Database>,
  merchantId: string | undefined,
  page: PageRequest,
): Promise<{ rows: CrossChainQuoteRow[]; total: number }> {
  let query = db.selectFrom('cross_chain_quotes').innerJoin('payments', 'payments.id', 'cross_chain_quotes.payment_id')
  if (merchantId !== undefined) query = query.where('payments.merchant_id', '=', merchantId)
  const [rows, count] = await Promise.all([
    query
      .selectAll('cross_chain_quotes')
      .orderBy('cross_chain_quotes.created_at', 'desc')
      .orderBy('cross_chain_quotes.id', 'desc')
      .limit(page.limit)
      .offset((page.page - 1) * page.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}
