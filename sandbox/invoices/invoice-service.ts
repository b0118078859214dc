// The rules of invoices (spec 3.1, 4.7–4.11): totals, customers, gapless numbering, the linked
// payment, and voiding. Each operation runs in the caller's transaction, so an invoice is never
// left half-created and a failed creation consumes no number.
import type { Kysely } from 'kysely'
import { merchantNowOf } from '../clock.js'
import type { SandboxContext } from '../context.js'
import { findCustomerForMerchant, insertCustomer } from '../customers/customer-repository.js'
import type { CustomerRow, Database, InvoiceRow, InvoiceSettingsRow, MerchantRow } from '../db/schema.js'
import { badRequest, conflict, notFound } from '../errors.js'
import type { PageRequest } from '../db/paginate.js'
import { moveTo } from '../payments/payment-lifecycle.js'
import { findPaymentForChange } from '../payments/payment-repository.js'
import { MAX_AMOUNT_VALUE } from '../../src/money.js'
import { MAX_USDC_STROOPS, createPayment } from '../payments/payment-service.js'
import { findCurrency, toUsdcStroops } from '../currencies/currency-table.js'
import { DEFAULT_PREFIX, FIRST_NUMBER, formatInvoiceNumber, resolvePrefix } from './invoice-numbering.js'
import {
  findInvoiceForMerchant,
  findInvoiceSettings,
  firstFreeCounter,
  insertInvoice,
  invoiceNumberTaken,
  listInvoices as listInvoiceRows,
  lockInvoiceSettings,
  saveInvoiceSettings,
  updateInvoice,
} from './invoice-repository.js'
import type { CreateInvoiceBody, InvoiceSettingsBody } from '../../src/api/contract/invoices.js'
import { invoiceTotals } from '../../src/invoice-totals.js'

const HOUR_MS = 3_600_000
/** An invoice's payment link stays payable this long after issue (or after the due date, if later). */
export const INVOICE_PAYMENT_VALIDITY_MS = 365 * 24 * HOUR_MS

type InvoiceContext = SandboxContext

export async function createInvoice(
  ctx: InvoiceContext,
  db: Kysely<Database>,
  merchant: MerchantRow,
  body: CreateInvoiceBody,
): Promise<{ invoice: InvoiceRow; customer: CustomerRow }> {
  const now = merchantNowOf(ctx, merchant)
  const totals = invoiceTotals(body.line_items, body.tax_percentage)
  if (totals.total <= 0) throw badRequest('line_items: the invoice total must be greater than 0')
  if (totals.total > MAX_AMOUNT_VALUE) throw badRequest(`line_items: the invoice total must be at most ${MAX_AMOUNT_VALUE}`)
  if (toUsdcStroops(totals.total, findCurrency(body.currency)!) > MAX_USDC_STROOPS) {
    throw badRequest('line_items: the invoice total exceeds the sandbox limit of 100,000,000 USDC per payment')
  }
  if (body.due_at !== undefined && body.due_at <= now) throw badRequest('due_at: must be in the future')

  const customer = await customerFor(ctx, db, merchant, body, now)
  // Locked before a number is chosen or checked, given or not: the merchant's invoices take
  // their numbers one transaction at a time across replicas.
  const settings = await lockInvoiceSettings(db, defaultSettings(merchant.id))
  const invoiceNumber = body.invoice_number ?? (await allocateNumber(db, settings, now))
  if (body.invoice_number !== undefined && (await invoiceNumberTaken(db, merchant.id, body.invoice_number))) {
    throw conflict('Conflict', `invoice_number: ${body.invoice_number} is already used by another invoice`)
  }

  const id = ctx.random.uuidV4()
  const payableUntil = Math.max(now + INVOICE_PAYMENT_VALIDITY_MS, (body.due_at ?? 0) + INVOICE_PAYMENT_VALIDITY_MS)
  const payment = await createPayment(ctx, db, merchant, {
    amount: { value: totals.total, currency: body.currency },
    description: `Invoice ${invoiceNumber}`,
    metadata: { invoice_id: id, invoice_number: invoiceNumber },
    expiresInHours: Math.ceil((payableUntil - now) / HOUR_MS),
    name: undefined,
    partnerId: undefined,
    storeId: undefined,
  })
  const invoice: InvoiceRow = {
    id,
    merchant_id: merchant.id,
    invoice_number: invoiceNumber,
    status: 'sent',
    currency: body.currency,
    line_items: JSON.stringify(body.line_items),
    ...totals,
    tax_percentage: String(body.tax_percentage),
    issued_at: now,
    due_at: body.due_at ?? null,
    payment_id: payment.id,
    notes: body.notes ?? null,
    customer_id: customer.id,
    created_at: now,
    updated_at: now,
  }
  await insertInvoice(db, invoice)
  return { invoice, customer }
}

async function customerFor(
  ctx: InvoiceContext,
  db: Kysely<Database>,
  merchant: MerchantRow,
  body: CreateInvoiceBody,
  now: number,
): Promise<CustomerRow> {
  if (body.customer_id !== undefined) {
    const found = await findCustomerForMerchant(db, merchant.id, body.customer_id)
    if (!found) throw notFound(`No customer ${body.customer_id.slice(0, 64)}`)
    return found
  }
  const given = body.customer!
  const customer: CustomerRow = {
    id: ctx.random.uuidV4(),
    merchant_id: merchant.id,
    customer_type: given.customer_type,
    name: given.name ?? null,
    company_name: given.company_name ?? null,
    email: given.email,
    vat_number: given.vat_number ?? null,
    address: given.address ? JSON.stringify(given.address) : null,
    created_at: now,
  }
  await insertCustomer(db, customer)
  return customer
}

