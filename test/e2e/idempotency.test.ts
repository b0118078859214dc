import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IN_FLIGHT_REASON, REUSED_REASON } from '../../sandbox/idempotency/idempotency-service.js'
import { rawRequest, startTestSandbox, temporaryDir, type RawResponse, type TestSandbox } from '../../harness/sandbox.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'

const body = (description: string) => JSON.stringify({ amount: { value: 2500, currency: 'USD' }, description })

describe('Idempotency-Key on POST /payments', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(() => sandbox.stop())

  const post = (key: string, text: string, merchant = sandbox.merchants[0]!) =>
    rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: text, headers: { 'Idempotency-Key': key }, as: merchant })
  const count = async (merchant = sandbox.direct) => (await merchant.payments.list()).meta.totalItems

  it('replays the original response byte for byte and creates nothing more', async () => {
    const before = await count()
    const first = await post('replay-1', body('Replay'))
    const second = await post('replay-1', body('Replay'))
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(second.text).toBe(first.text)
    expect(await count()).toBe(before + 1)
  })

  it('treats the same JSON with other key order and spacing as the same request', async () => {
    const first = await post('replay-2', '{"amount":{"value":2500,"currency":"USD"},"description":"Same"}')
    const second = await post('replay-2', '{ "description": "Same", "amount": { "currency": "USD", "value": 2500 } }')
    expect(second.text).toBe(first.text)
  })

  it('answers 422 when the key is reused for a different body, changing nothing', async () => {
    await post('reuse-1', body('First'))
    const before = await count()
    const reused = await post('reuse-1', body('Second'))
    expect(reused.status).toBe(422)
    expect(reused.json).toMatchObject({ statusCode: 422, reason: REUSED_REASON })
    expect(await count()).toBe(before)
  })

  it('answers 422 for a reused key even when the other body would be refused itself, and replays the first body', async () => {
    const first = await post('reuse-refused', body('Stored'))
    expect(first.status, first.text).toBe(200)
    // Escrow terms for a merchant that settles direct: valid JSON that the payment service refuses (400) under a new key.
    const unpriced = JSON.stringify({
      amount: { value: 2500, currency: 'USD' },
      description: 'Escrow terms',
      escrowExpiresAt: '2030-01-01T00:00:00Z',
    })
    expect((await post('reuse-refused-fresh', unpriced)).status).toBe(400)
    const reused = await post('reuse-refused', unpriced)
    expect(reused.status, reused.text).toBe(422)
    expect(reused.json).toMatchObject({ reason: REUSED_REASON })
    expect((await post('reuse-refused', body('Stored'))).text).toBe(first.text)
  })

  it('keeps keys per merchant', async () => {
    const direct = await post('shared-key', body('Direct'))
    const escrow = await post('shared-key', body('Direct'), sandbox.merchants[1])
    expect(escrow.status).toBe(200)
    expect((escrow.json as { id: string }).id).not.toBe((direct.json as { id: string }).id)
  })

  it('refuses keys longer than 255 characters and accepts 255', async () => {
    const tooLong = await post('k'.repeat(256), body('Long key'))
    expect(tooLong.status).toBe(400)
    expect(tooLong.json).toMatchObject({ statusCode: 400, reason: 'Bad Request' })
    expect((tooLong.json as { message: string }).message).toContain('Idempotency-Key')
    expect((await post('k'.repeat(255), body('Long key'))).status).toBe(200)
  })

  it('does not store a failed validation against the key', async () => {
    const invalid = await post('fix-and-retry', JSON.stringify({ amount: { value: -1, currency: 'USD' }, description: 'x' }))
    expect(invalid.status).toBe(400)
    expect((await post('fix-and-retry', body('Fixed'))).status).toBe(200)
  })

  it('creates exactly one payment from 50 parallel requests with one key', async () => {
    const before = await count()
    const responses = await Promise.all(Array.from({ length: 50 }, () => post('parallel-1', body('Parallel'))))
    expectOneOriginal(responses)
    expect(await count()).toBe(before + 1)
  })
})

