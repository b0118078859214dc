// Every replica sends webhooks (issue 25): two replicas on one PostgreSQL database, events made
// through both. Each delivery reaches the receiver once, named by its id header, each payment's in
// order, and both replicas send; one merchant's deliveries on the wire stay within its cap, counted
// over both replicas; a replica killed mid-send leaves its delivery to the other, which
// claims it again once the lease has run out (at least once: the receiver drops the repeat by id).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBHOOK_DELIVERY_ID_HEADER } from '../../src/api/headers.js'
import { WEBHOOK_TIMEOUT_MS } from '../../sandbox/webhooks/webhook-sender.js'
import { CLAIM_LEASE_MARGIN_MS } from '../../sandbox/webhooks/webhook-dispatcher.js'
import { MAX_DELIVERIES_PER_MERCHANT } from '../../sandbox/webhooks/delivery-queue.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { openEventStream } from '../../harness/sse.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'
import { startWebhookReceiver, webhookData, type ReceivedWebhook, type WebhookReceiver } from '../../harness/webhook-receiver.js'

const PAYMENTS = 40
const AT_ONCE = 10
/** Rounds of one merchant's deliveries to one receiver, each more than its share, made through each replica in turn. */
const CAPPED_ROUNDS = 4
/** Payments whose deliveries both replicas' log streams must show. */
const STREAMED = 10

interface LoggedDelivery {
  id: string
  subject_id: string
  sequence: number
  status: string
  claimed_by: string | null
}

