// `listen` on two replicas (issue 25): payments created and paid at once through both replicas
// make events whose transactions commit in any order, one of them held open from outside until
// the others are streamed (as a stalled replica's would be); the event stream of each replica, and
// one resumed from a cursor, send every event once, in increasing position.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANGES_CHANNEL } from '../../sandbox/db/postgres-database.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { openEventStream, type EventStream } from '../../harness/sse.js'
import { waitFor } from '../../harness/wait.js'

const PAYMENTS = 24

describe('listen on two PostgreSQL replicas', () => {
  let database: TestDatabase
  let replicas: SandboxProcess[]
  let merchant: Merchant

  beforeAll(async () => {
    database = await createTestDatabase('paybox_listen')
    // Started together (one makes the sandbox, the other joins it), so the hook stays well within its time on a busy machine.
    const args = ['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--quiet']
    replicas = await Promise.all([spawnSandbox(args), spawnSandbox(args)])
    merchant = replicas[0]!.banner.merchants.find((m) => m.settlement_mode === 'direct')!
  })
  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.stop()
    await database?.drop()
  })

  const eventsPath = () => `/merchants/${merchant.id}/events/stream`
  const paymentEvents = (stream: EventStream) =>
    stream.received
      .filter((e) => e.event === 'payment_event')
      .map((e) => JSON.parse(e.data) as { sequence: number; checkout_id: string; event_type: string })

  /** Creates a payment through one replica and pays it through the other. */
  const createAndPay = async (i: number) => {
    const [from, via] = i % 2 === 0 ? replicas : replicas.toReversed()
    const created = await signed(from!.banner.baseUrl, merchant, 'POST', '/payments', {
      amount: { value: 500 + i, currency: 'USD' },
      description: `Listen ${i}`,
    })
    expect(created.status, created.text).toBe(200)
    const { id } = created.json as { id: string }
    const paid = await signed(via!.banner.baseUrl, merchant, 'POST', `/sandbox/payments/${id}/pay`, {})
    expect(paid.status, paid.text).toBe(200)
    return id
  }

  /** The positions of the stored events of `ids`, in order, once every one of them is placed. */
  const storedEvents = (ids: string[]) =>
    waitFor('every event of these payments to be placed', async () => {
      const rows = await queryFromOutside<{ sequence: number | null }>(
        database.url,
        `select sequence from payment_events where subject_id in (${ids.map(() => '?').join(', ')}) order by sequence`,
        ids,
      )
      return rows.every((row) => row.sequence !== null) && rows.map((row) => row.sequence!)
    })
  const streamedOf = (stream: EventStream, ids: string[]) =>
    paymentEvents(stream)
      .filter((event) => ids.includes(event.checkout_id))
      .map((event) => event.sequence)

  it('streams every event of concurrent payment changes once, in increasing position, on both replicas and on resuming', async () => {
    const controller = new AbortController()
    try {
      const streams = await Promise.all(
        replicas.map((replica) => openEventStream(replica.banner.baseUrl, merchant, eventsPath(), { signal: controller.signal })),
      )
      const ready = await waitFor('the first stream to be ready', () => streams[0]!.received.find((e) => e.event === 'ready'))
      const slowId = await createAndPay(PAYMENTS)
      // A transaction that writes an event and stalls, as a paused replica's would, until the
      // events of everything after it are on the streams.
      const stalled = new pg.Client({ connectionString: database.url })
      await stalled.connect()
      let fast: string[]
      try {
        await stalled.query('begin')
        await stalled.query(
          `insert into payment_events (merchant_id, subject_type, subject_id, event_type, payload, created_at)
            values ($1, 'payment', $2, 'transaction_updated', '{}', 0)`,
          [merchant.id, slowId],
        )
        await stalled.query('select pg_notify($1, $2)', [CHANGES_CHANNEL, 'stalled replica'])
        fast = await Promise.all(Array.from({ length: PAYMENTS }, (_, i) => createAndPay(i)))
        const meanwhile = await storedEvents(fast)
        for (const stream of streams)
          await waitFor('the events made meanwhile on both streams', () => streamedOf(stream, fast).length >= meanwhile.length)
        await stalled.query('commit')
      } finally {
        await stalled.end()
      }
      const ids = [slowId, ...fast]
      const expected = await storedEvents(ids)
      const resumed = await openEventStream(replicas[1]!.banner.baseUrl, merchant, `${eventsPath()}?after=${ready.id}`, {
        signal: controller.signal,
      })
      for (const [name, stream] of [
        ['replica A', streams[0]!],
        ['replica B', streams[1]!],
        ['a stream resumed on B', resumed],
      ] as const) {
        await waitFor(`every event on ${name}`, () => streamedOf(stream, ids).length >= expected.length)
        // Exactly these, each once, in the order of their positions (the stream's ids are cursors).
        expect(streamedOf(stream, ids), name).toEqual(expected)
        const all = paymentEvents(stream).map((event) => event.sequence)
        expect(all, name).toEqual(all.toSorted((x, y) => x - y))
      }
    } finally {
      controller.abort()
    }
  })
})
