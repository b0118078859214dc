// One page of a list query, newest first, and how many rows match in all: what the payment,
// refund and invoice lists answer with. The query carries its filters; the page says which slice.
import { sql, type Selectable, type SelectQueryBuilder } from 'kysely'
import type { Database } from './schema.js'

/** Which page of a list, counted from 1, and how many items a page holds. */
export interface PageRequest {
  page: number
  limit: number
}

/** Tables listed newest first: each has created_at, and an id that breaks ties within a millisecond. */
type ListedTable = 'payments' | 'refunds' | 'invoices'

export async function newestFirstPage<T extends ListedTable>(
  query: SelectQueryBuilder<Database, T, object>,
  page: PageRequest,
  /** How many rows match, when the caller knows a cheaper way than counting them (payment_counts). */
  countMatches?: () => Promise<number>,
): Promise<{ rows: Array<Selectable<Database[T]>>; total: number }> {
  const rows = await query
    .selectAll()
    .orderBy(sql.ref('created_at'), 'desc')
    .orderBy(sql.ref('id'), 'desc')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute()
  const total = countMatches
    ? await countMatches()
    : (await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total
  // kysely cannot name the row of selectAll() over a generic table; it is the table's row.
  return { rows: rows as unknown as Array<Selectable<Database[T]>>, total: Number(total) }
}
