// Replays across replicas (issue 29, item 1): two --shared sandbox processes on one PostgreSQL
// database share the memory of used signatures, so a signed refund accepted by one is refused by
// the other, whatever its Idempotency-Key, and nothing moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPLAYED_REASON } from '../../sandbox/signatures/replay-guard.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { rawRequest, type RawResponse } from '../../harness/sandbox.js'
import { signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'

describe('a replayed signed request on two --shared replicas over PostgreSQL', () => {
  let database: TestDatabase
  let a: SandboxProcess
  let b: SandboxProcess
  let merchant: Merchant

  beforeAll(async () => {
    database = await createTestDatabase('paybox_replays')
    a = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--shared'])
    b = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--shared'])
    merchant = a.banner.merchants.find((m) => m.settlement_mode === 'direct')!
  })
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await database?.drop()
  })

  it('refuses on the other replica a refund one accepted, with a changed, absent or suffixed key, and moves nothing', async () => {
    const created = await signed(a.banner.baseUrl, merchant, 'POST', '/payments', {
      amount: { value: 10_000, currency: 'USD' },
      description: 'Refundable on two replicas',
    })
    expect(created.status, created.text).toBe(200)
    const { id } = created.json as { id: string }
    expect((await signed(a.banner.baseUrl, merchant, 'POST', `/sandbox/payments/${id}/pay`, {})).status).toBe(200)

    const now = Math.floor(Date.now() / 1000)
    const refund = (via: SandboxProcess, headers: Record<string, string>, timestamp = String(now)): Promise<RawResponse> =>
      rawRequest(via.banner.baseUrl, {
        method: 'POST',
        path: `/payments/${id}/refunds`,
        body: JSON.stringify({ amount: 1000 }),
        headers,
        as: merchant,
        sign: { timestamp },
      })
    const first = await refund(a, { 'Idempotency-Key': 'order-42-refund' })
    expect(first.status, first.text).toBe(200)
    const changedAbsentSuffixed: Array<Record<string, string>> = [
      { 'Idempotency-Key': 'order-43-refund' },
      {},
      { 'Idempotency-Key': 'order-42-refund-2' },
    ]
    for (const headers of changedAbsentSuffixed) {
      for (const via of [b, a]) {
        const replay = await refund(via, headers)
        expect(replay.status, replay.text).toBe(409)
        expect(replay.json).toMatchObject({ statusCode: 409, reason: REPLAYED_REASON })
      }
    }

    // Sent to both at once, another signature is accepted by exactly one of them.
    const racing = await Promise.all([refund(a, { 'Idempotency-Key': 'race-a' }, String(now - 1)), refund(b, {}, String(now - 1))])
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 409])

    const refunds = await signed(b.banner.baseUrl, merchant, 'GET', '/refunds?limit=100')
    const ofPayment = (refunds.json as { items: Array<{ paymentId: string }> }).items.filter((item) => item.paymentId === id)
    expect(ofPayment).toHaveLength(2)
  })
})
