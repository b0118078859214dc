// Invoices end to end: creation with its linked payment, validation, customers, gapless
// numbering (also under concurrency, also across two processes), and the lifecycle driven by
// the ledger and the business clock.
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Invoice, Payment } from '../../src/client/types.js'
import type { Kysely, KyselyPlugin } from 'kysely'
import { ManualClock } from '../../sandbox/clock.js'
import { runTransaction } from '../../sandbox/db/database.js'
import type { Database } from '../../sandbox/db/schema.js'
import { createInvoice, readInvoiceSettings } from '../../sandbox/invoices/invoice-service.js'
import { findMerchantById } from '../../sandbox/merchants/merchant-repository.js'
import { createInvoiceBody } from '../../src/api/contract/invoices.js'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { refusal } from '../../harness/refusal.js'
import { startTestSandbox, temporaryDir, type TestSandbox } from '../../harness/sandbox.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'

const START = Date.UTC(2026, 10, 21, 12, 0, 0)
const DAY = 24 * 3600 * 1000
interface InvoiceSettings {
  invoice_prefix: string
  next_number: number
  preview: string
}
const customer = { email: 'ada@example.com', name: 'Ada Lovelace', customer_type: 'individual' }
const body = (extra: Record<string, unknown> = {}) => ({
  currency: 'USD',
  line_items: [{ description: 'Consulting', quantity: 2, unit_price: 15_000 }],
  customer,
  ...extra,
})