describe('webhooks sent by every replica', () => {
  let database: TestDatabase
  let replicas: SandboxProcess[]
  let merchant: Merchant
  let receiver: WebhookReceiver

  beforeAll(async () => {
    database = await createTestDatabase('paybox_webhook_replicas')
    replicas = [
      await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant']),
      await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant']),
    ]
    merchant = replicas[0]!.banner.merchants.find((m) => m.settlement_mode === 'direct')!
    receiver = await startWebhookReceiver(merchant.apiSecret)
  })
  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.stop()
    await receiver?.close()
    await database?.drop()
  })

  const deliveryId = (request: ReceivedWebhook) => request.headers[WEBHOOK_DELIVERY_ID_HEADER] as string
  /** The deliveries of these payments, each with the replica that holds its claim (webhook_live_claims) or, once logged, that sent it. */
  const deliveriesOf = (ids: readonly string[]) =>
    queryFromOutside<LoggedDelivery>(
      database.url,
      `select d.id, d.subject_id, d.sequence, d.status, coalesce(w.claimed_by, d.claimed_by) as claimed_by
        from webhook_deliveries d left join webhook_live_claims w on w.delivery_id = d.id where d.subject_id = any(?) order by d.sequence`,
      [ids],
    )
  /** Which replica a delivery's claimed_by names (host:pid). */
  const replicaOf = (claimedBy: string | null) => replicas.findIndex((replica) => claimedBy?.endsWith(`:${replica.process.child.pid}`))

  const createPayment = async (via: SandboxProcess, i: number, webhookUrl = receiver.url) => {
    const created = await signed(via.banner.baseUrl, merchant, 'POST', '/payments', {
      amount: { value: 1000 + i, currency: 'USD' },
      description: `Webhook load ${i}`,
      webhookUrl,
    })
    expect(created.status, created.text).toBe(200)
    return (created.json as { id: string }).id
  }

  it('delivers each event once, each payment in order, with the load shared by both replicas', async () => {
    const ids: string[] = []
    for (let at = 0; at < PAYMENTS; at += AT_ONCE) {
      const batch = Array.from({ length: AT_ONCE }, (_, k) => createPayment(replicas[(at + k) % 2]!, at + k))
      ids.push(...(await Promise.all(batch)))
    }
    // Paid one at a time (the simulated customer's ledger account takes one payment at a time),
    // through the other replica, while the creations' deliveries are still going out.
    for (const [i, id] of ids.entries()) {
      const paid = await signed(replicas[(i + 1) % 2]!.banner.baseUrl, merchant, 'POST', `/sandbox/payments/${id}/pay`, {})
      expect(paid.status, paid.text).toBe(200)
    }
    const ours = () => receiver.received.filter((request) => ids.includes(webhookData(request.raw).id))
    const logged = await waitFor(
      'every delivery of these payments logged and received',
      async () => {
        const rows = await deliveriesOf(ids)
        return rows.length > 0 && rows.every((row) => row.status !== 'pending') && ours().length >= rows.length ? rows : undefined
      },
      30_000,
    )
    expect(logged.every((row) => row.status === 'success')).toBe(true)
    const received = ours()
    // Once each: as many requests as log entries, no id twice, and the same ids.
    expect(received.length).toBe(logged.length)
    expect(new Set(received.map(deliveryId)).size).toBe(received.length)
    expect(received.map(deliveryId).toSorted()).toEqual(logged.map((row) => row.id).toSorted())
    // Each payment's deliveries arrived in the order of its log (its events' order).
    for (const id of ids) {
      const arrived = received.filter((request) => webhookData(request.raw).id === id).map(deliveryId)
      expect(arrived).toEqual(logged.filter((row) => row.subject_id === id).map((row) => row.id))
    }
    // Both replicas sent.
    const sentBy = [0, 1].map((replica) => logged.filter((row) => replicaOf(row.claimed_by) === replica).length)
    expect(sentBy[0]! + sentBy[1]!).toBe(logged.length)
    expect(sentBy[0], `sent by each replica: ${sentBy.join(', ')}`).toBeGreaterThan(0)
    expect(sentBy[1], `sent by each replica: ${sentBy.join(', ')}`).toBeGreaterThan(0)
  }, 60_000)

  it("holds a merchant's cap over both replicas' deliveries on the wire, at a receiver that answers only when told", async () => {
    const slow = await startWebhookReceiver(merchant.apiSecret)
    let answered = 0
    let most = 0
    slow.answer = () => {
      most = Math.max(most, slow.received.length - answered)
      return 'hang'
    }
    try {
      const ids: string[] = []
      let logged: Awaited<ReturnType<typeof deliveriesOf>> = []
      // Rounds of payments made through one replica each, in turn: a replica's own commit wakes its
      // dispatcher at once and the other's only on hearing it, so each replica fills the share in
      // its rounds (a replica that kept every share would leave the sandbox-wide count untested).
      for (let round = 0; round < CAPPED_ROUNDS; round++) {
        const batch = Array.from({ length: MAX_DELIVERIES_PER_MERCHANT + 5 }, (_, k) =>
          createPayment(replicas[round % 2]!, 1000 + round * 100 + k, slow.url),
        )
        ids.push(...(await Promise.all(batch)))
        const total = (await deliveriesOf(ids)).length
        // Each turn: a full share on the wire (or the last deliveries), then all of them answered at once.
        while (answered < total) {
          await waitFor(
            'a full share on the wire, or the last deliveries',
            () => slow.received.length - answered >= MAX_DELIVERIES_PER_MERCHANT || slow.received.length === total,
            20_000,
          )
          answered = slow.received.length
          slow.releaseHanging()
        }
        // Logged before the next round, so no claim made while logging takes the next round's first share.
        logged = await waitFor('every delivery logged', async () => {
          const rows = await deliveriesOf(ids)
          return rows.every((row) => row.status === 'success') ? rows : undefined
        })
      }
      expect(most).toBe(MAX_DELIVERIES_PER_MERCHANT)
      expect(slow.received.length).toBe(logged.length)
      const sentBy = [0, 1].map((replica) => logged.filter((row) => replicaOf(row.claimed_by) === replica).length)
      expect(
        sentBy.every((count) => count > 0),
        `sent by each replica: ${sentBy.join(', ')}`,
      ).toBe(true)
    } finally {
      await slow.close()
    }
  }, 60_000)

  it('streams every delivery on every replica, whichever sent it', async () => {
    const controller = new AbortController()
    try {
      // The log's live stream on each replica: the sender's hears its own deliveries first hand,
      // the other through the announcement sent once their log has committed.
      const streams = await Promise.all(
        replicas.map((replica) =>
          openEventStream(replica.banner.baseUrl, merchant, `/merchants/${merchant.id}/webhook-logs/stream`, { signal: controller.signal }),
        ),
      )
      const ids = await Promise.all(Array.from({ length: STREAMED }, (_, i) => createPayment(replicas[i % 2]!, 500 + i)))
      const logged = await waitFor('the deliveries to be logged', async () => {
        const rows = await deliveriesOf(ids)
        return rows.length >= STREAMED && rows.every((row) => row.status !== 'pending') ? rows : undefined
      })
      const streamed = (stream: (typeof streams)[number]) => new Set(stream.received.filter((e) => e.event === 'delivery').map((e) => e.id))
      await waitFor('both streams to have every delivery', () =>
        streams.every((stream) => logged.every((row) => streamed(stream).has(row.id))),
      )
      for (const stream of streams)
        expect([...streamed(stream)].filter((id) => logged.some((row) => row.id === id)).sort()).toEqual(logged.map((row) => row.id).sort())
    } finally {
      controller.abort()
    }
  })

  it('sends again, with the same id, a delivery whose replica was killed mid-send, once its lease has run out', async () => {
    receiver.answer = () => 'hang'
    const id = await createPayment(replicas[0]!, PAYMENTS)
    const [delivery] = await waitFor('the first delivery on the wire', async () => {
      const rows = await deliveriesOf([id])
      return rows[0]?.claimed_by && receiver.received.some((r) => webhookData(r.raw).id === id) ? rows : undefined
    })
    const sender = replicaOf(delivery!.claimed_by)
    expect(sender).toBeGreaterThanOrEqual(0)
    await replicas[sender]!.stop('SIGKILL')
    receiver.answer = () => ({ status: 200, body: 'ok' })
    const [resent] = await waitFor(
      'the other replica to claim it again and log it',
      async () => {
        const rows = await deliveriesOf([id])
        return rows[0]?.status === 'success' ? rows : undefined
      },
      WEBHOOK_TIMEOUT_MS + CLAIM_LEASE_MARGIN_MS + 15_000,
    )
    expect(resent!.id).toBe(delivery!.id)
    expect(replicaOf(resent!.claimed_by)).toBe(1 - sender)
    const arrivals = receiver.received.filter((r) => webhookData(r.raw).id === id).map(deliveryId)
    expect(arrivals).toEqual([delivery!.id, delivery!.id])
  }, 60_000)
})
