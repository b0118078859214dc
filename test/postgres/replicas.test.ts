// Two sandbox processes (replicas) on one PostgreSQL database serve one sandbox (issue 17): the
// second joins the first's state, a change made through one is seen through the other, business
// time moves for both, each webhook is sent once whichever replica made its event, and when the
// leading replica dies the other takes over the sandbox's timers and sending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import path from 'node:path'
import pg from 'pg'
import { claimLockKeys } from '../../sandbox/db/postgres-write-transactions.js'
import { IN_FLIGHT_REASON } from '../../sandbox/idempotency/idempotency-service.js'
import { isolatedEnv, ROOT, runCli, runCliJson } from '../../harness/cli.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { rawRequest } from '../../harness/sandbox.js'
import { adminRequest, signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { openEventStream } from '../../harness/sse.js'
import { waitFor } from '../../harness/wait.js'
import { startWebhookReceiver, webhookData, type WebhookReceiver } from '../../harness/webhook-receiver.js'

const PAYMENTS = 12

describe('two replicas on one PostgreSQL database', () => {
  let database: TestDatabase
  let a: SandboxProcess
  let b: SandboxProcess
  let merchant: Merchant
  let receiver: WebhookReceiver

  /** Pays `id` in full through `via`, creating it through `from` with the receiver as its webhookUrl. */
  const paidPayment = async (from: SandboxProcess, via: SandboxProcess, i: number) => {
    const created = await signed(from.banner.baseUrl, merchant, 'POST', '/payments', {
      amount: { value: 1000 + i, currency: 'USD' },
      description: `Replica ${i}`,
      webhookUrl: receiver.url,
    })
    expect(created.status, created.text).toBe(200)
    const { id } = created.json as { id: string }
    const paid = await signed(via.banner.baseUrl, merchant, 'POST', `/sandbox/payments/${id}/pay`, {})
    expect(paid.status, paid.text).toBe(200)
    return id
  }

  beforeAll(async () => {
    database = await createTestDatabase('paybox_replicas')
    a = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant'])
    b = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant'])
    merchant = a.banner.merchants.find((m) => m.settlement_mode === 'direct')!
    receiver = await startWebhookReceiver(merchant.apiSecret)
  })
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await receiver?.close()
    await database?.drop()
  })

  it('lets the second replica join the sandbox the first created: same merchants, keys and admin token', () => {
    // And each banner says which it did.
    expect(a.banner.joined).toBe(false)
    expect(b.banner.joined).toBe(true)
    expect(b.banner.merchants).toEqual(a.banner.merchants)
    expect(b.banner.adminToken).toBe(a.banner.adminToken)
    expect(b.banner.baseUrl).not.toBe(a.banner.baseUrl)
  })

  it('reads, lists and pays through one replica a payment created through the other', async () => {
    const created = await signed(a.banner.baseUrl, merchant, 'POST', '/payments', {
      amount: { value: 4200, currency: 'USD' },
      description: 'Made on A',
    })
    const { id } = created.json as { id: string }
    const read = await signed(b.banner.baseUrl, merchant, 'GET', `/payments/${id}`)
    expect(read.status, read.text).toBe(200)
    expect((read.json as { description: string }).description).toBe('Made on A')
    const listed = await signed(b.banner.baseUrl, merchant, 'GET', '/payments?limit=100')
    expect((listed.json as { items: Array<{ id: string }> }).items.map((p) => p.id)).toContain(id)
    expect((await signed(b.banner.baseUrl, merchant, 'POST', `/sandbox/payments/${id}/pay`, {})).status).toBe(200)
    const again = await signed(a.banner.baseUrl, merchant, 'GET', `/payments/${id}`)
    expect((again.json as { status: string }).status).toBe('paid')
  })

  it('answers 409 for a key whose first request is still in flight elsewhere, then replays it', async () => {
    const key = 'held-elsewhere'
    const body = { amount: { value: 777, currency: 'USD' }, description: 'Claimed' }
    // Another process holds the key's claim, as a replica does while its request runs.
    const holder = new pg.Client({ connectionString: database.url })
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query(`select pg_advisory_xact_lock(${claimLockKeys('$1')})`, [`idempotency:${merchant.id}:${key}`])
      const held = await signed(b.banner.baseUrl, merchant, 'POST', '/payments', body, { 'idempotency-key': key })
      expect(held.status, held.text).toBe(409)
      expect(held.json).toMatchObject({ reason: IN_FLIGHT_REASON })
      await holder.query('rollback')
    } finally {
      await holder.end()
    }
    const first = await signed(b.banner.baseUrl, merchant, 'POST', '/payments', body, { 'idempotency-key': key })
    expect(first.status, first.text).toBe(200)
    const replay = await signed(a.banner.baseUrl, merchant, 'POST', '/payments', body, { 'idempotency-key': key })
    expect(replay.text).toBe(first.text)
  })

  it('moves business time for both replicas when one freezes and advances it', async () => {
    const at = '2031-05-06T07:08:09.000Z'
    expect((await adminRequest(a, 'POST', '/sandbox/clock/freeze', { at })).status).toBe(200)
    const seen = await waitFor('replica B to see the frozen time', async () => {
      const clock = (await adminRequest(b, 'GET', '/sandbox/clock')).json as { now: string }
      return clock.now === at ? clock : undefined
    })
    expect(seen.now).toBe(at)
    expect((await adminRequest(b, 'POST', '/sandbox/clock/advance', { seconds: 60 })).status).toBe(200)
    await waitFor(
      'replica A to see the advance',
      async () => ((await adminRequest(a, 'GET', '/sandbox/clock')).json as { now: string }).now === '2031-05-06T07:09:09.000Z',
    )
    expect((await adminRequest(a, 'POST', '/sandbox/clock/unfreeze')).status).toBe(200)
  })

  it('sends each webhook once, whichever replica made its event', async () => {
    const ids: string[] = []
    for (let i = 0; i < PAYMENTS; i++) ids.push(await paidPayment(i % 2 === 0 ? a : b, i % 2 === 0 ? b : a, i))
    const paidEvents = () => receiver.received.map((r) => webhookData(r.raw)).filter((d) => ids.includes(d.id) && d.status === 'paid')
    await waitFor('a paid webhook for every payment', () => paidEvents().length >= PAYMENTS)
    // Once every delivery of these payments is logged, the receiver holds exactly one request per
    // logged delivery: had two replicas sent one, it would hold two.
    const logged = await waitFor('every delivery to be logged', async () => {
      const log = await signed(a.banner.baseUrl, merchant, 'GET', `/merchants/${merchant.id}/webhook-logs?limit=100`)
      const items = (log.json as { items: Array<{ status: string; checkout_id: string }> }).items.filter((item) =>
        ids.includes(item.checkout_id),
      )
      return items.every((item) => item.status !== 'pending') ? items : undefined
    })
    expect(logged.every((item) => item.status === 'success')).toBe(true)
    const received = receiver.received.filter((r) => ids.includes(webhookData(r.raw).id))
    expect(received.length).toBe(logged.length)
    expect(receiver.received.every((r) => r.verified)).toBe(true)
  })

  it('streams every finished delivery on both replicas, the one that does not send included (issue 29, item 6)', async () => {
    const controller = new AbortController()
    try {
      // A started first and leads: it sends. B only hears of what A logged.
      const path = `/merchants/${merchant.id}/webhook-logs/stream`
      const onA = await openEventStream(a.banner.baseUrl, merchant, path, { signal: controller.signal })
      const onB = await openEventStream(b.banner.baseUrl, merchant, path, { signal: controller.signal })
      const ids: string[] = []
      for (let i = 0; i < PAYMENTS; i++) ids.push(await paidPayment(i % 2 === 0 ? a : b, i % 2 === 0 ? b : a, 200 + i))
      const logged = await waitFor('every delivery of these payments to be logged', async () => {
        const log = await signed(a.banner.baseUrl, merchant, 'GET', `/merchants/${merchant.id}/webhook-logs?limit=100`)
        const items = (log.json as { items: Array<{ id: string; status: string; checkout_id: string }> }).items.filter((item) =>
          ids.includes(item.checkout_id),
        )
        return items.length > 0 && items.every((item) => item.status !== 'pending') ? items : undefined
      })
      expect(logged.length).toBeGreaterThanOrEqual(PAYMENTS)
      const streamed = (stream: typeof onA) =>
        new Set(stream.received.filter((e) => e.event === 'delivery').map((e) => (JSON.parse(e.data) as { id: string }).id))
      const expected = logged.map((item) => item.id).sort()
      for (const [name, stream] of [
        ['the leader', onA],
        ['the follower', onB],
      ] as const) {
        await waitFor(`every delivery on the stream of ${name}`, () => expected.every((id) => streamed(stream).has(id)))
        expect([...streamed(stream)].filter((id) => expected.includes(id)).sort()).toEqual(expected)
      }
    } finally {
      controller.abort()
    }
  })

  it("streams through one replica the events made through the other, and its Horizon serves the other's transactions", async () => {
    const controller = new AbortController()
    try {
      const events = await openEventStream(b.banner.baseUrl, merchant, `/merchants/${merchant.id}/events/stream`, {
        signal: controller.signal,
      })
      const id = await paidPayment(a, a, 100)
      await waitFor('the event made on A on the stream of B', () =>
        events.received.some((e) => e.event === 'payment_event' && JSON.parse(e.data).checkout_id === id),
      )
      const payment = (await signed(a.banner.baseUrl, merchant, 'GET', `/payments/${id}`)).json as { stellarTxId?: string }
      expect(payment.stellarTxId).toMatch(/^[0-9a-f]{64}$/)
      const horizon = await rawRequest(b.banner.baseUrl, { method: 'GET', path: `/horizon/transactions/${payment.stellarTxId}` })
      expect(horizon.status, horizon.text).toBe(200)
      expect((horizon.json as { hash: string; successful: boolean }).successful).toBe(true)
    } finally {
      controller.abort()
    }
  })

  it('passes a scenario run against one replica while the other leads and sends its webhooks', async () => {
    const env = isolatedEnv({
      PAYBOX_BASE_URL: b.banner.baseUrl,
      PAYBOX_API_KEY: merchant.apiKey,
      PAYBOX_API_SECRET: merchant.apiSecret,
      PAYBOX_ADMIN_TOKEN: b.banner.adminToken,
    })
    const run = await runCliJson<{ passed: boolean }>(['scenario', 'run', path.join(ROOT, 'scenarios', 'paid.yaml')], env)
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.json.passed).toBe(true)
  })

  it('counts resends of both replicas against one limit of 10 a minute', async () => {
    const log = await signed(a.banner.baseUrl, merchant, 'GET', `/merchants/${merchant.id}/webhook-logs?limit=1`)
    const [delivery] = (log.json as { items: Array<{ id: string }> }).items
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) {
      const via = i % 2 === 0 ? a : b
      const resent = await signed(via.banner.baseUrl, merchant, 'POST', `/merchants/${merchant.id}/webhook-logs/${delivery!.id}/resend`)
      statuses.push(resent.status)
    }
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429, 429])
  })

  it('hands the timers and the sending to the other replica when the leader dies', async () => {
    // A started first and leads; killed without a chance to hand anything over.
    await a.stop('SIGKILL')
    const id = await paidPayment(b, b, PAYMENTS)
    await waitFor(
      'replica B to send the webhook once it leads',
      () => receiver.received.some((r) => webhookData(r.raw).id === id && webhookData(r.raw).status === 'paid'),
      15_000,
    )
  })

  it('refuses to join with another --seed, in one line', async () => {
    const result = await runCli(['sandbox', 'start', '--db', database.url, '--port', '0', '--seed', 'another'], isolatedEnv())
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(/--seed another differs from the seed/)
  })

  it('says which of two replicas starting together on a new database made it, and that the other joined', async () => {
    const fresh = await createTestDatabase('paybox_joining')
    try {
      const started = await Promise.all([
        spawnSandbox(['--port', '0', '--db', fresh.url]),
        spawnSandbox(['--port', '0', '--db', fresh.url]),
      ])
      const joined = started.map((replica) => replica.banner.joined)
      await Promise.all(started.map((replica) => replica.stop()))
      expect(joined.toSorted()).toEqual([false, true])
    } finally {
      await fresh.drop()
    }
  })
})
