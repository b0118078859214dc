// Invoice and invoice-settings rows: the only code that reads or writes those tables.
import { sql, type Kysely } from 'kysely'
import type { Database, InvoiceRow, InvoiceSettingsRow, InvoiceStatus } from '../db/schema.js'
import type { PageRequest } from '../db/paginate.js'
import { newestFirstPage } from '../db/paginate.js'
import { inByteOrder, isAsciiDigits } from '../db/sql-dialect.js'

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
 * The counters from `from` on (up to `maxDigits` digits) that the merchant's invoice numbers
 * spell after `prefix` as the counter writes them (zero-padded to 4 digits), in one query
 * whatever the count: the index range of the numbers that start with the prefix and a digit.
 * The gap is found by the caller: SQL window functions over 10,000 rows cost 10 times the scan.
 */
export async function takenCounters(
  db: Kysely<Database>,
  merchantId: string,
  prefix: string,
  from: number,
  maxDigits: number,
): Promise<Set<number>> {
  const number = sql.ref<string>('invoice_number')
  const digits = sql<string>`substr(invoice_number, ${[...prefix].length + 1})`
  // What the counter writes: exactly 4 digits, or more without a leading zero.
  const spelled = sql`${isAsciiDigits(db, digits)} and length(${digits}) between 4 and ${maxDigits}
    and (length(${digits}) = 4 or substr(${digits}, 1, 1) <> '0')`
  const { rows } = await sql<{ counter: number | string }>`
    select counter from (
      select case when ${spelled} then cast(${digits} as bigint) end as counter
      from invoices
      where merchant_id = ${merchantId}
        and ${inByteOrder(db, number)} >= ${`${prefix}0`} and ${inByteOrder(db, number)} < ${`${prefix}:`}
    ) as spelled_counters
    where counter >= ${from}
  `.execute(db)
  // PostgreSQL answers a bigint as text.
  return new Set(rows.map((row) => Number(row.counter)))
}

/** One page of a merchant's invoices, newest first, and how many match in all. */
export async function listInvoices(
  db: Kysely<Database>,
  merchantId: string,
  filters: { status?: InvoiceStatus },
  page: PageRequest,
): Promise<{ rows: InvoiceRow[]; total: number }> {
  let query = db.selectFrom('invoices').where('merchant_id', '=', merchantId)
  if (filters.status !== undefined) query = query.where('status', '=', filters.status)
  return newestFirstPage(query, page)
}

/** Sent invoices whose due date has passed, at most `limit`. */
export function findOverdueCandidates(db: Kysely<Database>, now: number, limit: number): Promise<InvoiceRow[]> {
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('status', '=', 'sent')
    .where('due_at', 'is not', null)
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(limit)
    .execute()
}

export function findInvoiceSettings(db: Kysely<Database>, merchantId: string): Promise<InvoiceSettingsRow | undefined> {
  return db.selectFrom('invoice_settings').selectAll().where('merchant_id', '=', merchantId).executeTakeFirst()
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