describe('invoices', () => {
  let sandbox: TestSandbox
  const clock = new ManualClock(START)
  const create = (payload: unknown, client = sandbox.direct) => client.request<Invoice>('POST', '/invoices', { body: payload })
  const settings = (payload?: unknown) =>
    payload === undefined
      ? sandbox.direct.request<{ invoice_prefix: string; next_number: number; preview: string }>('GET', '/invoices/settings')
      : sandbox.direct.request<{ invoice_prefix: string; next_number: number; preview: string }>('POST', '/invoices/settings', {
          body: payload,
        })
  const count = async () => (await sandbox.direct.request<{ meta: { totalItems: number } }>('GET', '/invoices')).meta.totalItems
  const paymentCount = async () => (await sandbox.direct.payments.list({ limit: 1 })).meta.totalItems

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock, dueWorkIntervalMs: 0 })
  })
  afterAll(() => sandbox.stop())

  describe('creation', () => {
    it('creates a sent invoice with totals, a stored customer and its linked payment', async () => {
      const invoice = await create(body({ tax_percentage: 21, notes: 'Thanks!', due_at: '2026-12-21T12:00:00Z' }))
      expect(invoice).toMatchObject({
        status: 'sent',
        currency: 'USD',
        subtotal: 30_000,
        tax_percentage: 21,
        tax_total: 6_300,
        total: 36_300,
        issued_at: new Date(START).toISOString(),
        due_at: '2026-12-21T12:00:00.000Z',
        notes: 'Thanks!',
        customer: {
          customer_type: 'individual',
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          company_name: null,
          vat_number: null,
          address: null,
        },
      })
      expect(invoice.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(invoice.customer.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(invoice.invoice_number).toBe('INV-0001')

      const payment = await sandbox.direct.payments.get(invoice.payment_id)
      expect(payment).toMatchObject({
        amount: { value: 36_300, currency: 'USD' },
        description: 'Invoice INV-0001',
        status: 'open',
        metadata: { invoice_id: invoice.id, invoice_number: 'INV-0001' },
      })
      expect(await sandbox.direct.request<Invoice>('GET', `/invoices/${invoice.id}`)).toEqual(invoice)
    })

    it('reuses a stored customer by customer_id, and refuses an unknown or foreign one with 404', async () => {
      const first = await create(
        body({
          customer: {
            email: 'grace@example.com',
            customer_type: 'business',
            company_name: 'Navy',
            vat_number: 'US123',
            address: { line1: '1 Main St', postal_code: '10001', city: 'New York', country: 'US' },
          },
        }),
      )
      const second = await create({
        currency: 'EUR',
        line_items: [{ description: 'Support', quantity: 1, unit_price: 500 }],
        customer_id: first.customer.id,
      })
      expect(second.customer).toEqual(first.customer)
      expect(second.customer.address).toEqual({ line1: '1 Main St', postal_code: '10001', city: 'New York', country: 'US' })
      const before = await count()
      expect(
        (await refusal(create({ ...body(), customer: undefined, customer_id: '00000000-0000-4000-8000-000000000000' }))).statusCode,
      ).toBe(404)
      expect((await refusal(create({ ...body(), customer: undefined, customer_id: first.customer.id }, sandbox.escrow))).statusCode).toBe(
        404,
      )
      expect(await count()).toBe(before)
    })

    it('refuses every invalid body with 400 naming the field, creating nothing and consuming no number', async () => {
      const before = { invoices: await count(), payments: await paymentCount(), preview: (await settings()).preview }
      const cases: Array<[unknown, string]> = [
        [body({ currency: 'XYZ' }), 'currency'],
        [{ ...body(), currency: undefined }, 'currency'],
        [body({ line_items: [] }), 'line_items'],
        [body({ line_items: [{ description: '', quantity: 1, unit_price: 1 }] }), 'description'],
        [body({ line_items: [{ description: 'x', quantity: 0, unit_price: 1 }] }), 'quantity'],
        [body({ line_items: [{ description: 'x', quantity: '1', unit_price: 1 }] }), 'quantity'],
        [body({ line_items: [{ description: 'x', quantity: 0.0000001, unit_price: 1 }] }), 'quantity'],
        [body({ line_items: [{ description: 'x', quantity: 1, unit_price: 1.5 }] }), 'unit_price'],
        [body({ line_items: [{ description: 'x', quantity: 1, unit_price: -1 }] }), 'unit_price'],
        [body({ line_items: [{ description: 'x', quantity: 1, unit_price: 0 }] }), 'total'],
        [body({ tax_percentage: 101 }), 'tax_percentage'],
        [body({ tax_percentage: -1 }), 'tax_percentage'],
        [{ ...body(), customer: undefined }, 'customer'],
        [body({ customer_id: 'c1' }), 'customer'],
        [body({ customer: { name: 'No email' } }), 'email'],
        [body({ customer: { email: 'not-an-email' } }), 'email'],
        [body({ customer: { email: 'a@b.co', customer_type: 'robot' } }), 'customer_type'],
        [body({ customer: { email: 'a@b.co', address: { line1: '1 Main St' } } }), 'postal_code'],
        [body({ due_at: 'tomorrow' }), 'due_at'],
        [body({ due_at: '2020-01-01T00:00:00Z' }), 'due_at'],
        [body({ invoice_number: 'x'.repeat(65) }), 'invoice_number'],
        [body({ colour: 'red' }), 'colour'],
      ]
      for (const [payload, field] of cases) {
        const error = await refusal(create(payload))
        expect(error.statusCode, JSON.stringify(payload)).toBe(400)
        expect(error.reason).toBe('Bad Request')
        expect(error.message, JSON.stringify(payload)).toContain(field)
      }
      expect({ invoices: await count(), payments: await paymentCount(), preview: (await settings()).preview }).toEqual(before)
    })

    it('needs the invoice family signature', async () => {
      const response = await fetch(`${sandbox.url}/invoices`)
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ reason: 'Signature verification failed' })
    })
  })

  describe('numbering', () => {
    it('takes a merchant-supplied number without consuming the counter, and refuses a duplicate with 409', async () => {
      const { preview } = await settings()
      const own = await create(body({ invoice_number: 'CUSTOM-7' }))
      expect(own.invoice_number).toBe('CUSTOM-7')
      expect((await settings()).preview).toBe(preview)
      const error = await refusal(create(body({ invoice_number: 'CUSTOM-7' })))
      expect(error.statusCode).toBe(409)
      expect(error.message).toContain('CUSTOM-7')
      // Another merchant may use the same number.
      expect((await create(body({ invoice_number: 'CUSTOM-7' }), sandbox.escrow)).invoice_number).toBe('CUSTOM-7')
    })

    it("finds the one invoice a number names with ?invoice_number=, among the merchant's own only", async () => {
      const own = await create(body({ invoice_number: 'FIND-ME-1' }))
      await create(body({ invoice_number: 'FIND-ME-1' }), sandbox.escrow)
      const found = await sandbox.direct.invoices.list({ invoice_number: 'FIND-ME-1' })
      expect(found.items).toEqual([own])
      expect(found.meta.totalItems).toBe(1)
      expect((await sandbox.direct.invoices.list({ invoice_number: 'FIND-ME' })).items).toEqual([])
      const empty = await refusal(sandbox.direct.invoices.list({ invoice_number: '' }))
      expect(empty).toMatchObject({ statusCode: 400, message: 'invoice_number: must not be empty' })
    })

    it('applies the prefix with {year}, moves next_number forward only, and previews exactly the next number', async () => {
      const current = await settings()
      expect((await refusal(settings({ next_number: current.next_number - 1 }))).statusCode).toBe(400)
      expect((await refusal(settings({ invoice_prefix: 'BAD#' }))).statusCode).toBe(400)
      expect((await refusal(settings({ invoice_prefix: 'x'.repeat(25) }))).statusCode).toBe(400)
      expect((await refusal(settings({ next_number: 0 }))).statusCode).toBe(400)
      expect(await settings()).toEqual(current)

      const changed = await settings({ invoice_prefix: 'ACME-{year}/', next_number: 42 })
      expect(changed).toEqual({ invoice_prefix: 'ACME-{year}/', next_number: 42, preview: 'ACME-2026/0042' })
      expect((await create(body())).invoice_number).toBe('ACME-2026/0042')
      // The counter does not reset at a new year.
      clock.set(Date.UTC(2027, 0, 1, 0, 0, 1))
      expect((await create(body())).invoice_number).toBe('ACME-2027/0043')
      clock.set(START)
      expect(await settings({ next_number: 10_000 })).toMatchObject({ preview: 'ACME-2026/10000' })
    })

    it('gives 50 parallel creations exactly the next 50 numbers, with no gap after failures', async () => {
      await settings({ invoice_prefix: 'PAR-', next_number: 20_000 })
      // Every sixth fails inside its transaction: over the sandbox's USDC limit per payment.
      const tooBig = body({ line_items: [{ description: 'Too big', quantity: 1, unit_price: 100_000_000_000 }] })
      const attempts = Array.from({ length: 60 }, (_, i) => (i % 6 === 5 ? create(tooBig) : create(body())))
      const results = await Promise.allSettled(attempts)
      const numbers = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.invoice_number] : [])).sort()
      const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as { statusCode?: number; message?: string }] : []))
      expect(failures).toHaveLength(10)
      expect(failures.every((f) => f.statusCode === 400 && f.message?.includes('sandbox limit'))).toBe(true)
      expect(numbers).toHaveLength(50)
      expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `PAR-${20_000 + i}`))
      expect((await settings()).preview).toBe('PAR-20050')
    })

    describe('past numbers given by hand', () => {
      const merchantClient = async (name: string) => {
        const made = await sandbox.admin.sandbox.createMerchant({ name, settlement_mode: 'direct' })
        const client = new PayboxClient({ baseUrl: sandbox.url, apiKey: made.apiKey, apiSecret: made.apiSecret })
        const merchant = (await findMerchantById(sandbox.context.db, made.id))!
        const use = (prefix: string, next_number: number) =>
          client.request<InvoiceSettings>('POST', '/invoices/settings', { body: { invoice_prefix: prefix, next_number } })
        const preview = async () => (await client.request<InvoiceSettings>('GET', '/invoices/settings')).preview
        const byHand = (numbers: string[]) => Promise.all(numbers.map((n) => create(body({ invoice_number: n }), client)))
        const auto = async () => (await create(body(), client)).invoice_number
        return { client, merchant, use, preview, byHand, auto }
      }

      it('skips exactly the numbers the counter would write, whatever else looks like them', async () => {
        const m = await merchantClient('Hand numbers')
        await m.use('HAND-', 1)
        // Not what the counter writes for 4, 6 or 7: other widths, other prefixes, other merchants.
        await m.byHand([
          ...['HAND-0001', 'HAND-0002', 'HAND-0003', 'HAND-00004', 'HAND-004', 'HAND-0006x', 'HAND-X0007', 'HAND-0005'],
          // Past what a 64-bit integer holds, and just inside it: neither is near the counter.
          ...['HAND-18446744073709551616', 'HAND-999999999999999999'],
        ])
        await create(body({ invoice_number: 'HAND-0004' }), sandbox.escrow)
        expect(await m.preview()).toBe('HAND-0004')
        expect(await m.auto()).toBe('HAND-0004')
        expect(await m.preview()).toBe('HAND-0006')
        expect(await m.auto()).toBe('HAND-0006')
        expect(await m.auto()).toBe('HAND-0007')

        // Past 9999 the counter is written unpadded: HAND-10000, never HAND-010000.
        await m.use('HAND-', 9_998)
        await m.byHand(['HAND-9998', 'HAND-9999', 'HAND-10000', 'HAND-010001', 'HAND-10002'])
        expect(await m.preview()).toBe('HAND-10001')
        expect(await m.auto()).toBe('HAND-10001')
        expect(await m.auto()).toBe('HAND-10003')

        // A prefix ending in digits: ACME1 with 12345 writes ACME112345, whichever prefix the hand meant.
        await m.use('ACME1', 12_345)
        await m.byHand(['ACME112345', 'ACME10112346', 'ACME-12347'])
        expect(await m.preview()).toBe('ACME112346')

        // {year} is the business year at the time of asking.
        await m.use('Y{year}-', 20_000)
        await m.byHand(['Y2026-20000', 'Y2027-20001'])
        expect(await m.preview()).toBe('Y2026-20001')
        clock.set(Date.UTC(2027, 0, 1, 0, 0, 1))
        expect(await m.preview()).toBe('Y2027-20000')
        clock.set(START)
      })

      it('finds the next free number in one query, however many numbers were given by hand', async () => {
        const queriesOf = async (work: (db: Kysely<Database>) => Promise<unknown>) => {
          let queries = 0
          const counting: KyselyPlugin = {
            transformQuery: (args) => {
              queries++
              return args.node
            },
            transformResult: async (args) => args.result,
          }
          await runTransaction(sandbox.context.db, (trx) => work(trx.withPlugin(counting)))
          return queries
        }
        const costs = async (m: Awaited<ReturnType<typeof merchantClient>>) => ({
          preview: await queriesOf((db) => readInvoiceSettings(db, m.merchant, clock.now())),
          create: await queriesOf((db) => createInvoice(sandbox.context, db, m.merchant, createInvoiceBody.parse(body()))),
        })

        const none = await merchantClient('No hand numbers')
        const many = await merchantClient('Many hand numbers')
        await many.byHand(Array.from({ length: 120 }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`))
        const expected = await costs(none)
        expect(await costs(many)).toEqual(expected)
        expect(await many.preview()).toBe('INV-0122')
        expect((await none.client.request<{ items: Invoice[] }>('GET', '/invoices')).items.map((i) => i.invoice_number)).toEqual([
          'INV-0001',
        ])
      })
    })
  })

  describe('lifecycle', () => {
    it('is paid when its payment is paid over the ledger', async () => {
      const invoice = await create(body())
      clock.advance(1000)
      const paid = await sandbox.direct.request<Payment>('POST', `/sandbox/payments/${invoice.payment_id}/pay`, { body: {} })
      expect(paid.status).toBe('paid')
      expect(await sandbox.direct.request<Invoice>('GET', `/invoices/${invoice.id}`)).toMatchObject({
        status: 'paid',
        updatedAt: new Date(clock.now()).toISOString(),
      })
    })

    it('is paid when an underpayment is accepted', async () => {
      const invoice = await create(body())
      await sandbox.direct.request('POST', `/sandbox/payments/${invoice.payment_id}/pay`, { body: { amount: 100 } })
      expect((await sandbox.direct.request<Invoice>('GET', `/invoices/${invoice.id}`)).status).toBe('sent')
      await sandbox.direct.request('POST', `/payments/${invoice.payment_id}/accept-underpayment`)
      expect((await sandbox.direct.request<Invoice>('GET', `/invoices/${invoice.id}`)).status).toBe('paid')
    })

    it('becomes overdue when the due date passes on the business clock, and paid if paid late', async () => {
      const invoice = await create(body({ due_at: new Date(clock.now() + 7 * DAY).toISOString() }))
      const advanced = await sandbox.admin.sandbox.advanceClock({ seconds: 7 * 24 * 3600 })
      expect(advanced.processed).toMatchObject({ overdueInvoices: 1 })
      const overdue = await sandbox.direct.request<Invoice>('GET', `/invoices/${invoice.id}`)
      expect(overdue).toMatchObject({ status: 'overdue', updatedAt: new Date(clock.now()).toISOString() })
      // The payment link is still payable after the due date.
      await sandbox.direct.request('POST', `/sandbox/payments/${invoice.payment_id}/pay`, { body: {} })
      expect((await sandbox.direct.request<Invoice>('GET', `/invoices/${invoice.id}`)).status).toBe('paid')
    })

    it('voids an unpaid invoice and expires its payment link; refuses to void a paid or voided one', async () => {
      const invoice = await create(body())
      clock.advance(1000)
      const voided = await sandbox.direct.request<Invoice>('POST', `/invoices/${invoice.id}/cancel`)
      expect(voided).toMatchObject({ status: 'voided', updatedAt: new Date(clock.now()).toISOString() })
      const payment = await sandbox.direct.payments.get(invoice.payment_id)
      expect(payment.status).toBe('expired')
      expect(payment.history.at(-1)?.description).toBe(`Payment link expired: invoice ${invoice.invoice_number} voided`)
      expect((await refusal(sandbox.direct.request('POST', `/sandbox/payments/${invoice.payment_id}/pay`, { body: {} }))).statusCode).toBe(
        409,
      )
      expect((await refusal(sandbox.direct.request('POST', `/invoices/${invoice.id}/cancel`))).message).toContain('already voided')

      const paid = await create(body())
      await sandbox.direct.request('POST', `/sandbox/payments/${paid.payment_id}/pay`, { body: {} })
      const error = await refusal(sandbox.direct.request('POST', `/invoices/${paid.id}/cancel`))
      expect(error.statusCode).toBe(409)
      expect(error.message).toBe(
        `Invoice ${paid.invoice_number} is paid and cannot be voided; issue a refund on its payment ${paid.payment_id} instead`,
      )
      expect((await sandbox.direct.request<Invoice>('GET', `/invoices/${paid.id}`)).status).toBe('paid')
    })

    it('lets the money of a voided invoice, paid in part, be refunded', async () => {
      const invoice = await create(body())
      await sandbox.direct.request('POST', `/sandbox/payments/${invoice.payment_id}/pay`, { body: { amount: 1000 } })
      await sandbox.direct.request('POST', `/invoices/${invoice.id}/cancel`)
      const refund = await sandbox.direct.request<{ amount: { value: number }; payment: { status: string } }>(
        'POST',
        `/payments/${invoice.payment_id}/refunds`,
      )
      expect(refund).toMatchObject({ amount: { value: 10 }, payment: { status: 'expired' } })
    })

    it('lists newest first with a status filter and meta, and hides other merchants', async () => {
      const page = await sandbox.direct.request<{ items: Invoice[]; meta: { totalItems: number } }>('GET', '/invoices', {
        query: { status: 'paid', limit: 100 },
      })
      expect(page.items.length).toBeGreaterThanOrEqual(3)
      expect(page.items.every((i) => i.status === 'paid')).toBe(true)
      expect(page).not.toHaveProperty('links')
      const created = page.items.map((i) => i.createdAt)
      expect(created).toEqual([...created].sort().reverse())
      const any = page.items[0]!
      expect((await refusal(sandbox.escrow.request('GET', `/invoices/${any.id}`))).statusCode).toBe(404)
      expect((await refusal(sandbox.escrow.request('POST', `/invoices/${any.id}/cancel`))).statusCode).toBe(404)
      expect((await refusal(sandbox.direct.request('GET', '/invoices', { query: { status: 'late' } }))).statusCode).toBe(400)
    })
  })
})

describe('invoice numbering across two sandbox processes on one database file', () => {
  let processes: SandboxProcess[] = []
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()))
  })

  it('gives parallel creations through both processes the next numbers, each exactly once', async () => {
    const db = path.join(temporaryDir(), 'shared.db')
    const first = await spawnSandbox(['--port', '0', '--db', db])
    const second = await spawnSandbox(['--port', '0', '--db', db])
    processes = [first, second]
    const direct = first.banner.merchants.find((m) => m.settlement_mode === 'direct')!
    const clients = [first, second].map(
      (p) => new PayboxClient({ baseUrl: p.banner.baseUrl, apiKey: direct.apiKey, apiSecret: direct.apiSecret }),
    )
    const made = await Promise.all(
      Array.from({ length: 40 }, (_, i) => clients[i % 2]!.request<Invoice>('POST', '/invoices', { body: body() })),
    )
    const numbers = made.map((invoice) => invoice.invoice_number).sort()
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`))
  })
})
