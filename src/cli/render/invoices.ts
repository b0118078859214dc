// How invoices look in the terminal: the invoice with its line items and totals, the link its
// customer pays with, lists, numbering settings, and the running total while items are typed.
import type { CreateInvoiceRequest, Customer, Invoice, InvoiceLineItem, InvoiceSettings, Page, Payment } from '../../client/types.js'
import { invoiceTotals, lineAmount, QUANTITY_SCALE, type InvoiceTotals } from '../../invoice-totals.js'
import { formatDecimal, formatDecimalShort } from '../../money.js'
import { chalk, colourStatus, details, pageLine, table } from '../output.js'
import { formatAmount, isPayable, type Precisions } from './payments.js'

const INVOICE_STATUS_COLOURS: Record<string, (text: string) => string> = {
  sent: chalk.cyan,
  paid: chalk.green,
  overdue: chalk.yellow,
  voided: chalk.gray,
}

const colourInvoiceStatus = (status: string): string => (INVOICE_STATUS_COLOURS[status] ?? ((text: string) => text))(status)

/** "Ada Lovelace, Analytical Ltd <ada@example.com>", or the email alone. */
export function customerLabel(customer: Pick<Customer, 'name' | 'company_name' | 'email'>): string {
  const names = [customer.name, customer.company_name].filter((name): name is string => Boolean(name))
  return names.length > 0 ? `${names.join(', ')} <${customer.email}>` : customer.email
}

/** Exact, with at least the currency's decimals (0.333333 × 1.00 is "0.333333"): the subtotal is rounded only once. */
export function formatLineAmount(item: Pick<InvoiceLineItem, 'quantity' | 'unit_price'>, currency: string, precisions: Precisions): string {
  const precision = precisions.get(currency)
  if (precision === undefined) return `${formatDecimalShort(lineAmount(item), QUANTITY_SCALE)} (smallest unit) ${currency}`
  const exact = formatDecimal(lineAmount(item), precision + QUANTITY_SCALE)
  const trimmed = exact.replace(/0+$/, '')
  const places = trimmed.length - trimmed.indexOf('.') - 1
  const text = places < precision ? exact.slice(0, exact.length - QUANTITY_SCALE) : trimmed
  return `${text.replace(/\.$/, '')} ${currency}`
}

const taxLabel = (taxPercentage: number): string => `Tax ${taxPercentage}%`

/** The items with their amounts, then subtotal, tax and total under the amount column. */
export function renderLineItems(
  items: readonly InvoiceLineItem[],
  taxPercentage: number,
  totals: InvoiceTotals,
  currency: string,
  precisions: Precisions,
): string {
  const money = (value: number): string => formatAmount(value, currency, precisions)
  const rows = items.map((item) => [
    item.description,
    String(item.quantity),
    money(item.unit_price),
    formatLineAmount(item, currency, precisions),
  ])
  rows.push(
    ['', '', chalk.bold('Subtotal'), money(totals.subtotal)],
    ['', '', chalk.bold(taxLabel(taxPercentage)), money(totals.tax_total)],
    ['', '', chalk.bold('Total'), chalk.bold(money(totals.total))],
  )
  return table(['Description', 'Quantity', 'Unit price', 'Amount'], rows)
}

/** One line after each item typed: "2 items: subtotal 300.00 USD, tax 21% 63.00 USD, total 363.00 USD". */
export function runningTotalLine(
  items: readonly InvoiceLineItem[],
  taxPercentage: number,
  currency: string,
  precisions: Precisions,
): string {
  const totals = invoiceTotals(items, taxPercentage)
  const money = (value: number): string => formatAmount(value, currency, precisions)
  const count = `${items.length} item${items.length === 1 ? '' : 's'}`
  return `${count}: subtotal ${money(totals.subtotal)}, ${taxLabel(taxPercentage).toLowerCase()} ${money(totals.tax_total)}, total ${money(totals.total)}`
}

function addressLine(customer: Customer): string | undefined {
  const { address } = customer
  return address ? [address.line1, `${address.postal_code} ${address.city}`, address.country].join(', ') : undefined
}

/** The invoice, and the payment its customer pays it with when it was fetched. */
export function renderInvoice(invoice: Invoice, precisions: Precisions, payment?: Payment): string {
  const { customer } = invoice
  const head = details([
    ['Invoice', invoice.invoice_number],
    ['Id', invoice.id],
    ['Status', colourInvoiceStatus(invoice.status)],
    ['Customer', `${customerLabel(customer)} (${customer.customer_type})`],
    ['Customer id', customer.id],
    ['VAT number', customer.vat_number ?? undefined],
    ['Address', addressLine(customer)],
    ['Issued', invoice.issued_at],
    ['Due', invoice.due_at ?? 'no due date'],
    ['Notes', invoice.notes],
  ])
  const items = renderLineItems(invoice.line_items, invoice.tax_percentage, invoice, invoice.currency, precisions)
  const link = details([
    ['Payment', payment ? `${payment.id} (${colourStatus(payment.status)})` : invoice.payment_id],
    ['Pay at', payment && isPayable(payment) ? (payment.shortUrl ?? payment.hostedUrl) : undefined],
  ])
  return [head, items, link].join('\n')
}

/** What the interactive flow is about to send, for the person to confirm. */
export function renderInvoiceDraft(request: CreateInvoiceRequest, customer: string, precisions: Precisions): string {
  const taxPercentage = request.tax_percentage ?? 0
  const head = details([
    ['Customer', customer],
    ['Currency', request.currency],
    ['Due', request.due_at ?? 'no due date'],
    ['Notes', request.notes ?? undefined],
  ])
  const totals = invoiceTotals(request.line_items, taxPercentage)
  return [head, renderLineItems(request.line_items, taxPercentage, totals, request.currency, precisions)].join('\n')
}

export function renderInvoicePage(page: Page<Invoice>, precisions: Precisions): string {
  if (page.items.length === 0) return 'No invoices match.'
  const rows = page.items.map((invoice) => [
    invoice.invoice_number,
    colourInvoiceStatus(invoice.status),
    customerLabel(invoice.customer),
    formatAmount(invoice.total, invoice.currency, precisions),
    invoice.due_at ?? '',
    invoice.issued_at,
    invoice.id,
  ])
  return `${table(['Number', 'Status', 'Customer', 'Total', 'Due', 'Issued', 'Id'], rows)}\n${pageLine(page.meta, 'invoice')}`
}

/** The question before voiding: which invoice, for how much, to whom, what it does, and money already received. */
export function voidQuestion(invoice: Invoice, payment: Payment, precisions: Precisions): string {
  const total = formatAmount(invoice.total, invoice.currency, precisions)
  const received =
    payment.amount_paid > 0
      ? ` Its payment ${payment.id} has already received ${formatAmount(payment.amount_paid, invoice.currency, precisions)}.`
      : ''
  return `Void invoice ${invoice.invoice_number} (${total} to ${customerLabel(invoice.customer)})? Its payment link stops working.${received}`
}

export function renderInvoiceSettings(settings: InvoiceSettings): string {
  return details([
    ['Prefix', settings.invoice_prefix],
    ['Next number', settings.next_number],
    ['Next invoice', settings.preview],
  ])
}
