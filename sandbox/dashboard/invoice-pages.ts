// The Invoices view's pages: the list (status filter and paging in the URL), an invoice's detail
// (items, totals, customer, dates, its payment and checkout link, the confirmed cancel), and the
// numbering settings with the number the next invoice gets. Rendered with ghtml's escaping tag.
import { html } from 'ghtml'
import { INVOICE_STATUSES } from '../../src/api/enumerations.js'
import { invoiceTotals } from '../../src/invoice-totals.js'
import { formatAmount } from '../checkout/checkout-page.js'
import type { CustomerRow, InvoiceRow, PaymentRow } from '../db/schema.js'
import type { InvoiceSettingsView } from '../invoices/invoice-service.js'
import { dashboardHref } from './dashboard-kit.js'
import { statusBadge, when } from './dashboard-format.js'
import type { FormError } from './dashboard-forms.js'

const invoiceHref = (invoice: InvoiceRow) => dashboardHref(`/invoices/${encodeURIComponent(invoice.id)}`)

export const customerName = (customer: CustomerRow | undefined): string =>
  customer ? (customer.company_name ?? customer.name ?? customer.email) : ''

export function invoiceSubnav(current: 'list' | 'new' | 'settings'): string {
  const link = (id: typeof current, href: string, label: string) =>
    id === current ? html`<a href="${href}" aria-current="page">${label}</a>` : html`<a href="${href}">${label}</a>`
  return html`<nav class="subnav" aria-label="Invoices">!${link('list', dashboardHref('/invoices'), 'All invoices')} · !${link(
    'new',
    dashboardHref('/invoices/new'),
    'New invoice',
  )} · !${link('settings', dashboardHref('/invoices/settings'), 'Numbering')}</nav>`
}

export function invoiceFilters(query: Record<string, string>): string {
  const options = ['', ...INVOICE_STATUSES].map(
    (status) => html`<option value="${status}"!${query.status === status ? ' selected' : ''}>${status || 'any'}</option>`,
  )
  return html`<form method="get" action="${dashboardHref('/invoices')}" class="filters" data-testid="invoice-filters">
<div><label for="filter-status">Status</label><select id="filter-status" name="status">!${options}</select></div>
<div><button type="submit">Filter</button></div></form>`
}

export function invoiceTable(invoices: InvoiceRow[], customers: Map<string, CustomerRow>, merchantName: string): string {
  if (invoices.length === 0) return html`<p data-testid="no-invoices">No invoices match.</p>`
  const rows = invoices.map(
    (invoice) => html`<tr data-testid="invoice-row" data-invoice-id="${invoice.id}">
<td>!${when(invoice.issued_at)}</td>
<td><a href="${invoiceHref(invoice)}" data-testid="invoice-number">${invoice.invoice_number}</a></td>
<td data-testid="invoice-customer">${customerName(customers.get(invoice.customer_id))}</td>
<td class="num">${formatAmount(invoice.total, invoice.currency)}</td>
<td>!${invoice.due_at === null ? '' : when(invoice.due_at)}</td>
<td>!${statusBadge(invoice.status)}</td></tr>`,
  )
  return html`<table data-testid="invoices-table"><caption class="visually-hidden">Invoices of ${merchantName}, newest first</caption>
<thead><tr><th scope="col">Issued</th><th scope="col">Number</th><th scope="col">Customer</th><th scope="col" class="num">Total</th><th scope="col">Due</th><th scope="col">Status</th></tr></thead>
<tbody>!${rows}</tbody></table>`
}

interface LineItem {
  description: string
  quantity: number
  unit_price: number
}

export interface InvoiceDetail {
  invoice: InvoiceRow
  customer: CustomerRow | undefined
  payment: PaymentRow
  checkoutUrl: string
  done?: string
  csrfField: string
  idempotencyField: string
}

