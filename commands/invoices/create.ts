import { Flags } from '@oclif/core'
import type { CreateInvoiceRequest, Currency, Customer, Invoice } from '../../src/client/types.js'
import type { PayboxClient } from '../../src/client/paybox-client.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { UserError } from '../../src/user-error.js'
import { oneOfFlags } from '../../src/cli/flag-values.js'
import { MAX_LINE_ITEMS } from '../../src/api/limits.js'
import { dueFlags, itemFlag, NEW_CUSTOMER_FLAGS, newCustomerFlags, taxFlag } from '../../src/cli/invoice-input.js'
import { terminalQr } from '../../src/cli/output.js'
import { qrFlag, wantsQr } from '../../src/cli/qr-flag.js'
import { askInvoice, canPrompt } from '../../src/cli/prompts.js'
import { renderInvoice } from '../../src/cli/render/invoices.js'
import { isPayable, precisionsOf, type Precisions } from '../../src/cli/render/payments.js'
import { CUSTOMER_TYPES } from '../../src/api/enumerations.js'
import { sendsField } from '../../src/cli/field-flags.js'

const customerFlag = (description: string) => Flags.string({ description, helpGroup: 'CUSTOMER' })

export default class InvoicesCreate extends ApiCommand<typeof InvoicesCreate> {
  static override summary = 'Create an invoice and the payment its customer pays it with'
  static override description =
    'Each --item is "description;quantity;unit price": the unit price in major units of --currency (10.00 USD, 1500 JPY), ' +
    'the quantity a decimal with up to 6 places. The customer is a stored one (--customer-id, shown by earlier invoices) or a new one ' +
    '(--customer-email and the other CUSTOMER flags). --due takes a date, meaning 23:59:59 UTC that day, or a date-time with an offset. ' +
    'Given no flag at all on a terminal, it asks for everything, showing the running total after each item.'

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --currency EUR --item "Consulting;10;95.00" --item "Travel;1;120" --tax 21 --customer-email ada@example.com --customer-name "Ada Lovelace" --due-in 30d',
    '<%= config.bin %> <%= command.id %> --currency USD --item "Support plan;1;49.99" --customer-id 3f0c… --due 2026-12-31 --json',
  ]

  static override flags = {
    currency: Flags.string({ description: 'Invoice currency (ISO 4217)', parse: async (input) => input.toUpperCase() }),
    item: sendsField(
      'line_items',
      Flags.string({ description: 'Line item "description;quantity;unit price", price in major units (repeatable)', multiple: true }),
    ),
    tax: sendsField('tax_percentage', Flags.string({ description: 'Tax percentage on the subtotal, e.g. 21 (default 0)' })),
    'customer-id': customerFlag('A stored customer, by the id earlier invoices show'),
    'customer-email': customerFlag("A new customer's email"),
    'customer-name': customerFlag('New customer: name'),
    'customer-type': Flags.string({
      description: 'New customer: type (default business)',
      options: [...CUSTOMER_TYPES],
      helpGroup: 'CUSTOMER',
    }),
    company: sendsField('customer.company_name', customerFlag('New customer: company name')),
    vat: sendsField('customer.vat_number', customerFlag('New customer: VAT number')),
    'address-line1': customerFlag('New customer: street address (with --postal-code, --city and --country)'),
    'postal-code': customerFlag('New customer: postal code'),
    city: customerFlag('New customer: city'),
    country: customerFlag('New customer: country'),
    due: sendsField('due_at', Flags.string({ description: 'Due date: 2026-12-31 (23:59:59 UTC that day) or 2026-12-31T17:00:00Z' })),
    'due-in': sendsField('due_at', Flags.string({ description: "Due this long from now, by this computer's clock: 30d, 2w, 12h" })),
    notes: Flags.string({ description: 'Notes shown on the invoice' }),
    number: sendsField('invoice_number', Flags.string({ description: 'Invoice number (default: the next of the numbering sequence)' })),
    qr: qrFlag('the wallet payment URI'),
  }

  public async run(): Promise<Invoice> {
    const client = this.client()
    const interactive = !this.givesInvoiceFlags() && canPrompt() && !this.jsonEnabled()
    const request = interactive ? await this.askRequest(client) : await this.requestFromFlags(client)
    const invoice = await client.invoices.create(request.body)
    if (!this.jsonEnabled()) {
      const payment = await client.payments.get(invoice.payment_id)
      this.print(renderInvoice(invoice, request.precisions, payment))
      if (isPayable(payment) && wantsQr(this.flags.qr)) this.print(await terminalQr(payment.qrCode))
    }
    return invoice
  }

  /** Any flag of the invoice itself (--qr only says how to show it) means no questions. */
  private givesInvoiceFlags(): boolean {
    return Object.keys(InvoicesCreate.flags).some((name) => name !== 'qr' && (this.flags as Record<string, unknown>)[name] !== undefined)
  }

  private async askRequest(client: PayboxClient): Promise<{ body: CreateInvoiceRequest; precisions: Precisions }> {
    const [currencies, recent] = await Promise.all([client.currencies.list(), client.invoices.list({ limit: 100 })])
    const body = await askInvoice({
      currencies: currencies.items,
      customers: distinctCustomers(
        recent.items.map((invoice) => invoice.customer),
        10,
      ),
      now: Date.now,
      show: (text) => this.log(text),
    })
    if (!body) throw new UserError('Canceled; no invoice was created')
    return { body, precisions: precisionsOf(currencies.items) }
  }

  /** Everything that can be checked without the server first, so a bad flag costs no request. */
  private async requestFromFlags(client: PayboxClient): Promise<{ body: CreateInvoiceRequest; precisions: Precisions }> {
    const { flags } = this
    const missing = [
      ...(flags.currency === undefined ? ['--currency'] : []),
      ...(flags.item === undefined ? ['--item'] : []),
      ...(flags['customer-id'] === undefined && flags['customer-email'] === undefined
        ? ['a customer (--customer-id or --customer-email)']
        : []),
    ]
    if (missing.length > 0) {
      const them = missing.length > 1 ? 'them' : 'it'
      const hint = this.jsonEnabled()
        ? `pass ${them}; paybox does not ask questions with --json`
        : canPrompt()
          ? `pass ${them}, or no flag at all to be asked for everything`
          : `pass ${them}; paybox does not prompt without a terminal or when CI is set`
      throw new UserError(`Missing ${missing.slice(0, -1).join(', ')}${missing.length > 1 ? ' and ' : ''}${missing.at(-1)}`, hint)
    }
    oneOfFlags(flags, ['customer-id', 'customer-email'])
    oneOfFlags(flags, ['due', 'due-in'])
    if (flags['customer-id'] !== undefined) {
      const extra = NEW_CUSTOMER_FLAGS.filter((name) => flags[name] !== undefined)
      if (extra.length > 0) {
        throw new UserError(
          `--${extra[0]} cannot be used with --customer-id, which invoices the customer as stored`,
          'use --customer-email for a new customer',
        )
      }
    }
    if (flags.item!.length > MAX_LINE_ITEMS)
      throw new UserError(`--item may be given at most ${MAX_LINE_ITEMS} times, got ${flags.item!.length}`)
    const customer =
      flags['customer-email'] === undefined ? undefined : newCustomerFlags({ ...flags, 'customer-email': flags['customer-email'] })
    const taxPercentage = flags.tax === undefined ? undefined : taxFlag(flags.tax)
    const dueAt = dueFlags(flags.due, flags['due-in'], Date.now())

    const currencies: Currency[] = (await client.currencies.list()).items
    const precisions = precisionsOf(currencies)
    const currency = flags.currency!
    const precision = precisions.get(currency)
    if (precision === undefined) throw new UserError(`Unsupported --currency ${currency}`, `one of ${[...precisions.keys()].join(', ')}`)
    const lineItems = flags.item!.map((text) => itemFlag(text, currency, precision))

    const fields = {
      currency,
      line_items: lineItems,
      tax_percentage: taxPercentage,
      due_at: dueAt,
      notes: flags.notes,
      invoice_number: flags.number,
    }
    const body: CreateInvoiceRequest = customer ? { ...fields, customer } : { ...fields, customer_id: flags['customer-id']! }
    return { body, precisions }
  }
}

/** The first `max` different customers, in order: those of the newest invoices first. */
function distinctCustomers(customers: Customer[], max: number): Customer[] {
  const byId = new Map<string, Customer>()
  for (const customer of customers) if (byId.size < max && !byId.has(customer.id)) byId.set(customer.id, customer)
  return [...byId.values()]
}
