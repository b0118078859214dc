// Replays of a captured signed request (issue 29, item 1). The signature covers path, timestamp,
// method and body but not the Idempotency-Key, so a copy with another key (or none) is a new
// request to the key gate. A shared sandbox accepts each signature once on every request other
// than GET; a local one keeps the real service's behaviour, where the key is the only protection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { PayboxApiError } from '../../src/client/errors.js'
import type { Payment } from '../../src/client/types.js'
import { ManualClock } from '../../sandbox/clock.js'
import { REPLICA_CLOCK_MARGIN_MS, PRUNE_INTERVAL_MS, REPLAYED_REASON } from '../../sandbox/signatures/replay-guard.js'
import { DIGEST_TOLERANCE_SECONDS } from '../../src/signing.js'
import { rawRequest, startTestSandbox, type RawResponse, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

const REFUND = JSON.stringify({ amount: 1000 })
/** How issue 29 replayed the refund it captured, sent with `Idempotency-Key: order-42-refund`. */
const CHANGED_ABSENT_SUFFIXED: Array<Record<string, string>> = [
  { 'Idempotency-Key': 'order-43-refund' },
  {},
  { 'Idempotency-Key': 'order-42-refund-2' },
]

/**
 * A paid payment of the direct merchant, worth 100 USD, to refund from. Each has its own
 * description: two identical requests signed in the same second share their signature.
 */
async function paidPayment(sandbox: TestSandbox, description: string): Promise<Payment> {
  const payment = await sandbox.direct.payments.create({ amount: { value: 10_000, currency: 'USD' }, description })
  return sandbox.direct.request<Payment>('POST', `/sandbox/payments/${payment.id}/pay`, { body: {} })
}

/** One captured request: the same bytes and signature (its timestamp fixed) each time, with the headers given. */
function capture(sandbox: TestSandbox, method: string, path: string, body: string | undefined, timestamp: number) {
  return (headers: Record<string, string> = {}): Promise<RawResponse> =>
    rawRequest(sandbox.url, { method, path, body, headers, as: sandbox.merchants[0]!, sign: { timestamp: String(timestamp) } })
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

async function refundsOf(sandbox: TestSandbox, paymentId: string): Promise<number> {
  const page = await sandbox.direct.request<{ items: Array<{ paymentId: string }> }>('GET', '/refunds', { query: { limit: 100 } })
  return page.items.filter((refund) => refund.paymentId === paymentId).length
}

const usdcOf = async (sandbox: TestSandbox, account: string) => (await sandbox.context.ledger.balances(sandbox.context.db, account))!.usdc

describe('a replayed signed request on a shared sandbox', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox({ shared: true })
  })
  afterAll(() => sandbox?.stop())

  it('refuses a refund replayed with a changed, absent or suffixed Idempotency-Key with 409, and moves nothing', async () => {
    const payment = await paidPayment(sandbox, 'Refundable 1')
    const customer = payment.sender_account!
    const refund = capture(sandbox, 'POST', `/payments/${payment.id}/refunds`, REFUND, nowSeconds())
    const first = await refund({ 'Idempotency-Key': 'order-42-refund' })
    expect(first.status, first.text).toBe(200)
    const after = await usdcOf(sandbox, customer)

    for (const headers of CHANGED_ABSENT_SUFFIXED) {
      const replay = await refund(headers)
      expect(replay.status, replay.text).toBe(409)
      expect(replay.json).toEqual({
        statusCode: 409,
        reason: REPLAYED_REASON,
        message: expect.stringContaining('x-digest-signature was already accepted'),
        requestId: expect.stringMatching(/^req_/),
      })
    }
    // The same bytes with the same key too: a copy of the signature is refused before the key gate.
    expect((await refund({ 'Idempotency-Key': 'order-42-refund' })).status).toBe(409)
    expect(await refundsOf(sandbox, payment.id)).toBe(1)
    expect(await usdcOf(sandbox, customer)).toBe(after)
  })

  it('answers a retry signed again with the same key with the first answer, and moves nothing', async () => {
    const payment = await paidPayment(sandbox, 'Refundable 2')
    const path = `/payments/${payment.id}/refunds`
    const headers = { 'Idempotency-Key': 'resigned-refund' }
    const first = await capture(sandbox, 'POST', path, REFUND, nowSeconds() - 2)(headers)
    const retry = await capture(sandbox, 'POST', path, REFUND, nowSeconds() - 1)(headers)
    expect(retry.status, retry.text).toBe(200)
    expect(retry.text).toBe(first.text)
    expect(await refundsOf(sandbox, payment.id)).toBe(1)
  })

  it('refuses a replayed POST /payments (the fast route) and pay, and accepts a replayed GET', async () => {
    const before = (await sandbox.direct.payments.list()).meta.totalItems
    const create = capture(
      sandbox,
      'POST',
      '/payments',
      JSON.stringify({ amount: { value: 500, currency: 'USD' }, description: 'Once' }),
      nowSeconds(),
    )
    const created = await create()
    expect(created.status, created.text).toBe(200)
    expect((await create({ 'Idempotency-Key': 'late-key' })).json).toMatchObject({ statusCode: 409, reason: REPLAYED_REASON })
    expect((await sandbox.direct.payments.list()).meta.totalItems).toBe(before + 1)

    const { id } = created.json as { id: string }
    const pay = capture(sandbox, 'POST', `/sandbox/payments/${id}/pay`, '{}', nowSeconds())
    expect((await pay()).status).toBe(200)
    expect((await pay()).status).toBe(409)

    const read = capture(sandbox, 'GET', `/payments/${id}`, undefined, nowSeconds())
    expect((await read()).status).toBe(200)
    expect((await read()).status).toBe(200)
  })

  it("gets the sandbox's own answer to the same request sent twice in one second by PayboxClient, which never reuses a signature", async () => {
    const payment = await paidPayment(sandbox, 'Refundable 3')
    const [merchant] = sandbox.merchants
    // Its clock stands still: both refunds are signed in the same second.
    const second = nowSeconds()
    const client = new PayboxClient({ baseUrl: sandbox.url, apiKey: merchant!.apiKey, apiSecret: merchant!.apiSecret, now: () => second })
    await client.payments.refund(payment.id, {})
    const again = await client.payments.refund(payment.id, {}).catch((error: unknown) => error)
    expect(again).toBeInstanceOf(PayboxApiError)
    // Refunded in full is the sandbox's answer; a replayed signature would be REPLAYED_REASON.
    expect(again).toMatchObject({ statusCode: 409, message: expect.stringMatching(/refunded in full/) })
    expect((again as PayboxApiError).reason).not.toBe(REPLAYED_REASON)
  })

  it('signs identical requests at most 10 s ahead, then as they come, so none leaves the 300 s window', async () => {
    const payment = await paidPayment(sandbox, 'Read often')
    const [merchant] = sandbox.merchants
    const second = nowSeconds()
    const timestamps: number[] = []
    const recording: typeof fetch = (url, init) => {
      timestamps.push(Number((init?.headers as Record<string, string>)['x-digest-timestamp']))
      return fetch(url, init)
    }
    const client = new PayboxClient({
      baseUrl: sandbox.url,
      apiKey: merchant!.apiKey,
      apiSecret: merchant!.apiSecret,
      now: () => second,
      fetch: recording,
    })
    for (let i = 0; i < 13; i++) await client.payments.get(payment.id)
    expect(timestamps.map((at) => at - second)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0])
  })
})

