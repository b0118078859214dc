// The invoice creation form of the dashboard: its fields read into the API's own request
// (createInvoiceBody, so the rules are the API's), every problem named by the field it came
// from, and the form rendered back with what was typed, its errors and the sandbox's totals.
// Prices are typed in major units ("12.50") and turned into smallest units as the API takes them.
import { html } from 'ghtml'
import type { ZodError } from 'zod'
import { CURRENCY_CODES } from '../../src/api/enumerations.js'
import { createInvoiceBody, type CreateInvoiceBody } from '../../src/api/contract/invoices.js'
import type { InvoiceTotals } from '../../src/invoice-totals.js'
import { QUANTITY_SCALE, TAX_SCALE } from '../../src/invoice-totals.js'
import { majorToMinorUnits, parseDecimal } from '../../src/money.js'
import { formatAmount } from '../checkout/checkout-page.js'
import { findCurrency } from '../currencies/currency-table.js'
import { errorOnField, issuesOnFields, type FormError } from './dashboard-forms.js'
import { dashboardHref } from './dashboard-kit.js'

/** Rows the form starts with. */
export const FIRST_ROWS = 3
/** Rows it may grow to with "more items": the dashboard reads at most 50 form fields (dashboard-router.ts). */
export const MAX_FORM_ROWS = 10

const TEXT_FIELDS = [
  'customer_email',
  'customer_name',
  'customer_company',
  'currency',
  'tax_percentage',
  'due_date',
  'notes',
  'invoice_number',
] as const
const ITEM_PARTS = ['description', 'quantity', 'price'] as const

/** What was typed, as it was typed: the form is rendered back with it. */
export interface InvoiceForm {
  rows: number
  fields: Record<string, string>
}

export const itemField = (row: number, part: (typeof ITEM_PARTS)[number]) => `item_${row}_${part}`

const LABELS: Record<string, string> = {
  customer_email: 'Customer email',
  customer_name: 'Customer name',
  customer_company: 'Company',
  currency: 'Currency',
  tax_percentage: 'Tax (%)',
  due_date: 'Due date',
  notes: 'Notes',
  invoice_number: 'Number',
}

function labelOf(field: string): string {
  const item = /^item_(\d+)_(\w+)$/.exec(field)
  if (item) return `Item ${item[1]} ${item[2] === 'price' ? 'unit price' : item[2]}`
  return LABELS[field] ?? 'Line items'
}

/** The form's fields out of a POST body: rows clamped to what the form offers, nothing else kept. */
export function invoiceFormOf(body: Record<string, string>): InvoiceForm {
  const asked = Number.parseInt(body.rows ?? '', 10)
  const rows = Number.isInteger(asked) ? Math.min(Math.max(asked, 1), MAX_FORM_ROWS) : FIRST_ROWS
  const fields: Record<string, string> = {}
  for (const name of TEXT_FIELDS) if (body[name] !== undefined) fields[name] = body[name]
  for (let row = 1; row <= rows; row++)
    for (const part of ITEM_PARTS) if (body[itemField(row, part)] !== undefined) fields[itemField(row, part)] = body[itemField(row, part)]!
  return { rows, fields }
}

export const emptyInvoiceForm = (): InvoiceForm => ({ rows: FIRST_ROWS, fields: { currency: 'EUR', item_1_quantity: '1' } })

