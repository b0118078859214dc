// `paybox invoices …` in-process against a real sandbox, checking what reached the server through
// the API client; and the pure parts behind the interactive flow (reading items, tax and due
// dates, the running total), which must compute totals exactly as the server does.
import { describe, expect, it } from 'vitest'
import type { Invoice, InvoiceLineItem, InvoiceSettings, Page } from '../../src/client/types.js'
import { dueAnswerOf, dueDateOf, dueInOf, quantityOf, readItem, taxOf } from '../../src/cli/invoice-input.js'
import { formatLineAmount, runningTotalLine, voidQuestion } from '../../src/cli/render/invoices.js'
import { invoiceTotals } from '../../src/invoice-totals.js'
import { expectOneLineFailure, linesOf, merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

const USD: ReadonlyMap<string, number> = new Map([
  ['USD', 2],
  ['JPY', 0],
])
const DAY = 24 * 3600 * 1000
const NEXT_YEAR = new Date().getUTCFullYear() + 1
const item = (description: string, quantity: number, unit_price: number): InvoiceLineItem => ({ description, quantity, unit_price })

describe("invoice input and running totals (the interactive flow's pure parts)", () => {
  it('reads "description;quantity;unit price" with the price in major units, exactly', () => {
    expect(readItem('Widget;0.1;10.00', 'USD', 2)).toEqual({ item: item('Widget', 0.1, 1000) })
    expect(readItem(' Consulting ; 2.5 ; 95 ', 'USD', 2)).toEqual({ item: item('Consulting', 2.5, 9500) })
    expect(readItem('Yen thing;3;1500', 'JPY', 0)).toEqual({ item: item('Yen thing', 3, 1500) })
    // The numbers are the last two fields, so a description may contain ";".
    expect(readItem('Parts; labour;1;0.01', 'USD', 2)).toEqual({ item: item('Parts; labour', 1, 1) })
    expect(readItem('Free sample;1;0', 'USD', 2)).toEqual({ item: item('Free sample', 1, 0) })
    expect(readItem('Tiny;0.000001;1', 'USD', 2)).toEqual({ item: item('Tiny', 0.000001, 100) })
  })

  it('refuses items it cannot read exactly, saying which part is wrong', () => {
    expect(readItem('x;1', 'USD', 2)).toEqual({ problem: 'must be "description;quantity;unit price"' })
    expect(readItem(';1;1', 'USD', 2)).toEqual({ problem: 'needs a description before the quantity' })
    for (const quantity of ['abc', '0', '-1', '1e3', '0.0000001', '1000000.5', '']) {
      expect(readItem(`x;${quantity};1`, 'USD', 2), quantity).toMatchObject({ problem: expect.stringContaining(`quantity "${quantity}"`) })
    }
    for (const price of ['1.234', 'abc', '-1', '1,50']) {
      expect(readItem(`x;1;${price}`, 'USD', 2), price).toMatchObject({ problem: expect.stringContaining(`unit price "${price}"`) })
    }
    expect(readItem('x;1;1.5', 'JPY', 0)).toEqual({
      problem: 'has unit price "1.5"; it must be a whole amount of JPY, 0 or more',
    })
    expect(quantityOf('1000000')).toBe(1_000_000)
  })

  it('reads a tax percentage from 0 to 100 with at most 4 places', () => {
    expect(taxOf('21')).toBe(21)
    expect(taxOf('7.25%')).toBe(7.25)
    expect(taxOf('0')).toBe(0)
    expect(taxOf('100')).toBe(100)
    for (const bad of ['100.01', '-1', '1.23456', 'abc', '']) expect(taxOf(bad), bad).toBeUndefined()
  })

  it('reads a bare due date as 23:59:59 UTC that day, a date-time only with its offset, and a duration from now', () => {
    expect(dueDateOf('2026-12-31')).toBe('2026-12-31T23:59:59.000Z')
    expect(dueDateOf('2026-12-31T17:00:00+02:00')).toBe('2026-12-31T15:00:00.000Z')
    expect(dueDateOf('2026-12-31T17:00Z')).toBe('2026-12-31T17:00:00.000Z')
    for (const bad of ['2026-02-30', '2026-13-01', '2026-12-31T17:00:00', '31/12/2026', 'tomorrow', '2026-12-31T25:00:00Z']) {
      expect(dueDateOf(bad), bad).toBeUndefined()
    }
    const now = Date.UTC(2026, 10, 21, 12)
    expect(dueInOf('30d', now)).toBe(new Date(now + 30 * DAY).toISOString())
    expect(dueInOf('2w', now)).toBe(new Date(now + 14 * DAY).toISOString())
    for (const bad of ['30', '-1d', 'soon', '0d']) expect(dueInOf(bad, now), bad).toBeUndefined()
    // The interactive question takes either form, in the future only.
    expect(dueAnswerOf('30d', now)).toBe(new Date(now + 30 * DAY).toISOString())
    expect(dueAnswerOf('2026-12-31', now)).toBe('2026-12-31T23:59:59.000Z')
    expect(dueAnswerOf('2026-11-20', now)).toBeUndefined()
  })

  it('shows the running total after each item, rounding the subtotal once at the end and the tax half up', () => {
    const items: InvoiceLineItem[] = []
    const after = (next: InvoiceLineItem) => {
      items.push(next)
      return runningTotalLine(items, 21, 'USD', USD)
    }
    // 0.5 cent rounds up to 1 on its own; two of them are exactly 1 cent, not 2.
    expect(after(item('Half a cent', 0.5, 1))).toBe('1 item: subtotal 0.01 USD, tax 21% 0.00 USD, total 0.01 USD')
    expect(after(item('Half a cent', 0.5, 1))).toBe('2 items: subtotal 0.01 USD, tax 21% 0.00 USD, total 0.01 USD')
    expect(after(item('Widget', 0.1, 1000))).toBe('3 items: subtotal 1.01 USD, tax 21% 0.21 USD, total 1.22 USD')
    expect(runningTotalLine([item('W', 0.1, 1000), item('W', 0.1, 1000), item('W', 0.1, 1000)], 0, 'USD', USD)).toBe(
      '3 items: subtotal 3.00 USD, tax 0% 0.00 USD, total 3.00 USD',
    )
  })

  it("shows each line amount exactly, with at least the currency's places", () => {
    expect(formatLineAmount(item('W', 0.1, 1000), 'USD', USD)).toBe('1.00 USD')
    expect(formatLineAmount(item('W', 0.333333, 100), 'USD', USD)).toBe('0.333333 USD')
    expect(formatLineAmount(item('W', 0.5, 3), 'JPY', USD)).toBe('1.5 JPY')
    expect(formatLineAmount(item('W', 2, 1500), 'JPY', USD)).toBe('3000 JPY')
  })
})

describe('paybox invoices', () => {
  const sandbox = sandboxForSuite()
  const env = () => merchantEnv(sandbox)

  const counts = async () => ({
    invoices: (await sandbox.direct.invoices.list({ limit: 1 })).meta.totalItems,
    payments: (await sandbox.direct.payments.list({ limit: 1 })).meta.totalItems,
    preview: (await sandbox.direct.invoices.settings()).preview,
  })
  const widgets = ['--item', 'Widget;0.1;10.00', '--item', 'Widget;0.1;10.00', '--item', 'Widget;0.1;10.00']
  const ada = ['--customer-email', 'ada@example.com', '--customer-name', 'Ada Lovelace', '--customer-type', 'individual']

  describe('create', () => {
    it("sends items in major units and the server computes exact totals; --json is the server's invoice", async () => {
      const {
        json: invoice,
        stdout,
        stderr,
        exitCode,
      } = await runCliJson<Invoice>(
        ['invoices', 'create', '--currency', 'USD', ...widgets, '--tax', '21', ...ada, '--notes', 'Thanks!'],
        env(),
      )
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(stdout.trim().startsWith('{')).toBe(true)
      expect(invoice).toMatchObject({
        status: 'sent',
        currency: 'USD',
        line_items: [item('Widget', 0.1, 1000), item('Widget', 0.1, 1000), item('Widget', 0.1, 1000)],
        subtotal: 300,
        tax_percentage: 21,
        tax_total: 63,
        total: 363,
        due_at: null,
        notes: 'Thanks!',
        customer: { email: 'ada@example.com', name: 'Ada Lovelace', customer_type: 'individual', company_name: null, address: null },
      })
      expect(await sandbox.direct.invoices.get(invoice.id)).toEqual(invoice)
      const payment = await sandbox.direct.payments.get(invoice.payment_id)
      expect(payment.amount).toEqual({ value: 363, currency: 'USD' })
      expect(payment.status).toBe('open')
    })

    it('computes the same totals as the server for awkward quantities, prices and tax rates', async () => {
      const cases: Array<[InvoiceLineItem[], number]> = [
        [[item('a', 0.5, 1), item('b', 0.5, 1)], 0],
        [[item('a', 2.4999, 1), item('b', 0.000001, 500_000)], 7.25],
        [[item('a', 3, 333)], 21],
        [[item('a', 0.7, 10), item('b', 0.2, 10), item('c', 0.1, 10)], 4.9999],
        [[item('a', 999_999.999999, 3), item('b', 1, 1)], 19.5],
      ]
      for (const [lineItems, tax] of cases) {
        const created = await sandbox.direct.invoices.create({
          currency: 'USD',
          line_items: lineItems,
          tax_percentage: tax,
          customer: { email: 'totals@example.com' },
        })
        const { subtotal, tax_total, total } = created
        expect(invoiceTotals(lineItems, tax), JSON.stringify(lineItems)).toEqual({ subtotal, tax_total, total })
      }
    })

    it('prints the invoice, its items and totals, the payment link and a QR code of the wallet URI', async () => {
      const { stdout, stderr, exitCode } = await runCli(
        [
          'invoices',
          'create',
          '--currency',
          'USD',
          ...widgets,
          '--tax',
          '21',
          ...ada,
          '--company',
          'Analytical Ltd',
          '--due',
          `${NEXT_YEAR}-06-30`,
          '--qr',
        ],
        env(),
      )
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      const [invoice] = (await sandbox.direct.invoices.list({ limit: 1 })).items
      const payment = await sandbox.direct.payments.get(invoice!.payment_id)
      expect(invoice!.due_at).toBe(`${NEXT_YEAR}-06-30T23:59:59.000Z`)
      for (const text of [
        invoice!.invoice_number,
        'sent',
        'Ada Lovelace, Analytical Ltd <ada@example.com>',
        invoice!.customer.id,
        'Widget',
        '0.1',
        '10.00 USD',
        '1.00 USD',
        '3.00 USD',
        'Tax 21%',
        '0.63 USD',
        '3.63 USD',
        `${NEXT_YEAR}-06-30T23:59:59.000Z`,
        payment.id,
        payment.shortUrl!,
      ]) {
        expect(stdout, text).toContain(text)
      }
      const qrRows = stdout.split('\n').filter((line) => /^[▄▀█ ]+$/.test(line) && /[▄▀█]/.test(line))
      expect(qrRows.length).toBeGreaterThan(10)
      expect(new Set(qrRows.map((row) => row.length)).size).toBe(1)
    })

    it('invoices a stored customer again with --customer-id, and takes --due-in, --number and a full address', async () => {
      const first = await runCliJson<Invoice>(
        [
          'invoices',
          'create',
          '--currency',
          'EUR',
          '--item',
          'Consulting;2;150',
          '--customer-email',
          'grace@example.com',
          '--company',
          'Navy',
          '--vat',
          'US123',
          '--address-line1',
          '1 Main St',
          '--postal-code',
          '10001',
          '--city',
          'New York',
          '--country',
          'US',
        ],
        env(),
      )
      expect(first.exitCode).toBe(0)
      expect(first.json.customer).toMatchObject({
        customer_type: 'business',
        company_name: 'Navy',
        vat_number: 'US123',
        address: { line1: '1 Main St', postal_code: '10001', city: 'New York', country: 'US' },
      })
      const before = Date.now()
      const second = await runCliJson<Invoice>(
        [
          'invoices',
          'create',
          '--currency',
          'JPY',
          '--item',
          'Support;1;1500',
          '--customer-id',
          first.json.customer.id,
          '--due-in',
          '30d',
          '--number',
          'HAND-1',
        ],
        env(),
      )
      expect(second.exitCode).toBe(0)
      expect(second.json.customer).toEqual(first.json.customer)
      expect(second.json.total).toBe(1500)
      expect(second.json.invoice_number).toBe('HAND-1')
      const due = Date.parse(second.json.due_at!)
      expect(due).toBeGreaterThanOrEqual(before + 30 * DAY)
      expect(due).toBeLessThanOrEqual(Date.now() + 30 * DAY)
    })

    describe('refuses bad flags in one line, with a non-zero exit, creating nothing', () => {
      const base = ['invoices', 'create', '--currency', 'USD', '--item', 'Widget;1;10', '--customer-email', 'ada@example.com']
      const cases: Array<[string, string[], string, number?]> = [
        [
          'an unreadable quantity',
          ['invoices', 'create', '--currency', 'USD', '--item', 'x;abc;1', ...ada],
          '--item "x;abc;1" has quantity "abc"; it must be a number greater than 0 and at most 1000000, with at most 6 decimal places',
        ],
        [
          'an item without a price',
          ['invoices', 'create', '--currency', 'USD', '--item', 'x;1', ...ada],
          '--item "x;1" must be "description;quantity;unit price"',
        ],
        [
          'more decimals than the currency has',
          ['invoices', 'create', '--currency', 'USD', '--item', 'x;1;1.234', ...ada],
          '--item "x;1;1.234" has unit price "1.234"; it must be an amount of USD of 0 or more with at most 2 decimal places',
        ],
        [
          'both --customer-id and --customer-email',
          [...base, '--customer-id', 'c1'],
          '--customer-id and --customer-email cannot be used together (pass one of --customer-id, --customer-email)',
        ],
        [
          'new-customer details with --customer-id',
          ['invoices', 'create', '--currency', 'USD', '--item', 'x;1;1', '--customer-id', 'c1', '--customer-name', 'Ada'],
          '--customer-name cannot be used with --customer-id, which invoices the customer as stored (use --customer-email for a new customer)',
        ],
        [
          'half an address',
          [...base, '--address-line1', '1 Main St', '--city', 'Paris'],
          'An address needs all of --address-line1, --postal-code, --city and --country; missing --postal-code, --country',
        ],
        [
          'an email that is not one',
          ['invoices', 'create', '--currency', 'USD', '--item', 'x;1;1', '--customer-email', 'ada'],
          '--customer-email must be an email address, got "ada"',
        ],
        [
          'an unreadable --due',
          [...base, '--due', '31/12/2026'],
          '--due must be a date (2026-12-31, meaning 23:59:59 UTC that day) or a date-time with an offset (2026-12-31T17:00:00Z), got "31/12/2026"',
        ],
        [
          'a --due without offset',
          [...base, '--due', `${NEXT_YEAR}-01-01T10:00:00`],
          `--due must be a date (2026-12-31, meaning 23:59:59 UTC that day) or a date-time with an offset (2026-12-31T17:00:00Z), got "${NEXT_YEAR}-01-01T10:00:00"`,
        ],
        [
          'a --due in the past',
          [...base, '--due', '2020-01-01'],
          '--due must be in the future, got "2020-01-01" (2020-01-01T23:59:59.000Z)',
        ],
        ['a --due-in without unit', [...base, '--due-in', '30'], '--due-in must be a duration such as 30d, 2w or 12h, got "30"'],
        [
          'both --due and --due-in',
          [...base, '--due', `${NEXT_YEAR}-01-01`, '--due-in', '30d'],
          '--due and --due-in cannot be used together (pass one of --due, --due-in)',
        ],
        ['--tax over 100', [...base, '--tax', '101'], '--tax must be a percentage from 0 to 100 with at most 4 decimal places, got "101"'],
        [
          'no flags without a terminal',
          ['invoices', 'create'],
          'Missing --currency, --item and a customer (--customer-id or --customer-email) (pass them; paybox does not prompt without a terminal or when CI is set)',
        ],
        [
          'a missing --item',
          ['invoices', 'create', '--currency', 'USD', ...ada],
          'Missing --item (pass it; paybox does not prompt without a terminal or when CI is set)',
        ],
        [
          'a --customer-type the API does not know',
          [...base, '--customer-type', 'robot'],
          'Expected --customer-type=robot to be one of: business, individual (see --help)',
        ],
        [
          'a total of zero (refused by the server)',
          ['invoices', 'create', '--currency', 'USD', '--item', 'Free;1;0', ...ada],
          '400 Bad Request: --item: the invoice total must be greater than 0',
        ],
      ]
      it.each(cases)('%s', async (_name, argv, message, exitCode = 1) => {
        const before = await counts()
        expectOneLineFailure(await runCli(argv, env()), message, exitCode)
        expect(await counts()).toEqual(before)
      })

      it('an unsupported --currency, listing the supported ones', async () => {
        const before = await counts()
        const supported = (await sandbox.direct.currencies.list()).items.map((c) => c.code).join(', ')
        const result = await runCli(['invoices', 'create', '--currency', 'xyz', '--item', 'x;1;1', ...ada], env())
        expectOneLineFailure(result, `Unsupported --currency XYZ (one of ${supported})`)
        expect(await counts()).toEqual(before)
      })

      it('with --json, a missing flag is an error document, never a question', async () => {
        const { json, exitCode, stderr } = await runCliJson<{ error: { message: string } }>(['invoices', 'create'], env())
        expect(exitCode).toBe(1)
        expect(json.error.message).toMatch(/^Missing --currency/)
        expect(linesOf(stderr)).toHaveLength(1)
      })
    })
  })

  describe('get and cancel', () => {
    const newInvoice = () =>
      sandbox.direct.invoices.create({
        currency: 'USD',
        line_items: [item('Consulting', 2, 15_000)],
        customer: { email: 'ada@example.com', name: 'Ada' },
      })

    it("gets an invoice: --json is the server's, the table shows its payment link", async () => {
      const invoice = await newInvoice()
      const got = await runCliJson<Invoice>(['invoices', 'get', invoice.id], env())
      expect(got.exitCode).toBe(0)
      expect(got.json).toEqual(invoice)
      const { stdout, exitCode } = await runCli(['invoices', 'get', invoice.id, '--qr'], env())
      expect(exitCode).toBe(0)
      const payment = await sandbox.direct.payments.get(invoice.payment_id)
      expect(stdout).toContain(invoice.invoice_number)
      expect(stdout).toContain('300.00 USD')
      expect(stdout).toContain(payment.shortUrl!)
      expect(/[▄▀█]/.test(stdout)).toBe(true)
    })

    it('an unknown invoice is a 404 in one line, saying an id or a number was looked for', async () => {
      const message = '404 Not Found: No invoice with id or number INV-9999 (see: paybox invoices list)'
      expectOneLineFailure(await runCli(['invoices', 'get', 'INV-9999'], env()), message)
      expectOneLineFailure(await runCli(['invoices', 'cancel', 'INV-9999', '--yes'], env()), message)
    })

    it('gets and cancels an invoice by its number as by its id (the sandbox finds the number)', async () => {
      const invoice = await newInvoice()
      const got = await runCliJson<Invoice>(['invoices', 'get', invoice.invoice_number], env())
      expect(got.exitCode).toBe(0)
      expect(got.json).toEqual(invoice)
      const voided = await runCliJson<Invoice>(['invoices', 'cancel', invoice.invoice_number, '--yes'], env())
      expect(voided.exitCode).toBe(0)
      expect(voided.json).toMatchObject({ id: invoice.id, status: 'voided' })
    })

    it('cancel --yes voids the invoice and expires its payment', async () => {
      const invoice = await newInvoice()
      const { json, exitCode, stderr } = await runCliJson<Invoice>(['invoices', 'cancel', invoice.id, '--yes'], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(json.status).toBe('voided')
      expect(await sandbox.direct.invoices.get(invoice.id)).toEqual(json)
      const payment = await sandbox.direct.payments.get(invoice.payment_id)
      expect(payment.status).toBe('expired')
      expect(payment.history.at(-1)?.description).toBe(`Payment link expired: invoice ${invoice.invoice_number} voided`)

      // Voided, its payment can no longer be paid: no link, no QR code.
      const shown = await runCli(['invoices', 'get', invoice.id, '--qr'], env())
      expect(shown.stdout).toContain('voided')
      expect(shown.stdout).toContain(`${payment.id} (expired)`)
      expect(shown.stdout).not.toContain('Pay at')
      expect(/[▄▀█]/.test(shown.stdout)).toBe(false)
    })

    it('cancel without --yes and without a terminal refuses in one line and changes nothing', async () => {
      const invoice = await newInvoice()
      expectOneLineFailure(
        await runCli(['invoices', 'cancel', invoice.id], env()),
        `Not voiding invoice ${invoice.id} without confirmation (pass --yes; paybox does not ask without a terminal, when CI is set, or with --json)`,
      )
      expect(await sandbox.direct.invoices.get(invoice.id)).toEqual(invoice)
      expect((await sandbox.direct.payments.get(invoice.payment_id)).status).toBe('open')
    })

    it('asks before voiding with the invoice, its total and customer, and any money its payment already received', async () => {
      const invoice = await newInvoice()
      const precisions = new Map([['USD', 2]])
      const open = await sandbox.direct.payments.get(invoice.payment_id)
      expect(voidQuestion(invoice, open, precisions)).toBe(
        `Void invoice ${invoice.invoice_number} (300.00 USD to Ada <ada@example.com>)? Its payment link stops working.`,
      )
      const underpaid = await sandbox.direct.sandbox.pay(invoice.payment_id, { amount: 400 })
      expect(voidQuestion(invoice, underpaid, precisions)).toBe(
        `Void invoice ${invoice.invoice_number} (300.00 USD to Ada <ada@example.com>)? Its payment link stops working. ` +
          `Its payment ${underpaid.id} has already received 4.00 USD.`,
      )
    })

    it('refuses to void a paid invoice, pointing to a refund', async () => {
      const invoice = await newInvoice()
      await sandbox.direct.sandbox.pay(invoice.payment_id)
      expectOneLineFailure(
        await runCli(['invoices', 'cancel', invoice.id, '--yes'], env()),
        `409 Conflict: Invoice ${invoice.invoice_number} is paid and cannot be voided; issue a refund on its payment ${invoice.payment_id} instead`,
      )
      expect((await sandbox.direct.invoices.get(invoice.id)).status).toBe('paid')
    })
  })

  describe('list and settings', () => {
    // A sandbox of its own, so that the list and the numbering see only this test's invoices.
    const own = sandboxForSuite()

    it('changes the numbering, previews exactly the next number, and the next invoice gets it', async () => {
      const ownEnv = merchantEnv(own)
      const shown = await runCliJson<InvoiceSettings>(['invoices', 'settings'], ownEnv)
      expect(shown.json).toEqual({ invoice_prefix: 'INV-', next_number: 1, preview: 'INV-0001' })

      const year = new Date().getUTCFullYear()
      const changed = await runCliJson<InvoiceSettings>(['invoices', 'settings', '--prefix', 'INV-{year}-', '--next-number', '100'], ownEnv)
      expect(changed.exitCode).toBe(0)
      expect(changed.json).toEqual({ invoice_prefix: 'INV-{year}-', next_number: 100, preview: `INV-${year}-0100` })
      expect(await own.direct.invoices.settings()).toEqual(changed.json)

      const created = await runCliJson<Invoice>(['invoices', 'create', '--currency', 'USD', '--item', 'x;1;1', ...ada], ownEnv)
      expect(created.json.invoice_number).toBe(`INV-${year}-0100`)
      const table = await runCli(['invoices', 'settings'], ownEnv)
      expect(table.stdout).toContain('INV-{year}-')
      expect(table.stdout).toContain('101')
      expect(table.stdout).toContain(`INV-${year}-0101`)

      // Numbers only move forward: the server's refusal, in one line, and nothing changes.
      expectOneLineFailure(
        await runCli(['invoices', 'settings', '--next-number', '50'], ownEnv),
        '400 Bad Request: --next-number: must be at least the current next number 101 (numbers only move forward)',
      )
      expect((await own.direct.invoices.settings()).next_number).toBe(101)
    })

    it('lists newest first, filters by --status and pages', async () => {
      const ownEnv = merchantEnv(own)
      const make = () =>
        own.direct.invoices.create({ currency: 'USD', line_items: [item('x', 1, 100)], customer: { email: 'list@example.com' } })
      const paid = await make()
      await own.direct.sandbox.pay(paid.payment_id)
      const voided = await make()
      await own.direct.invoices.cancel(voided.id)
      const sent = await make()

      const onlyVoided = await runCliJson<Page<Invoice>>(['invoices', 'list', '--status', 'voided'], ownEnv)
      expect(onlyVoided.exitCode).toBe(0)
      expect(onlyVoided.json.items.map((i) => i.id)).toEqual([voided.id])
      const onlyPaid = await runCliJson<Page<Invoice>>(['invoices', 'list', '--status', 'paid'], ownEnv)
      expect(onlyPaid.json.items.map((i) => i.id)).toEqual([paid.id])

      const firstPage = await runCliJson<Page<Invoice>>(['invoices', 'list', '--limit', '2'], ownEnv)
      expect(firstPage.json.items.map((i) => i.id)).toEqual([sent.id, voided.id])
      expect(firstPage.json.meta).toMatchObject({ totalItems: 4, totalPages: 2, currentPage: 1 })

      const table = await runCli(['invoices', 'list', '--status', 'sent'], ownEnv)
      expect(table.exitCode).toBe(0)
      expect(table.stdout).toContain(sent.invoice_number)
      expect(table.stdout).toContain('1.00 USD')
      expect(table.stdout).not.toContain(paid.invoice_number)
      expect(linesOf(table.stdout).at(-1)).toBe('Page 1 of 1 (2 invoices)')

      // The words people use for voiding list the voided ones, with a note of what they mean here.
      for (const word of ['canceled', 'cancelled']) {
        const aliased = await runCliJson<Page<Invoice>>(['invoices', 'list', '--status', word], ownEnv)
        expect(aliased.exitCode).toBe(0)
        expect(aliased.json.items.map((i) => i.id)).toEqual([voided.id])
        const shown = await runCli(['invoices', 'list', '--status', word], ownEnv)
        expect(shown.stderr).toBe(`Note: --status ${word} lists voided invoices (a canceled invoice is voided in paybox)\n`)
        expect(shown.stdout).toContain(voided.invoice_number)
      }

      expectOneLineFailure(
        await runCli(['invoices', 'list', '--status', 'late'], ownEnv),
        'Expected --status=late to be one of: draft, sent, paid, overdue, voided, canceled, cancelled (see --help)',
      )
    })
  })
})
