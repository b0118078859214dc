// Payment rows: the only code that reads or writes the payments table.
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { skipLocked } from '../db/sql-dialect.js'
import type { PaymentStatus } from '../../src/api/enumerations.js'
import { isPostgres } from '../db/database.js'
import { defineStatement } from '../db/statement.js'
import { forUpdate } from '../db/sql-dialect.js'
import type { Database, NewPayment, PaymentRow, PaymentUpdate } from '../db/schema.js'
import type { PageRequest } from '../db/paginate.js'
import { newestFirstPage } from '../db/paginate.js'
import { archivedMerchantIds, splitDue, sweepNow, type Due, type SweepTimes } from '../merchants/merchant-repository.js'

export interface PaymentFilters {
  status?: PaymentStatus
  /** createdAt ≥ startDate (epoch ms). */
  startDate?: number
  /** createdAt ≤ endDate (epoch ms). */
  endDate?: number
  storeId?: string
}

// The per-request queries: statements, built once (db/statement.ts).
// Deferred: on PostgreSQL it goes with its event and the COMMIT, not in a round trip of its own (db/statement.ts).
const insertPaymentStatement = defineStatement((db, payment: NewPayment) => db.insertInto('payments').values(payment).compile(), {
  deferred: true,
})
const paymentForMerchant = defineStatement((db, p: { id: string; merchantId: string }) =>
  db.selectFrom('payments').selectAll().where('id', '=', p.id).where('merchant_id', '=', p.merchantId).compile(),
)
const paymentVersion = defineStatement((db, p: { id: string; merchantId: string }) =>
  db.selectFrom('payments').select('version').where('id', '=', p.id).where('merchant_id', '=', p.merchantId).compile(),
)

export async function insertPayment(db: Kysely<Database>, payment: NewPayment): Promise<void> {
  await insertPaymentStatement(db, payment)
}

export async function findPaymentForMerchant(db: Kysely<Database>, merchantId: string, id: string): Promise<PaymentRow | undefined> {
  return (await paymentForMerchant(db, { id, merchantId }))[0]
}

/** The version of a merchant's payment (bumped by a trigger on every change), without reading the row. */
export async function findPaymentVersion(db: Kysely<Database>, merchantId: string, id: string): Promise<number | undefined> {
  return (await paymentVersion(db, { id, merchantId }))[0]?.version
}

/**
 * A payment read for change: locked until the transaction ends, so of concurrent changes to one
 * payment (on any replica) each sees the one before it. Read first in its transaction, before
 * any ledger work (the lock order: a payment, then the ledger). `merchantId` narrows it to one merchant's.
 */
export function findPaymentForChange(
  db: Kysely<Database>,
  by: { id: string; merchantId?: string } | { memo: string },
): Promise<PaymentRow | undefined> {
  let query = db.selectFrom('payments').selectAll()
  query = 'memo' in by ? query.where('memo', '=', by.memo) : query.where('id', '=', by.id)
  if ('merchantId' in by && by.merchantId !== undefined) query = query.where('merchant_id', '=', by.merchantId)
  return forUpdate(db, query).executeTakeFirst()
}

export function findPaymentByShortCode(db: Kysely<Database>, shortCode: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('short_code', '=', shortCode).executeTakeFirst()
}

export function findPaymentById(db: Kysely<Database>, id: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst()
}

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
  return newestFirstPage(query, page, () =>
    dated ? countPaymentsCreatedBetween(db, merchantId, filters) : countPayments(db, merchantId, filters),
  )
}

/** How many of a merchant's payments have this status and store, from the counts the triggers keep. */
async function countPayments(
  db: Kysely<Database>,
  merchantId: string,
  filters: Pick<PaymentFilters, 'status' | 'storeId'>,
): Promise<number> {
  // payment_counts is kept by triggers (migration 2026-11-21T20-30) and is not a kysely table.
  const { status, storeId } = filters
  const { rows } = await sql<{ total: number }>`select coalesce(sum(count), 0) as total from ${keptCounts(db, 'payment_counts')}
    where merchant_id = ${merchantId}
    ${status === undefined ? sql`` : sql`and status = ${status}`}
    ${storeId === undefined ? sql`` : sql`and store_id = ${storeId}`}`.execute(db)
  return Number(rows[0]?.total ?? 0)
}