/** The invoice the form asks for, or every problem found: the form's own (numbers) and the API's. */
export function readInvoiceForm(form: InvoiceForm): { body: CreateInvoiceBody; errors?: undefined } | { errors: FormError[] } {
  const { fields } = form
  const text = (name: string) => fields[name]?.trim() ?? ''
  const errors: FormError[] = []
  const precision = findCurrency(text('currency'))?.precision ?? 2
  // The kept rows, in order: line_items[i] of the request is form row itemRows[i].
  const itemRows: number[] = []
  const items: Array<Record<string, unknown>> = []
  for (let row = 1; row <= form.rows; row++) {
    const [description, quantity, price] = ITEM_PARTS.map((part) => text(itemField(row, part)))
    if (!description && !quantity && !price) continue
    let quantityValue: number | undefined
    if (parseDecimal(quantity!, QUANTITY_SCALE) !== undefined && /\d/.test(quantity!)) quantityValue = Number(quantity)
    else
      errors.push({
        field: itemField(row, 'quantity'),
        message: `"${quantity!.slice(0, 32)}" is not a quantity: a number with at most ${QUANTITY_SCALE} decimals`,
      })
    const unitPrice = /\d/.test(price!) ? majorToMinorUnits(price!, precision) : undefined
    if (unitPrice === undefined)
      errors.push({ field: itemField(row, 'price'), message: `"${price!.slice(0, 32)}" is not a price with at most ${precision} decimals` })
    itemRows.push(row)
    items.push({ description, quantity: quantityValue, unit_price: unitPrice })
  }
  let tax: number | undefined
  if (text('tax_percentage') !== '') {
    if (parseDecimal(text('tax_percentage'), TAX_SCALE) !== undefined && /\d/.test(text('tax_percentage')))
      tax = Number(text('tax_percentage'))
    else errors.push({ field: 'tax_percentage', message: `must be a percentage with at most ${TAX_SCALE} decimals` })
  }
  const optional = (name: string) => (text(name) === '' ? undefined : text(name))
  const dueDate = optional('due_date')
  const request = {
    currency: text('currency'),
    line_items: items,
    tax_percentage: tax,
    customer: { email: text('customer_email'), name: optional('customer_name'), company_name: optional('customer_company') },
    // A due date is due by the end of its day, UTC; the API checks the date-time.
    due_at: dueDate === undefined ? undefined : `${dueDate}T23:59:59Z`,
    notes: optional('notes'),
    invoice_number: optional('invoice_number'),
  }
  const parsed = createInvoiceBody.safeParse(request)
  if (!parsed.success) return { errors: zodErrors(parsed.error, itemRows, errors) }
  if (errors.length > 0) return { errors }
  return { body: parsed.data }
}

/** The field of the form a request path came from: line_items.2.quantity is the third kept row's quantity. */
export function formFieldOf(path: readonly PropertyKey[], itemRows: readonly number[] = []): string {
  const [first, second, third] = path
  if (first === 'line_items' && typeof second === 'number') {
    const part = third === 'unit_price' ? 'price' : third === 'quantity' ? 'quantity' : 'description'
    return itemField(itemRows[second] ?? second + 1, part)
  }
  if (first === 'customer') return second === 'name' ? 'customer_name' : second === 'company_name' ? 'customer_company' : 'customer_email'
  if (first === 'due_at') return 'due_date'
  return typeof first === 'string' && first in LABELS ? first : ''
}

/** The API's problems with the request, on the form's fields; the due date's format is the form's own making, so it says what the field needs. */
function zodErrors(error: ZodError, itemRows: readonly number[], known: FormError[]): FormError[] {
  return issuesOnFields(error, (path) => formFieldOf(path, itemRows), known).map((e) =>
    known.includes(e) || e.field !== 'due_date' ? e : { ...e, message: 'must be a date (YYYY-MM-DD)' },
  )
}

/** An error the invoice service refused the form with ("due_at: must be in the future"), on its field. */
export const serviceError = (message: string): FormError => errorOnField(message, (named) => formFieldOf([named]))

const inputId = (name: string) => `invoice-${name.replaceAll('_', '-')}`

export interface InvoiceFormView {
  form: InvoiceForm
  errors: FormError[]
  /** The sandbox's totals of the form as it is, after "preview totals". */
  totals?: InvoiceTotals & { currency: string }
  /** The number the next invoice gets if it is left blank. */
  numberPreview: string
  csrfField: string
  idempotencyField: string
}

