// Payment rows: the only code that reads or writes the payments table.
import { sql, type Kysely } from 'kysely'
import type { Database, NewPayment, PaymentRow, PaymentUpdate } from '../db/schema.js'
import type { PageRequest } from '../http/pagination.js'
import { newestFirstPage } from '../db/paginate.js'

export interface PaymentFilters {
  status?: string
  /** createdAt ≥ startDate (epoch ms). */
  startDate?: number
  /** createdAt ≤ endDate (epoch ms). */
  endDate?: number
  storeId?: string
}

export async function insertPayment(db: Kysely<Database>, payment: NewPayment): Promise<void> {
  await db.insertInto('payments').values(payment).execute()
}

export function findPaymentForMerchant(db: Kysely<Database>, merchantId: string, id: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', id).where('merchant_id', '=', merchantId).executeTakeFirst()
}

export function findPaymentByShortCode(db: Kysely<Database>, shortCode: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('short_code', '=', shortCode).executeTakeFirst()
}

export function findPaymentById(db: Kysely<Database>, id: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst()
}

/** One page of a merchant's payments, newest first, and how many match in all. */
export async function listPayments(
  db: Kysely<Database>,
  merchantId: string,
  filters: PaymentFilters,
  page: PageRequest,
): Promise<{ rows: PaymentRow[]; total: number }> {
  let query = db.selectFrom('payments').where('merchant_id', '=', merchantId)
  if (filters.status !== undefined) query = query.where('status', '=', filters.status)
  if (filters.storeId !== undefined) query = query.where('store_id', '=', filters.storeId)
  if (filters.startDate !== undefined) query = query.where('created_at', '>=', filters.startDate)
  if (filters.endDate !== undefined) query = query.where('created_at', '<=', filters.endDate)
  const dated = filters.startDate !== undefined || filters.endDate !== undefined
  return newestFirstPage(query, page, dated ? undefined : () => countPayments(db, merchantId, filters))
}

/** How many of a merchant's payments have this status and store, from the counts the triggers keep. */
async function countPayments(db: Kysely<Database>, merchantId: string, filters: Pick<PaymentFilters, 'status' | 'storeId'>): Promise<number> {
  // payment_counts is kept by triggers (migration 2026-11-21T20-30) and is not a kysely table.
  const { rows } = await sql<{ total: number }>`select coalesce(sum(count), 0) as total from payment_counts
    where merchant_id = ${merchantId}
    and (${filters.status ?? null} is null or status = ${filters.status ?? null})
    and (${filters.storeId ?? null} is null or store_id = ${filters.storeId ?? null})`.execute(db)
  return rows[0]?.total ?? 0
}

export async function updatePayment(db: Kysely<Database>, id: string, changes: PaymentUpdate): Promise<void> {
  await db.updateTable('payments').set(changes).where('id', '=', id).execute()
}

/** Open payments whose expiry has passed, oldest first, at most `limit` at a time. */
export function findDuePayments(db: Kysely<Database>, now: number, limit: number): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'open')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute()
}

export function findPaymentByMemo(db: Kysely<Database>, memo: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('memo', '=', memo).executeTakeFirst()
}

/** USDC (stroops) a merchant settled with settled_at in (from, to]: gross, fees included. */
export async function sumSettledVolume(db: Kysely<Database>, merchantId: string, from: number, to: number): Promise<bigint> {
  const { volume } = await db
    .selectFrom('payments')
    .where('merchant_id', '=', merchantId)
    .where('settled_at', '>', from)
    .where('settled_at', '<=', to)
    // As text: SQLite sums integers exactly, JavaScript numbers would not beyond 2^53.
    .select(sql<string | null>`cast(sum(settlement_amount + settlement_fee) as text)`.as('volume'))
    .executeTakeFirstOrThrow()
  return BigInt(volume ?? '0')
}

/** Payments whose settlement transaction is in a ledger at or before `ledgerSequence` and still processing. */
export function findSettlementsInLedgers(db: Kysely<Database>, ledgerSequence: number): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .innerJoin('ledger_transactions', 'ledger_transactions.hash', 'payments.settlement_tx_id')
    .selectAll('payments')
    .where('payments.settlement_status', '=', 'processing')
    .where('ledger_transactions.ledger_sequence', '<=', ledgerSequence)
    .execute()
}

export function findPaymentsByIds(db: Kysely<Database>, ids: string[]): Promise<PaymentRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db.selectFrom('payments').selectAll().where('id', 'in', [...new Set(ids)]).execute()
}

/** Escrow orders still unfunded (created) whose escrow expiry has passed, oldest first. */
export function findDueEscrows(db: Kysely<Database>, now: number, limit: number): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('escrow_status', '=', 'created')
    .where('escrow_expires_at', '<=', now)
    .orderBy('escrow_expires_at')
    .limit(limit)
    .execute()
}