describe('the memory of used signatures', () => {
  it('forgets each signature once its window is over', async () => {
    const clock = new ManualClock(Date.now())
    const sandbox = await startTestSandbox({ shared: true, wallClock: clock })
    try {
      const seen = async () =>
        Number(
          (
            await sandbox.context.db
              .selectFrom('seen_signatures')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        )
      const post = (description: string) =>
        rawRequest(sandbox.url, {
          method: 'POST',
          path: '/payments',
          body: JSON.stringify({ amount: { value: 500, currency: 'USD' }, description }),
          as: sandbox.merchants[0]!,
          sign: { timestamp: String(Math.floor(clock.now() / 1000)) },
        })
      expect((await post('First')).status).toBe(200)
      expect((await post('Second')).status).toBe(200)
      expect(await seen()).toBe(2)
      // Past the window, the margin for replicas' clocks and the pruning interval, the next request deletes them.
      clock.advance(DIGEST_TOLERANCE_SECONDS * 1000 + REPLICA_CLOCK_MARGIN_MS + PRUNE_INTERVAL_MS + 1000)
      expect((await post('Third')).status).toBe(200)
      await waitFor('the expired signatures to be deleted', async () => (await seen()) === 1)
    } finally {
      await sandbox.stop()
    }
  })
})

describe('replays and the API key rate limit', () => {
  it('spends nothing of the key budget on a refused replay', async () => {
    const sandbox = await startTestSandbox({ shared: true, limits: { apiKeyRate: { burst: 2, perSecond: 0.001 } } })
    try {
      const create = (description: string) =>
        capture(sandbox, 'POST', '/payments', JSON.stringify({ amount: { value: 500, currency: 'USD' }, description }), nowSeconds())
      const first = create('Budget 1')
      expect((await first()).status).toBe(200)
      for (let i = 0; i < 5; i++) expect((await first()).status).toBe(409)
      expect((await create('Budget 2')()).status).toBe(200)
      expect((await create('Budget 3')()).status).toBe(429)
    } finally {
      await sandbox.stop()
    }
  })
})

describe('a replayed signed request on a local sandbox (the real service behaviour)', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(() => sandbox?.stop())

  it('runs a refund replayed with another key again, and answers one replayed with the same key with the first answer', async () => {
    const payment = await paidPayment(sandbox, 'Refundable 3')
    const customer = payment.sender_account!
    const before = await usdcOf(sandbox, customer)
    const refund = capture(sandbox, 'POST', `/payments/${payment.id}/refunds`, REFUND, nowSeconds())
    const first = await refund({ 'Idempotency-Key': 'order-42-refund' })
    expect(first.status, first.text).toBe(200)
    const same = await refund({ 'Idempotency-Key': 'order-42-refund' })
    expect(same.text).toBe(first.text)
    for (const headers of CHANGED_ABSENT_SUFFIXED) {
      expect((await refund(headers)).status).toBe(200)
    }
    expect(await refundsOf(sandbox, payment.id)).toBe(4)
    // 4 refunds of 10 USDC, in stroops.
    expect(await usdcOf(sandbox, customer)).toBe(before + 400_000_000n)
  })
})