const DAY_MS = 86_400_000

// Whole UTC days from payment_day_counts, partial boundary days through the index; one statement,
// so one consistent snapshot while another process writes.
async function countPaymentsCreatedBetween(db: Kysely<Database>, merchantId: string, filters: PaymentFilters): Promise<number> {
  const status = filters.status ?? null
  const storeId = filters.storeId ?? null
  const { startDate: first, endDate: last } = filters
  if (first !== undefined && last !== undefined && first > last) return 0

  const rowsWhere = (...bounds: Array<RawBuilder<unknown>>) => sql<number>`(select count(*) from payments
    where merchant_id = ${merchantId}
    ${status === null ? sql`` : sql`and status = ${status}`}
    ${storeId === null ? sql`` : sql`and store_id = ${storeId}`}
    ${sql.join(
      bounds.map((bound) => sql`and ${bound}`),
      sql` `,
    )})`
  const daysBetween = (
    from: number | undefined,
    to: number | undefined,
  ) => sql<number>`(select coalesce(sum(count), 0) from ${keptCounts(db, 'payment_day_counts')}
    where merchant_id = ${merchantId}
    ${from === undefined ? sql`` : sql`and day >= ${from}`}
    ${to === undefined ? sql`` : sql`and day <= ${to}`}
    ${status === null ? sql`` : sql`and status = ${status}`}
    ${storeId === null ? sql`` : sql`and store_id = ${storeId}`})`
  const atLeast = (ms: number) => sql`created_at >= ${ms}`
  const atMost = (ms: number) => sql`created_at <= ${ms}`
  const below = (ms: number) => sql`created_at < ${ms}`
  const above = (ms: number) => sql`created_at > ${ms}`

  const firstDay = first === undefined ? undefined : Math.floor(first / DAY_MS)
  const lastDay = last === undefined ? undefined : Math.floor(last / DAY_MS)
  // Within one day, counting the range itself touches at most that day's rows.
  if (first !== undefined && last !== undefined && firstDay === lastDay) return selectTotal(db, rowsWhere(atLeast(first), atMost(last)))

  // Days fromDay..toDay come from the buckets; a boundary day is either left out and its part in
  // the range counted, or kept and its part outside the range subtracted.
  const terms: Array<RawBuilder<number>> = []
  const negated: Array<RawBuilder<number>> = []
  let fromDay = firstDay
  let toDay = lastDay
  if (first !== undefined && firstDay !== undefined && first !== firstDay * DAY_MS) {
    const dayStart = firstDay * DAY_MS
    if (first - dayStart < DAY_MS / 2) negated.push(rowsWhere(atLeast(dayStart), below(first)))
    else {
      terms.push(rowsWhere(atLeast(first), below(dayStart + DAY_MS)))
      fromDay = firstDay + 1
    }
  }
  if (last !== undefined && lastDay !== undefined) {
    const nextDayStart = (lastDay + 1) * DAY_MS
    if (nextDayStart - last <= DAY_MS / 2) negated.push(rowsWhere(above(last), below(nextDayStart)))
    else {
      terms.push(rowsWhere(atLeast(lastDay * DAY_MS), atMost(last)))
      toDay = lastDay - 1
    }
  }
  const whole = fromDay !== undefined && toDay !== undefined && fromDay > toDay ? sql<number>`0` : daysBetween(fromDay, toDay)
  const total = sql<number>`${whole}${sql.join(
    terms.map((term) => sql` + ${term}`),
    sql``,
  )}${sql.join(
    negated.map((term) => sql` - ${term}`),
    sql``,
  )}`
  return selectTotal(db, total)
}

async function selectTotal(db: Kysely<Database>, total: RawBuilder<number>): Promise<number> {
  const { rows } = await sql<{ total: number }>`select ${total} as total`.execute(db)
  return Number(rows[0]?.total ?? 0)
}

export async function updatePayment(db: Kysely<Database>, id: string, changes: PaymentUpdate): Promise<void> {
  await db.updateTable('payments').set(changes).where('id', '=', id).execute()
}

/**
 * Payments of active merchants (or of `times.merchantId`) with their merchant's time as due_now
 * (sweepNow): what each sweep of payments narrows to its own due rows.
 */
