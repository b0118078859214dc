// Invoice and invoice-settings rows: the only code that reads or writes those tables.
import { sql, type Kysely } from 'kysely'
import type { InvoiceStatus } from '../../src/api/enumerations.js'
import type { Database, InvoiceRow, InvoiceSettingsRow } from '../db/schema.js'
import type { PageRequest } from '../db/paginate.js'
import { newestFirstPage } from '../db/paginate.js'
import { forUpdate, inByteOrder, integerOfDigits, skipLocked } from '../db/sql-dialect.js'
import { splitDue, sweepNow, type Due, type SweepTimes } from '../merchants/merchant-repository.js'

export async function insertInvoice(db: Kysely<Database>, invoice: InvoiceRow): Promise<void> {
  await db.insertInto('invoices').values(invoice).execute()
}

export async function updateInvoice(db: Kysely<Database>, id: string, changes: Partial<InvoiceRow>): Promise<void> {
  await db.updateTable('invoices').set(changes).where('id', '=', id).execute()
}

export function findInvoiceForMerchant(db: Kysely<Database>, merchantId: string, id: string): Promise<InvoiceRow | undefined> {
  return db.selectFrom('invoices').selectAll().where('id', '=', id).where('merchant_id', '=', merchantId).executeTakeFirst()
}

export function findInvoiceByPayment(db: Kysely<Database>, paymentId: string): Promise<InvoiceRow | undefined> {
  return db.selectFrom('invoices').selectAll().where('payment_id', '=', paymentId).executeTakeFirst()
}

export async function invoiceNumberTaken(db: Kysely<Database>, merchantId: string, invoiceNumber: string): Promise<boolean> {
  const row = await db
    .selectFrom('invoices')
    .select('id')
    .where('merchant_id', '=', merchantId)
    .where('invoice_number', '=', invoiceNumber)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * The first counter from `from` on whose number (`prefix`, then the counter zero-padded to 4
 * digits) no invoice of the merchant has, in one query whatever the count. The counters taken
 * are those the numbers in the index range of the prefix and a digit spell exactly as the
 * counter writes them (read as an integer, written back, compared). If they run from `from`
 * without a hole (the usual shape), their count and maximum tell the answer in one pass;
 * otherwise the end of the run from `from` is the first taken counter whose successor is free
 * (an anti-join; window functions cost ten times the scan).
 */
export async function firstFreeCounter(db: Kysely<Database>, merchantId: string, prefix: string, from: number): Promise<number> {
  const number = sql.ref<string>('invoice_number')
  // Written as the counter writes it: 4 digits zero-padded, more as they are (formatInvoiceNumber).
  const written = sql`case when counter < 10000 then substr(cast(counter + 10000 as text), 2) else cast(counter as text) end`
  const taken = sql`
    select counter from (
      select digits, ${integerOfDigits(db, sql.ref('digits'))} as counter
      from (
        select substr(invoice_number, ${[...prefix].length + 1}) as digits
        from invoices
        where merchant_id = ${merchantId}
          and ${inByteOrder(db, number)} >= ${`${prefix}0`} and ${inByteOrder(db, number)} < ${`${prefix}:`}
      ) as numbers
    ) as read_back
    where counter >= ${from} and ${written} = digits`
  const { rows } = await sql<{ free: number | string }>`
    with taken as materialized (${taken})
    select case
      when run.low is null or run.low > ${from} then ${from}
      when run.high - run.size = ${from} - 1 then run.high + 1
      else (select min(counter) + 1 from taken as t where not exists (select 1 from taken as u where u.counter = t.counter + 1))
    end as free
    from (select min(counter) as low, max(counter) as high, count(*) as size from (${taken}) as counters) as run
  `.execute(db)
  // PostgreSQL answers a bigint as text.
  return Number(rows[0]!.free)
}

/** One page of a merchant's invoices, newest first, and how many match in all. */
export async function listInvoices(
  db: Kysely<Database>,
  merchantId: string,
  filters: { status?: InvoiceStatus; invoiceNumber?: string },
  page: PageRequest,
): Promise<{ rows: InvoiceRow[]; total: number }> {
  let query = db.selectFrom('invoices').where('merchant_id', '=', merchantId)
  if (filters.status !== undefined) query = query.where('status', '=', filters.status)
  if (filters.invoiceNumber !== undefined) query = query.where('invoice_number', '=', filters.invoiceNumber)
  return newestFirstPage(query, page)
}

/** Sent invoices whose due date has passed on their merchant's clock, at most `limit` (sweepNow). */
export async function findOverdueCandidates(db: Kysely<Database>, times: SweepTimes, limit: number): Promise<Array<Due<InvoiceRow>>> {
  const now = sweepNow(times)
  const rows = await skipLocked(
    db,
    db
      .selectFrom('merchants')
      .crossJoin('invoices')
      .selectAll('invoices')
      .select(now.as('due_now'))
      .where('merchants.archived_at', 'is', null)
      .$if(times.merchantId !== undefined, (query) => query.where('merchants.id', '=', times.merchantId!))
      .whereRef('invoices.merchant_id', '=', 'merchants.id')
      // A literal, not a parameter: SQLite uses the partial index invoices_sent_by_merchant_due only for a query it can see matches.
      .where('invoices.status', '=', sql.lit('sent'))
      .where('invoices.due_at', 'is not', null)
      .where('invoices.due_at', '<=', now)
      .limit(limit),
    'invoices',
  ).execute()
  return rows.map(splitDue)
}

export function findInvoiceSettings(db: Kysely<Database>, merchantId: string): Promise<InvoiceSettingsRow | undefined> {
  return db.selectFrom('invoice_settings').selectAll().where('merchant_id', '=', merchantId).executeTakeFirst()
}

/**
 * The merchant's numbering row, made from `defaults` if it has none, locked until the transaction
 * ends: the merchant's invoice creations and settings changes wait here, so its counter is read
 * and moved by one transaction at a time, whichever replica runs it.
 */
export async function lockInvoiceSettings(db: Kysely<Database>, defaults: InvoiceSettingsRow): Promise<InvoiceSettingsRow> {
  // A row must exist to be locked; a twin inserting it meanwhile makes this wait for its commit, then do nothing.
  await db
    .insertInto('invoice_settings')
    .values(defaults)
    .onConflict((oc) => oc.column('merchant_id').doNothing())
    .execute()
  return forUpdate(
    db,
    db.selectFrom('invoice_settings').selectAll().where('merchant_id', '=', defaults.merchant_id),
  ).executeTakeFirstOrThrow()
}

export async function saveInvoiceSettings(db: Kysely<Database>, settings: InvoiceSettingsRow): Promise<void> {
  await db
    .insertInto('invoice_settings')
    .values(settings)
    .onConflict((oc) =>
      oc.column('merchant_id').doUpdateSet({ invoice_prefix: settings.invoice_prefix, next_number: settings.next_number }),
    )
    .execute()
}