export function renderInvoiceDetail(view: InvoiceDetail): string {
  const { invoice, customer, payment } = view
  const items = JSON.parse(invoice.line_items) as LineItem[]
  const money = (value: number) => formatAmount(value, invoice.currency)
  // A row's amount is the totals code's own, over that row alone.
  const itemRows = items.map(
    (
      item,
    ) => html`<tr data-testid="line-item"><td data-testid="line-description">${item.description}</td><td class="num">${item.quantity}</td>
<td class="num">${money(item.unit_price)}</td><td class="num">${money(invoiceTotals([item], 0).subtotal)}</td></tr>`,
  )
  const done =
    view.done === 'created'
      ? html`<p class="notice" role="status" data-testid="done">Invoice ${invoice.invoice_number} created.</p>`
      : view.done === 'cancelled'
        ? html`<p class="notice" role="status" data-testid="done">Invoice ${invoice.invoice_number} voided; its payment link expired.</p>`
        : ''
  const cancel =
    invoice.status === 'paid' || invoice.status === 'voided'
      ? ''
      : html`<h2>Cancel</h2><form method="post" action="${dashboardHref(`/invoices/${encodeURIComponent(invoice.id)}/cancel`)}" class="stack" data-testid="cancel-invoice">
!${view.csrfField}!${view.idempotencyField}
<p>Voids the invoice and expires its payment link. A voided invoice cannot be paid or restored.</p>
<div class="check"><input type="checkbox" id="cancel-confirm" name="confirm" value="yes" required><label for="cancel-confirm">I am sure: void invoice ${invoice.invoice_number}</label></div>
<div><button type="submit" class="danger" data-testid="submit-cancel">Void the invoice</button></div></form>`
  const customerFacts = customer
    ? html`!${customer.name === null ? '' : html`<dt>Customer</dt><dd data-testid="customer-name">${customer.name}</dd>`}!${
        customer.company_name === null ? '' : html`<dt>Company</dt><dd data-testid="customer-company">${customer.company_name}</dd>`
      }<dt>Email</dt><dd data-testid="customer-email">${customer.email}</dd>`
    : ''
  return html`<p><a href="${dashboardHref('/invoices')}">← Invoices</a></p><h1>Invoice <span data-testid="invoice-title">${invoice.invoice_number}</span></h1>!${done}
<section id="invoice-summary" data-live aria-label="Summary"><dl class="facts">
<dt>Status</dt><dd>!${statusBadge(invoice.status)}</dd>
<dt>Issued</dt><dd>!${when(invoice.issued_at)}</dd>
<dt>Due</dt><dd data-testid="due">!${invoice.due_at === null ? 'no due date' : when(invoice.due_at)}</dd>
!${customerFacts}
<dt>Payment</dt><dd><a href="${dashboardHref(`/payments/${encodeURIComponent(payment.id)}`)}" class="mono" data-testid="payment-link">${payment.id}</a> !${statusBadge(payment.status, 'payment-status')}</dd>
<dt>Checkout</dt><dd><a href="${view.checkoutUrl}" class="mono" data-testid="checkout-link">${view.checkoutUrl}</a></dd>
</dl></section>
<h2>Items</h2><table data-testid="line-items"><thead><tr><th scope="col">Description</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>!${itemRows}</tbody><tfoot>
<tr><th scope="row" colspan="3">Subtotal</th><td class="num" data-testid="subtotal">${money(invoice.subtotal)}</td></tr>
<tr><th scope="row" colspan="3">Tax (${invoice.tax_percentage}%)</th><td class="num" data-testid="tax-total">${money(invoice.tax_total)}</td></tr>
<tr><th scope="row" colspan="3">Total</th><td class="num" data-testid="total">${money(invoice.total)}</td></tr></tfoot></table>
!${invoice.notes ? html`<h2>Notes</h2><p data-testid="notes">${invoice.notes}</p>` : ''}
!${cancel}`
}

export interface SettingsPage {
  settings: InvoiceSettingsView
  /** What was typed, when it was refused. */
  typed?: { invoice_prefix: string; next_number: string }
  errors: FormError[]
  saved: boolean
  csrfField: string
}

export function renderInvoiceSettings(view: SettingsPage): string {
  const prefix = view.typed?.invoice_prefix ?? view.settings.invoice_prefix
  const next = view.typed?.next_number ?? String(view.settings.next_number)
  const errorOf = (field: string) => view.errors.find((e) => e.field === field)
  const described = (field: string) => (errorOf(field) ? html` aria-invalid="true" aria-describedby="${`settings-${field}-error`}"` : '')
  const errorText = (field: string) =>
    errorOf(field) ? html`<span class="field-error" id="${`settings-${field}-error`}">${errorOf(field)!.message}</span>` : ''
  const summary =
    view.errors.length === 0
      ? ''
      : html`<div class="notice error" role="alert" data-testid="form-errors"><p>The settings were not changed:</p><ul>!${view.errors.map(
          (e) => html`<li data-testid="form-error" data-field="${e.field}">${e.field ? `${e.field}: ` : ''}${e.message}</li>`,
        )}</ul></div>`
  return html`<h1>Invoice numbering</h1>!${invoiceSubnav('settings')}
!${view.saved ? html`<p class="notice" role="status" data-testid="done">Numbering saved.</p>` : ''}
<p>The next invoice created without a number gets <strong data-testid="number-preview">${view.settings.preview}</strong>.</p>
!${summary}<form method="post" action="${dashboardHref('/invoices/settings')}" class="stack" data-testid="settings-form">!${view.csrfField}
<div><label for="settings-invoice_prefix">Prefix ({year} is the year of issue)</label><input id="settings-invoice_prefix" name="invoice_prefix" value="${prefix}" maxlength="24"!${described(
    'invoice_prefix',
  )}>!${errorText('invoice_prefix')}</div>
<div><label for="settings-next_number">Next number (only forward)</label><input id="settings-next_number" name="next_number" value="${next}" inputmode="numeric"!${described(
    'next_number',
  )}>!${errorText('next_number')}</div>
<div><button type="submit" data-testid="save-settings">Save</button></div></form>`
}