function paymentsOnTheirClocks(db: Kysely<Database>, times: SweepTimes) {
  return db
    .selectFrom('merchants')
    .crossJoin('payments')
    .selectAll('payments')
    .select(sweepNow(times).as('due_now'))
    .where('merchants.archived_at', 'is', null)
    .$if(times.merchantId !== undefined, (query) => query.where('merchants.id', '=', times.merchantId!))
    .whereRef('payments.merchant_id', '=', 'merchants.id')
}

/** Open payments whose expiry has passed on their merchant's clock, at most `limit` at a time (sweepNow). */
export async function findDuePayments(db: Kysely<Database>, times: SweepTimes, limit: number): Promise<Array<Due<PaymentRow>>> {
  if (isPostgres(db)) return findDuePaymentsByMerchant(db, times, limit)
  const rows = await skipLocked(
    db,
    paymentsOnTheirClocks(db, times)
      // A literal, not a parameter: SQLite uses the partial index payments_open_by_merchant_expiry only for a query it can see matches.
      .where('payments.status', '=', sql.lit('open'))
      .where('payments.expires_at', '<=', sweepNow(times))
      .limit(limit),
    'payments',
  ).execute()
  return rows.map(splitDue)
}

/**
 * findDuePayments on PostgreSQL: each merchant's due rows read from its end of the partial index
 * payments_open_by_merchant_expiry (a lateral subquery ordered by expiry), where the join of all
 * merchants' payments had PostgreSQL scan every open payment at each sweep of every replica, every
 * second: 24 ms on 25,000 open payments, against 0.1 ms.
 */
async function findDuePaymentsByMerchant(db: Kysely<Database>, times: SweepTimes, limit: number): Promise<Array<Due<PaymentRow>>> {
  const rows = await db
    .selectFrom('merchants')
    .innerJoinLateral(
      (eb) =>
        skipLocked(
          db,
          eb
            .selectFrom('payments')
            .selectAll('payments')
            .whereRef('payments.merchant_id', '=', 'merchants.id')
            .where('payments.status', '=', sql.lit('open'))
            .where('payments.expires_at', '<=', sweepNow(times))
            .orderBy('payments.expires_at')
            .limit(limit),
          'payments',
        ).as('due'),
      (join) => join.onTrue(),
    )
    .selectAll('due')
    .select(sweepNow(times).as('due_now'))
    .where('merchants.archived_at', 'is', null)
    .$if(times.merchantId !== undefined, (query) => query.where('merchants.id', '=', times.merchantId!))
    .limit(limit)
    .execute()
  return rows.map((row) => splitDue(row as PaymentRow & { due_now: number }))
}

export function findPaymentByMemo(db: Kysely<Database>, memo: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('memo', '=', memo).executeTakeFirst()
}

/** USDC (stroops) a merchant settled with settled_at in (from, to]: gross, fees included. */
export async function sumSettledVolume(db: Kysely<Database>, merchantId: string, from: number, to: number): Promise<bigint> {
  const { volume, stroops } = await db
    .selectFrom('payments')
    .where('merchant_id', '=', merchantId)
    .where('settled_at', '>', from)
    .where('settled_at', '<=', to)
    // SQLite sums integers exactly but fails past int64 ("integer overflow"), and JavaScript
    // numbers are not exact beyond 2^53: whole USDC and the stroops below one are summed apart,
    // as text, and put together as a bigint.
    .select([
      sql<string | null>`cast(sum((settlement_amount + settlement_fee) / 10000000) as text)`.as('volume'),
      sql<string | null>`cast(sum((settlement_amount + settlement_fee) % 10000000) as text)`.as('stroops'),
    ])
    .executeTakeFirstOrThrow()
  return BigInt(volume ?? '0') * 10_000_000n + BigInt(stroops ?? '0')
}

/** Payments whose settlement transaction is in a ledger at or before `ledgerSequence` and still processing. */
export function findSettlementsInLedgers(db: Kysely<Database>, ledgerSequence: number): Promise<PaymentRow[]> {
  return (
    db
      .selectFrom('payments')
      .innerJoin('ledger_transactions', 'ledger_transactions.hash', 'payments.settlement_tx_id')
      .selectAll('payments')
      // A literal, not a parameter: SQLite uses the partial index payments_settling only for a query it can see matches.
      .where('payments.settlement_status', '=', sql.lit('processing'))
      .where('ledger_transactions.ledger_sequence', '<=', ledgerSequence)
      .execute()
  )
}