export function renderInvoiceForm(view: InvoiceFormView): string {
  const { form, errors } = view
  const value = (name: string) => form.fields[name] ?? ''
  const errorOf = (name: string) => errors.find((e) => e.field === name)
  // Each input names its error (aria-describedby) and says it is invalid.
  const input = (name: string, attributes = '', type = 'text') => {
    const error = errorOf(name)
    const describedBy = error ? html` aria-invalid="true" aria-describedby="${inputId(name)}-error"` : ''
    return html`<input id="${inputId(name)}" name="${name}" type="${type}" value="${value(name)}"!${attributes}!${describedBy}>!${
      error ? html`<span class="field-error" id="${inputId(name)}-error">${error.message}</span>` : ''
    }`
  }
  const field = (name: string, attributes = '', type = 'text') =>
    html`<div><label for="${inputId(name)}">${LABELS[name] ?? name}</label>!${input(name, attributes, type)}</div>`
  const summary =
    errors.length === 0
      ? ''
      : html`<div class="notice error" role="alert" data-testid="form-errors" tabindex="-1" id="form-errors"><p>The invoice was not created:</p><ul>!${errors.map(
          (e) =>
            html`<li data-testid="form-error" data-field="${e.field}">!${
              e.field ? html`<a href="#${inputId(e.field)}">${labelOf(e.field)}</a>: ` : ''
            }${e.message}</li>`,
        )}</ul></div>`
  const currencies = CURRENCY_CODES.map(
    (code) => html`<option value="${code}"!${value('currency') === code ? ' selected' : ''}>${code}</option>`,
  )
  const rows = Array.from({ length: form.rows }, (_, index) => index + 1).map(
    (row) => html`<tr data-testid="item-row">
<td>!${input(itemField(row, 'description'), html` maxlength="500" aria-label="${`Item ${row} description`}"`)}</td>
<td>!${input(itemField(row, 'quantity'), html` inputmode="decimal" aria-label="${`Item ${row} quantity`}"`)}</td>
<td>!${input(itemField(row, 'price'), html` inputmode="decimal" aria-label="${`Item ${row} unit price`}"`)}</td>
</tr>`,
  )
  const totals = view.totals
    ? html`<dl class="facts" data-testid="totals" aria-live="polite">
<dt>Subtotal</dt><dd data-testid="total-subtotal">${formatAmount(view.totals.subtotal, view.totals.currency)}</dd>
<dt>Tax</dt><dd data-testid="total-tax">${formatAmount(view.totals.tax_total, view.totals.currency)}</dd>
<dt>Total</dt><dd data-testid="total-total">${formatAmount(view.totals.total, view.totals.currency)}</dd></dl>`
    : html`<p class="hint">Press “Preview totals” to have the sandbox compute them, as it will for the invoice.</p>`
  const more =
    form.rows < MAX_FORM_ROWS
      ? html`<button type="submit" name="intent" value="more" class="secondary" data-testid="more-items" formnovalidate>More items</button>`
      : ''
  return html`!${summary}<form method="post" action="${dashboardHref('/invoices')}" data-testid="invoice-form" novalidate>
!${view.csrfField}!${view.idempotencyField}<input type="hidden" name="rows" value="${form.rows}">
<fieldset><legend>Customer</legend>
!${field('customer_email', ' maxlength="254" autocomplete="off"', 'email')}!${field('customer_name', ' maxlength="200"')}!${field('customer_company', ' maxlength="200"')}
</fieldset>
<div><label for="${inputId('currency')}">Currency</label><select id="${inputId('currency')}" name="currency">!${currencies}</select></div>
<fieldset><legend>Line items</legend>
<table class="items"><thead><tr><th scope="col">Description</th><th scope="col">Quantity</th><th scope="col">Unit price</th></tr></thead>
<tbody>!${rows}</tbody></table>!${more}
</fieldset>
!${field('tax_percentage', ' inputmode="decimal"')}!${field('due_date', '', 'date')}
<div><label for="${inputId('notes')}">Notes</label><textarea id="${inputId('notes')}" name="notes" maxlength="2000" rows="3"!${
    errorOf('notes') ? html` aria-invalid="true" aria-describedby="${inputId('notes')}-error"` : ''
  }>${value('notes')}</textarea>!${errorOf('notes') ? html`<span class="field-error" id="${inputId('notes')}-error">${errorOf('notes')!.message}</span>` : ''}</div>
<div><label for="${inputId('invoice_number')}">Number (blank: the next, <span data-testid="form-number-preview">${view.numberPreview}</span>)</label>!${input(
    'invoice_number',
    ' maxlength="64"',
  )}</div>
<section aria-label="Totals" id="invoice-totals">!${totals}</section>
<div class="buttons"><button type="submit" name="intent" value="preview" class="secondary" data-testid="preview-totals">Preview totals</button>
<button type="submit" name="intent" value="create" data-testid="create-invoice">Create invoice</button></div>
</form>`
}