describe('Idempotency-Key on every money-moving POST', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox({ dueWorkIntervalMs: 0 })
  })
  afterAll(() => sandbox.stop())

  const direct = () => sandbox.merchants[0]!
  const escrow = () => sandbox.merchants[1]!
  const send = (path: string, key: string, body: unknown = {}, merchant = direct()) =>
    rawRequest(sandbox.url, { method: 'POST', path, body: JSON.stringify(body), headers: { 'Idempotency-Key': key }, as: merchant })
  /** A payment of the merchant, paid in full (or by `amount` smallest units). */
  const paidPayment = async (merchant = direct(), amount?: number) => {
    const created = await rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: body('Money-moving'), as: merchant })
    const id = (created.json as { id: string }).id
    const paid = await rawRequest(sandbox.url, {
      method: 'POST',
      path: `/sandbox/payments/${id}/pay`,
      body: JSON.stringify(amount === undefined ? {} : { amount }),
      as: merchant,
    })
    expect(paid.status).toBe(200)
    return id
  }
  /** Sends the same request three times: each answer must be the first, byte for byte. */
  const thrice = async (path: string, key: string, payload: unknown = {}, merchant = direct()) => {
    const answers = [
      await send(path, key, payload, merchant),
      await send(path, key, payload, merchant),
      await send(path, key, payload, merchant),
    ]
    expect(answers[0]!.status, answers[0]!.text).toBe(200)
    for (const answer of answers) expect(answer.text).toBe(answers[0]!.text)
    return answers[0]!.json as Record<string, unknown>
  }

  it('makes one refund from three refunds sent with one key', async () => {
    const id = await paidPayment()
    await thrice(`/payments/${id}/refunds`, 'refund-once', { amount: 100 })
    const refunds = (await sandbox.direct.refunds.list()).items.filter((refund) => refund.paymentId === id)
    expect(refunds).toHaveLength(1)
    expect(refunds[0]!.amount.value).toBe(1)
  })

  it('makes one refund from 20 parallel refunds with one key', async () => {
    const id = await paidPayment()
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => send(`/payments/${id}/refunds`, 'refund-parallel', { amount: 100 })),
    )
    expectOneOriginal(responses)
    expect((await sandbox.direct.refunds.list()).items.filter((refund) => refund.paymentId === id)).toHaveLength(1)
  })

  it('answers 422 for a refund key reused with another amount, or on another endpoint, moving nothing', async () => {
    const id = await paidPayment()
    await send(`/payments/${id}/refunds`, 'refund-reuse', { amount: 100 })
    const otherAmount = await send(`/payments/${id}/refunds`, 'refund-reuse', { amount: 200 })
    expect(otherAmount.json).toMatchObject({ statusCode: 422, reason: REUSED_REASON })
    const otherEndpoint = await send(`/sandbox/payments/${id}/pay`, 'refund-reuse', {})
    expect(otherEndpoint.json).toMatchObject({ statusCode: 422, reason: REUSED_REASON })
    expect((await sandbox.direct.refunds.list()).items.filter((refund) => refund.paymentId === id)).toHaveLength(1)
  })

  it('pays once for three simulated pays with one key', async () => {
    const created = await rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: body('Pay once'), as: direct() })
    const id = (created.json as { id: string }).id
    const paid = await thrice(`/sandbox/payments/${id}/pay`, 'pay-once', { amount: 1000 })
    expect(paid).toMatchObject({ status: 'underpaid', amount_paid: 1000 })
    expect(await sandbox.direct.payments.get(id)).toMatchObject({ status: 'underpaid', amount_paid: 1000 })
  })

  it('replays accept-underpayment instead of refusing the second one', async () => {
    const id = await paidPayment(direct(), 1000)
    expect(await thrice(`/payments/${id}/accept-underpayment`, 'accept-once')).toMatchObject({ id, status: 'paid' })
  })

  it('releases an escrow order once for three releases with one key', async () => {
    const id = await paidPayment(escrow())
    const released = await thrice(`/sandbox/payments/${id}/escrow/release`, 'release-once', {}, escrow())
    expect(released).toMatchObject({ id, settlement_status: 'paid' })
    const transactions = (await sandbox.escrow.escrow.status(id)).transactions
    expect(transactions.filter((tx) => tx.operations.some((op) => op.from === sandbox.identity.escrowCustody))).toHaveLength(1)
  })

  it('delivers a cross-chain deposit once for three deposits with one key', async () => {
    const created = await rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: body('Deposit once'), as: direct() })
    const id = (created.json as { id: string }).id
    const quote = await rawRequest(sandbox.url, {
      method: 'POST',
      path: `/payments/${id}/cross-chain/quote`,
      body: JSON.stringify({ originChain: 'base', originToken: 'USDC', refundAddress: '0x52908400098527886E0F7030069857D2E4169EE7' }),
    })
    const quoteId = (quote.json as { quoteId: string }).quoteId
    const deposited = await thrice(`/sandbox/cross-chain/quotes/${quoteId}/deposit`, 'deposit-once')
    expect(deposited).toMatchObject({ quote: { status: 'SUCCESS' }, payment: { id, status: 'paid' } })
  })
})

/** Every answer is the original 200, byte for byte, or a 409 for a request still in flight. */
function expectOneOriginal(responses: RawResponse[]): void {
  const successes = responses.filter((r) => r.status === 200)
  expect(successes.length).toBeGreaterThan(0)
  for (const response of successes) expect(response.text).toBe(successes[0]!.text)
  for (const response of responses.filter((r) => r.status !== 200)) {
    expect(response.status).toBe(409)
    expect(response.json).toMatchObject({ statusCode: 409, reason: IN_FLIGHT_REASON })
  }
}

describe('Idempotency-Key across two sandbox processes on one database file', () => {
  let processes: SandboxProcess[] = []
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()))
  })

  it('still creates exactly one payment per key', async () => {
    const db = path.join(temporaryDir(), 'shared.db')
    const first = await spawnSandbox(['--port', '0', '--db', db])
    const second = await spawnSandbox(['--port', '0', '--db', db])
    processes = [first, second]
    const merchant = first.banner.merchants[0]!
    expect(second.banner.merchants[0]).toEqual(merchant)

    for (const key of ['two-processes-1', 'two-processes-2', 'two-processes-3']) {
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          rawRequest((i % 2 === 0 ? first : second).banner.baseUrl, {
            method: 'POST',
            path: '/payments',
            body: body('Shared file'),
            headers: { 'Idempotency-Key': key },
            as: merchant,
          }),
        ),
      )
      expectOneOriginal(responses)
    }
    const list = await rawRequest(first.banner.baseUrl, { method: 'GET', path: '/payments', as: merchant })
    expect((list.json as { meta: { totalItems: number } }).meta.totalItems).toBe(3)
  })
})
