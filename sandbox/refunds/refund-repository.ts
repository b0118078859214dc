// Refund rows: the only code that reads or writes the refunds table.
import type { Kysely } from 'kysely'
import type { Database, RefundRow } from '../db/schema.js'
import type { PageRequest } from '../db/paginate.js'
import { newestFirstPage } from '../db/paginate.js'

export async function insertRefund(db: Kysely<Database>, refund: RefundRow): Promise<void> {
  await db.insertInto('refunds').values(refund).execute()
}

export function findRefundForMerchant(db: Kysely<Database>, merchantId: string, id: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).where('merchant_id', '=', merchantId).executeTakeFirst()
}

/** One page of a merchant's refunds, newest first, and how many there are in all. */
export async function listRefunds(
  db: Kysely<Database>,
  merchantId: string,
  page: PageRequest,
): Promise<{ rows: RefundRow[]; total: number }> {
  const query = db.selectFrom('refunds').where('merchant_id', '=', merchantId)
  return newestFirstPage(query, page)
}