export function findPaymentsByIds(db: Kysely<Database>, ids: string[]): Promise<PaymentRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('payments')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute()
}

/** Escrow orders still unfunded (created) whose escrow expiry has passed on their merchant's clock (sweepNow). */
export async function findDueEscrows(db: Kysely<Database>, times: SweepTimes, limit: number): Promise<Array<Due<PaymentRow>>> {
  const rows = await skipLocked(
    db,
    paymentsOnTheirClocks(db, times)
      // A literal, not a parameter: SQLite uses the partial index payments_escrow_unfunded only for a query it can see matches.
      .where('payments.escrow_status', '=', sql.lit('created'))
      .where('payments.escrow_expires_at', '<=', sweepNow(times))
      .limit(limit),
    'payments',
  ).execute()
  return rows.map(splitDue)
}

/** Escrow orders (payments with one), newest first; one merchant's, or every merchant's when none is given. */
export function listEscrowPayments(db: Kysely<Database>, merchantId: string | undefined, page: PageRequest) {
  let query = db.selectFrom('payments').where('escrow_status', 'is not', null)
  if (merchantId !== undefined) query = query.where('merchant_id', '=', merchantId)
  else query = query.where('merchant_id', 'not in', archivedMerchantIds(db))
  return newestFirstPage(query, page)
}

/** How many payments each merchant (or the one given) has per status, from the counts the triggers keep. */
export async function countPaymentsByStatus(
  db: Kysely<Database>,
  merchantId?: string,
): Promise<Array<{ merchantId: string; status: string; count: number }>> {
  const { rows } = await sql<{ merchant_id: string; status: string; total: number }>`select merchant_id, status, sum(count) as total
    from ${keptCounts(db, 'payment_counts')} ${merchantId === undefined ? sql`` : sql`where merchant_id = ${merchantId}`}
    group by merchant_id, status`.execute(db)
  return rows.map((row) => ({ merchantId: row.merchant_id, status: row.status, count: Number(row.total) }))
}

/**
 * The rows a count table's totals are summed over, as `count`. On PostgreSQL a change of a
 * payment inserts delta rows instead of moving the count rows (which every parallel insert
 * would wait on: migration 2026-11-27T16-00); they count until foldPaymentCounts moves them in.
 */
function keptCounts(db: Kysely<Database>, table: 'payment_counts' | 'payment_day_counts'): RawBuilder<unknown> {
  if (!isPostgres(db)) return sql.table(table)
  const day = table === 'payment_day_counts' ? sql`day, ` : sql``
  return sql`(select merchant_id, ${day}status, store_id, count from ${sql.table(table)}
    union all select merchant_id, ${day}status, store_id, delta from payment_count_deltas) as counts`
}

/**
 * Moves PostgreSQL's count deltas into the count tables, in one statement: a total read before
 * sees them as deltas, one read after as counts. Of two folds at once, each delta row is deleted
 * (and added) by one only; the count rows are locked in key order, so two folds never deadlock.
 * Returns how many delta rows it folded.
 */
export async function foldPaymentCounts(db: Kysely<Database>): Promise<number> {
  if (!isPostgres(db)) return 0
  const { rows } = await sql<{ folded: number }>`with moved as (delete from payment_count_deltas returning *),
    by_day as (select merchant_id, day, status, store_id, sum(delta) as delta from moved group by 1, 2, 3, 4),
    days as (insert into payment_day_counts as c (merchant_id, day, status, store_id, count)
      select merchant_id, day, status, store_id, delta from by_day order by 1, 2, 3, 4
      on conflict (merchant_id, day, status, store_id) do update set count = c.count + excluded.count),
    totals as (insert into payment_counts as c (merchant_id, status, store_id, count)
      select merchant_id, status, store_id, sum(delta) from by_day group by 1, 2, 3 order by 1, 2, 3
      on conflict (merchant_id, status, store_id) do update set count = c.count + excluded.count)
    select count(*)::int as folded from moved`.execute(db)
  return rows[0]?.folded ?? 0
}
