// Issue 25 on two replicas of one PostgreSQL database, requests spread over both at once: what is
// counted or moved per merchant or per sandbox (invoice numbers, business clocks, the resend
// limit, the tenants' limit) holds by the row each rule locks, with no sandbox-wide write lock
// (run with PAYBOX_POSTGRES_SERIAL_WRITES=0).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { refusal } from '../../harness/refusal.js'
import { numberingProblems } from '../../harness/sandbox-checks.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/webhook-receiver.js'
import { waitFor } from '../../harness/wait.js'
import { RESENDS_PER_MINUTE } from '../../sandbox/webhooks/resend-limiter.js'

const MAX_TENANTS = 4
const iso = (ms: number) => new Date(ms).toISOString()

/** What each settled request gave: its value, or the status of its refusal (any other failure stays one). */
async function outcomes<T>(requests: Array<Promise<T>>): Promise<Array<{ ok: T } | { status: number }>> {
  return Promise.all(
    requests.map((request) =>
      request.then(
        (ok) => ({ ok }),
        async (error: unknown) => ({ status: (await refusal(Promise.reject(error))).statusCode }),
      ),
    ),
  )
}

describe('counters and clocks on two replicas without the write lock', () => {
  let database: TestDatabase
  let a: TestSandbox
  let b: TestSandbox
  let receiver: WebhookReceiver
  /** The i-th request's replica: even ones go to A, odd ones to B. */
  const replica = (i: number) => (i % 2 === 0 ? a : b)

  beforeAll(async () => {
    database = await createTestDatabase('paybox_counters')
    a = await startTestSandbox({ db: database.url, dueWorkIntervalMs: 0, limits: { maxTenants: MAX_TENANTS } })
    b = await startTestSandbox({ db: database.url, dueWorkIntervalMs: 0, limits: { maxTenants: MAX_TENANTS } })
    receiver = await startWebhookReceiver(a.merchants[0]!.apiSecret)
  }, 60_000)
  afterAll(async () => {
    await b?.stop()
    await a?.stop()
    await receiver?.close()
    await database?.drop()
  })

  it('numbers 200 invoices created at once through both replicas gaplessly: INV-0001 to INV-0200, each once', async () => {
    const created = await outcomes(
      Array.from({ length: 200 }, (_, i) =>
        replica(i).direct.invoices.create({
          currency: 'USD',
          customer: { email: `buyer-${i}@example.com` },
          line_items: [{ description: `Item ${i}`, quantity: 1, unit_price: 100 + i }],
        }),
      ),
    )
    const refused = created.filter((each) => 'status' in each)
    expect(refused).toEqual([])
    const numbers = created.map((each) => ('ok' in each ? each.ok.invoice_number : ''))
    expect(new Set(numbers).size).toBe(200)
    expect(numberingProblems(numbers)).toEqual([])
    expect((await b.direct.invoices.settings()).next_number).toBe(201)
  }, 60_000)

  it('adds up advances of the sandbox clock made at once through both replicas, and both replicas show the sum', async () => {
    // Frozen where it is: moved a few hours, nothing falls due (a sweep is no part of this count).
    const start = Date.parse((await a.admin.sandbox.freezeClock({})).frozenAt!)
    const before = (await b.admin.sandbox.clock()).advancedSeconds
    const seconds = Array.from({ length: 20 }, (_, i) => 60 * (i + 1))
    const total = seconds.reduce((sum, each) => sum + each, 0)
    const advanced = await outcomes(seconds.map((each, i) => replica(i).admin.sandbox.advanceClock({ seconds: each })))
    expect(advanced.filter((each) => 'status' in each)).toEqual([])
    const expected = { now: iso(start + total * 1000), advancedSeconds: before + total, frozenAt: iso(start + total * 1000) }
    for (const each of [a, b]) {
      // Each replica takes on the stored clock once it hears of the last change.
      await waitFor('the replica at the summed clock', async () => (await each.admin.sandbox.clock()).now === expected.now)
      expect(await each.admin.sandbox.clock()).toEqual(expected)
    }
    await b.admin.sandbox.unfreezeClock()
  })

  it("adds up advances of a merchant's own clock made at once through both replicas", async () => {
    const merchantId = a.merchants[1]!.id
    const start = Date.parse((await a.admin.sandbox.freezeMerchantClock(merchantId, {})).frozenAt!)
    const before = (await b.admin.sandbox.getMerchantClock(merchantId)).advancedSeconds
    const seconds = Array.from({ length: 20 }, (_, i) => 60 * (i + 1))
    const total = seconds.reduce((sum, each) => sum + each, 0)
    const advanced = await outcomes(seconds.map((each, i) => replica(i).admin.sandbox.advanceMerchantClock(merchantId, { seconds: each })))
    expect(advanced.filter((each) => 'status' in each)).toEqual([])
    for (const each of [a, b])
      expect(await each.admin.sandbox.getMerchantClock(merchantId)).toEqual({
        now: iso(start + total * 1000),
        advancedSeconds: before + total,
        frozenAt: iso(start + total * 1000),
      })
  })

  it('allows exactly 10 of 20 resends asked at once through both replicas, and answers the other 10 with 429', async () => {
    // Twenty deliveries, one resend each: the merchant's limit is all they share.
    const payments = await Promise.all(
      Array.from({ length: 2 * RESENDS_PER_MINUTE }, (_, i) =>
        replica(i).direct.payments.create({
          amount: { value: 100 + i, currency: 'USD' },
          description: `Resent ${i}`,
          webhookUrl: receiver.url,
        }),
      ),
    )
    const logged = await Promise.all(
      payments.map((payment) =>
        waitFor('the delivery', async () => {
          const { items } = await a.direct.webhooks.list({ checkout_id: payment.id })
          return items[0]?.status === 'success' ? items[0] : undefined
        }),
      ),
    )
    const resent = await outcomes(logged.map((delivery, i) => replica(i).direct.webhooks.resend(delivery.id)))
    expect(resent.filter((each) => 'status' in each && each.status === 429)).toHaveLength(RESENDS_PER_MINUTE)
    expect(resent.filter((each) => 'status' in each && each.status !== 429)).toEqual([])
  }, 30_000)

  it(`creates exactly ${MAX_TENANTS} of 12 tenants asked at once through both replicas at the limit, and refuses the rest with 409`, async () => {
    const created = await outcomes(Array.from({ length: 12 }, (_, i) => replica(i).admin.sandbox.createTenant({ name: `Fleet ${i}` })))
    expect(created.filter((each) => 'ok' in each)).toHaveLength(MAX_TENANTS)
    expect(created.filter((each) => 'status' in each)).toEqual(Array.from({ length: 12 - MAX_TENANTS }, () => ({ status: 409 })))
    expect((await b.admin.sandbox.listTenants()).data).toHaveLength(MAX_TENANTS)
  }, 30_000)
})
