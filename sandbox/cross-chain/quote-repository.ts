// Cross-chain quote (bridge order) rows: the only code that reads or writes the cross_chain_quotes table.
import { sql, type Kysely } from 'kysely'
import { skipLocked } from '../db/sql-dialect.js'
import type { PageRequest } from '../db/paginate.js'
import type { CrossChainQuoteRow, Database } from '../db/schema.js'
import { archivedMerchantIds, splitDue, sweepNow, type Due, type SweepTimes } from '../merchants/merchant-repository.js'

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
const LIVE_JOINED = sql<boolean>`cross_chain_quotes.status in ('PENDING_DEPOSIT', 'INCOMPLETE_DEPOSIT')`

/** A payment's quotes that still take deposits (at most one, but for one made before this rule). */
export function findLiveQuotesOfPayment(db: Kysely<Database>, paymentId: string): Promise<CrossChainQuoteRow[]> {
  return db.selectFrom('cross_chain_quotes').selectAll().where('payment_id', '=', paymentId).where(LIVE).execute()
}

/** Live quotes whose deadline has passed on their merchant's clock, at most `limit` (sweepNow). */
export async function findDueQuotes(db: Kysely<Database>, times: SweepTimes, limit: number): Promise<Array<Due<CrossChainQuoteRow>>> {
  const now = sweepNow(times)
  const rows = await skipLocked(
    db,
    db
      .selectFrom('merchants')
      .crossJoin('cross_chain_quotes')
      .selectAll('cross_chain_quotes')
      .select(now.as('due_now'))
      .where('merchants.archived_at', 'is', null)
      .$if(times.merchantId !== undefined, (query) => query.where('merchants.id', '=', times.merchantId!))
      .whereRef('cross_chain_quotes.merchant_id', '=', 'merchants.id')
      .where(LIVE_JOINED)
      .where('cross_chain_quotes.expires_at', '<=', now)
      .limit(limit),
    'cross_chain_quotes',
  ).execute()
  return rows.map(splitDue)
}

/** Bridge orders, newest first; one merchant's (through their payments), or all when none is given. */
export async function listQuotes(
  db: Kysely<Database>,
  merchantId: string | undefined,
  page: PageRequest,
): Promise<{ rows: CrossChainQuoteRow[]; total: number }> {
  let query = db.selectFrom('cross_chain_quotes').innerJoin('payments', 'payments.id', 'cross_chain_quotes.payment_id')
  if (merchantId !== undefined) query = query.where('payments.merchant_id', '=', merchantId)
  else query = query.where('payments.merchant_id', 'not in', archivedMerchantIds(db))
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
