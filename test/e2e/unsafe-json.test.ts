// What no field of any body may hold, refused with 400 before a route reads it, on both backends:
// a "__proto__" key (JSON.parse keeps it, zod's records drop it silently, and with it the 8 KiB
// metadata bound) and text with a lone UTF-16 surrogate (PostgreSQL stored it as U+FFFD, SQLite
// as is).
import { describe, expect, it } from 'vitest'
import type { PayboxClient } from '../../src/client/paybox-client.js'
import type { Invoice, Payment } from '../../src/client/types.js'
import { refusal } from '../../harness/refusal.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

const sandbox = sandboxForSuite()

/** An object with an own "__proto__" key, as JSON.parse makes one (a literal would set the prototype). */
function withProtoKey(value: unknown, rest: Record<string, unknown> = {}): Record<string, unknown> {
  const object = { ...rest }
  Object.defineProperty(object, '__proto__', { value, enumerable: true, configurable: true, writable: true })
  return object
}

const amount = { value: 1500, currency: 'USD' }
const invoice = (extra: Record<string, unknown> = {}) => ({
  currency: 'USD',
  line_items: [{ description: 'Consulting', quantity: 1, unit_price: 15_000 }],
  customer: { email: 'ada@example.com', customer_type: 'individual' },
  ...extra,
})

const counts = async (client: PayboxClient) => ({
  payments: (await client.payments.list({ limit: 1 })).meta.totalItems,
  refunds: (await client.refunds.list()).meta.totalItems,
  invoices: (await client.invoices.list()).meta.totalItems,
  merchants: (await sandbox.admin.sandbox.merchants()).items.length,
})

async function paidPayment(): Promise<Payment> {
  const payment = await sandbox.direct.payments.create({ amount, description: 'Refundable' })
  await sandbox.direct.sandbox.pay(payment.id)
  return payment
}

describe('a "__proto__" key', () => {
  it('is refused with 400 in metadata on every endpoint that takes metadata, however small or large its value', async () => {
    const paid = await paidPayment()
    const before = await counts(sandbox.direct)
    // 50 KB hid behind the key while the rest of the metadata stayed under the 8 KiB bound.
    for (const value of ['x'.repeat(50_000), 'small', { nested: true }]) {
      const metadata = withProtoKey(value, { orderId: 'A-1' })
      const attempts = [
        sandbox.direct.request('POST', '/payments', { body: { amount, description: 'Proto', metadata } }),
        sandbox.direct.request('POST', `/payments/${paid.id}/refunds`, { body: { amount: 100, metadata } }),
      ]
      for (const attempt of attempts) {
        const error = await refusal(attempt)
        expect(error.statusCode).toBe(400)
        expect(error.message).toBe('metadata: "__proto__" is not allowed as a key')
      }
    }
    expect(await counts(sandbox.direct)).toEqual(before)
  })

  it('is refused anywhere else in a body too', async () => {
    const error = await refusal(
      sandbox.direct.request('POST', '/invoices', { body: invoice({ customer: withProtoKey({ a: 1 }, { email: 'a@b.co' }) }) }),
    )
    expect(error.statusCode).toBe(400)
    expect(error.message).toBe('customer: "__proto__" is not allowed as a key')
    expect(
      (await refusal(sandbox.direct.request('POST', '/payments', { body: withProtoKey(1, { amount, description: 'Top' }) }))).message,
    ).toBe('Request body: "__proto__" is not allowed as a key')
  })
})

describe('a lone UTF-16 surrogate', () => {
  const lone = '\ud800x'

  it('is refused with 400 in every text field and key, storing nothing', async () => {
    const paid = await paidPayment()
    const before = await counts(sandbox.direct)
    const cases: Array<[method: string, path: string, body: unknown, where: string, client?: PayboxClient]> = [
      ['POST', '/payments', { amount, description: lone }, 'description'],
      ['POST', '/payments', { amount, description: 'Meta', metadata: { note: lone } }, 'metadata.note'],
      ['POST', '/payments', { amount, description: 'Meta', metadata: { [lone]: 'value' } }, 'metadata'],
      ['POST', '/payments', { amount, description: 'Meta', metadata: { list: ['ok', { deep: lone }] } }, 'metadata.list.1.deep'],
      ['POST', '/payments', { amount, description: 'Store', storeId: lone }, 'storeId'],
      ['POST', `/payments/${paid.id}/refunds`, { amount: 100, description: lone }, 'description'],
      ['POST', '/invoices', invoice({ notes: lone }), 'notes'],
      ['POST', '/invoices', invoice({ customer: { email: 'a@b.co', name: lone } }), 'customer.name'],
      ['POST', '/invoices', invoice({ line_items: [{ description: `\udc00`, quantity: 1, unit_price: 100 }] }), 'line_items.0.description'],
      ['POST', '/invoices', invoice({ invoice_number: lone }), 'invoice_number'],
      ['POST', '/sandbox/merchants', { name: lone, settlement_mode: 'direct' }, 'name', sandbox.admin],
    ]
    for (const [method, path, body, where, client] of cases) {
      const error = await refusal((client ?? sandbox.direct).request(method, path, { body, auth: client ? 'admin' : undefined }))
      expect(error.statusCode, `${path} ${where}`).toBe(400)
      expect(error.message, `${path} ${where}`).toMatch(new RegExp(`^${where.replaceAll('.', '\\.')}: (text|keys) must be valid Unicode`))
    }
    expect(await counts(sandbox.direct)).toEqual(before)
  })

  it('is told apart from a surrogate pair, which is stored and read back as sent', async () => {
    const text = 'Caf\u00e9 \ud83d\ude42 \u{1f680}'
    const payment = await sandbox.direct.payments.create({ amount, description: text, metadata: { [text]: text } })
    expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ description: text, metadata: { [text]: text } })
    const made = await sandbox.direct.request<Invoice>('POST', '/invoices', { body: invoice({ notes: text }) })
    expect(made.notes).toBe(text)
  })
})
