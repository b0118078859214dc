// Invoice and invoice-settings rows: the only code that reads or writes those tables.
import type { Kysely } from 'kysely'
import type { Database, InvoiceRow, InvoiceSettingsRow, InvoiceStatus } from '../db/schema.js'
import type { PageRequest } from '../db/paginate.js'
import { newestFirstPage } from '../db/paginate.js'

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