const defaultSettings = (merchantId: string): InvoiceSettingsRow => ({
  merchant_id: merchantId,
  invoice_prefix: DEFAULT_PREFIX,
  next_number: FIRST_NUMBER,
})

async function currentSettings(db: Kysely<Database>, merchantId: string): Promise<InvoiceSettingsRow> {
  return (await findInvoiceSettings(db, merchantId)) ?? defaultSettings(merchantId)
}

/**
 * The first number the counter gives that no invoice of the merchant has: a number a merchant
 * already gave an invoice by hand is passed over, so numbers stay unique and the issued
 * sequence has no hole. One query, however many numbers were given by hand.
 */
async function nextFreeNumber(
  db: Kysely<Database>,
  settings: InvoiceSettingsRow,
  now: number,
): Promise<{ counter: number; number: string }> {
  const prefix = resolvePrefix(settings.invoice_prefix, now)
  const counter = await firstFreeCounter(db, settings.merchant_id, prefix, settings.next_number)
  return { counter, number: formatInvoiceNumber(settings.invoice_prefix, counter, now) }
}

/** The next generated number, consumed; `settings` are locked (lockInvoiceSettings). */
async function allocateNumber(db: Kysely<Database>, settings: InvoiceSettingsRow, now: number): Promise<string> {
  const { counter, number } = await nextFreeNumber(db, settings, now)
  await saveInvoiceSettings(db, { ...settings, next_number: counter + 1 })
  return number
}

export interface InvoiceSettingsView {
  invoice_prefix: string
  next_number: number
  /** Exactly the number the next invoice will get if issued now. */
  preview: string
}

export async function readInvoiceSettings(db: Kysely<Database>, merchant: MerchantRow, now: number): Promise<InvoiceSettingsView> {
  const settings = await currentSettings(db, merchant.id)
  const { number } = await nextFreeNumber(db, settings, now)
  return { invoice_prefix: settings.invoice_prefix, next_number: settings.next_number, preview: number }
}

export async function changeInvoiceSettings(
  db: Kysely<Database>,
  merchant: MerchantRow,
  body: InvoiceSettingsBody,
  now: number,
): Promise<InvoiceSettingsView> {
  const settings = await lockInvoiceSettings(db, defaultSettings(merchant.id))
  if (body?.next_number !== undefined && body.next_number < settings.next_number) {
    throw badRequest(`next_number: must be at least the current next number ${settings.next_number} (numbers only move forward)`)
  }
  await saveInvoiceSettings(db, {
    merchant_id: merchant.id,
    invoice_prefix: body?.invoice_prefix ?? settings.invoice_prefix,
    next_number: body?.next_number ?? settings.next_number,
  })
  return readInvoiceSettings(db, merchant, now)
}

export async function getInvoice(db: Kysely<Database>, merchant: MerchantRow, id: string): Promise<InvoiceRow> {
  const invoice = id.length <= 64 ? await findInvoiceForMerchant(db, merchant.id, id) : undefined
  if (!invoice) throw notFound(`No invoice ${id.slice(0, 64)}`)
  return invoice
}

export function listInvoices(
  db: Kysely<Database>,
  merchant: MerchantRow,
  filters: { status?: InvoiceRow['status']; invoiceNumber?: string },
  page: PageRequest,
) {
  return listInvoiceRows(db, merchant.id, filters, page)
}

/** Voids an unpaid invoice and expires its payment link (spec 3.1); a paid invoice needs a refund instead. */
export async function cancelInvoice(
  ctx: Pick<SandboxContext, 'clock' | 'wallClock' | 'payments'>,
  db: Kysely<Database>,
  merchant: MerchantRow,
  id: string,
): Promise<InvoiceRow> {
  // Its payment locked first, as every change of a payment is, then the invoice read again: a
  // payment paid meanwhile (which marks the invoice paid under that lock) is seen.
  const payment = await findPaymentForChange(db, { id: (await getInvoice(db, merchant, id)).payment_id })
  const invoice = await getInvoice(db, merchant, id)
  if (invoice.status === 'paid') {
    throw conflict(
      'Conflict',
      `Invoice ${invoice.invoice_number} is paid and cannot be voided; issue a refund on its payment ${invoice.payment_id} instead`,
    )
  }
  if (invoice.status === 'voided') throw conflict('Conflict', `Invoice ${invoice.invoice_number} is already voided`)
  const now = merchantNowOf(ctx, merchant)
  if (payment && (payment.status === 'open' || payment.status === 'underpaid')) {
    await ctx.payments.save(db, payment, {
      ...moveTo(payment, 'expired', `Payment link expired: invoice ${invoice.invoice_number} voided`, now),
      expires_at: now,
    })
  }
  const voided = { status: 'voided' as const, updated_at: now }
  await updateInvoice(db, invoice.id, voided)
  return { ...invoice, ...voided }
}
