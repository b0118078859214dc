// What a replica's dispatcher keeps up as it sends (webhook-dispatcher.ts): it vacuums the live
// claims' table every VACUUM_LIVE_CLAIMS_EVERY deliveries it finishes (each inserts a row there and
// deletes it, and autovacuum comes too seldom), and it analyzes an outbox a burst has outdated at
// most once a poll, even while every one of its slots is taken (it then claims only in its log
// transactions, on those statistics).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_CONCURRENT_DELIVERIES, MAX_DELIVERIES_PER_MERCHANT } from '../../sandbox/webhooks/delivery-queue.js'
import { VACUUM_LIVE_CLAIMS_EVERY } from '../../sandbox/webhooks/webhook-dispatcher.js'
import { WEBHOOK_TIMEOUT_MS } from '../../sandbox/webhooks/webhook-sender.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { copyMerchant, createTestDatabase, maintenanceCount, type TestDatabase } from '../../harness/postgres.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/webhook-receiver.js'

describe("a replica's upkeep of the outbox on PostgreSQL", () => {
  let database: TestDatabase
  let replica: SandboxProcess
  const receivers: WebhookReceiver[] = []
  let merchants: string[]
  let batches = 0

  /** Shares enough to take every slot: a merchant and a receiver (an origin) each, at their caps. */
  const SHARES = Math.ceil(MAX_CONCURRENT_DELIVERIES / MAX_DELIVERIES_PER_MERCHANT)

  beforeAll(async () => {
    database = await createTestDatabase('paybox_outbox_upkeep')
    replica = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant'])
    const template = replica.banner.merchants[0]!
    merchants = await copyMerchant(database.url, template.id, SHARES - 1)
    for (let i = 0; i < SHARES; i++) receivers.push(await startWebhookReceiver(template.apiSecret))
  })

  afterAll(async () => {
    await replica?.stop()
    for (const receiver of receivers) await receiver.close()
    await database?.drop()
  })

  /** Queues `count` pending deliveries behind the sandbox's back (as another replica's commits would be), the i-th to merchant and receiver i % `spread`. */
  const queue = (count: number, spread = 1) =>
    queryFromOutside(
      database.url,
      `insert into webhook_deliveries (id, merchant_id, subject_type, subject_id, event_type, url, status, request_payload, attempt_count, created_at, updated_at)
        select gen_random_uuid()::text, (?::text[])[1 + i % ?], 'payment', ? || i, 'transaction_updated', (?::text[])[1 + i % ?], 'pending', '{}', 1, 0, 0
        from generate_series(1, ?::int) i`,
      [merchants, spread, `pt_upkeep_${++batches}_`, receivers.map((receiver) => receiver.url), spread, count],
    )
  const pending = async () =>
    (
      await queryFromOutside<{ count: number }>(
        database.url,
        "select count(*)::int as count from webhook_deliveries where status = 'pending'",
      )
    )[0]!.count
  const countOf = (what: 'vacuum' | 'analyze', table: string) => maintenanceCount(database.url, what, table)

  it(`vacuums the live claims once it has finished ${VACUUM_LIVE_CLAIMS_EVERY} deliveries`, async () => {
    const before = await countOf('vacuum', 'webhook_live_claims')
    await queue(VACUUM_LIVE_CLAIMS_EVERY + 100)
    await waitFor('the backlog to be logged', async () => ((await pending()) === 0 ? true : undefined), 60_000)
    // The vacuum runs beside the sending, once the replica has finished that many.
    await waitFor(
      'a vacuum of the live claims',
      async () => ((await countOf('vacuum', 'webhook_live_claims')) > before ? true : undefined),
      10_000,
    )
    expect(await queryFromOutside(database.url, 'select delivery_id from webhook_live_claims')).toEqual([])
  }, 90_000)

  it('analyzes an outbox a burst has outdated while every slot of the replica is taken', async () => {
    const received = () => receivers.reduce((sum, receiver) => sum + receiver.received.length, 0)
    const earlier = received()
    for (const receiver of receivers) receiver.answer = () => 'hang'
    await queue(SHARES * MAX_DELIVERIES_PER_MERCHANT, SHARES)
    await waitFor('every slot taken', async () => (received() - earlier >= MAX_CONCURRENT_DELIVERIES ? true : undefined), 10_000)
    const before = await countOf('analyze', 'webhook_deliveries')
    // More changes than the outbox held at its last ANALYZE: its statistics are stale.
    await queue(5_000, SHARES)
    // Well before the receiver's timeout frees the slots (the poll is 250 ms; the statistics, up to 1 s behind).
    await waitFor(
      'an ANALYZE of the outbox',
      async () => ((await countOf('analyze', 'webhook_deliveries')) > before ? true : undefined),
      WEBHOOK_TIMEOUT_MS / 2,
    )
    for (const receiver of receivers) receiver.answer = () => ({ status: 200, body: 'ok' })
    for (const receiver of receivers) receiver.releaseHanging()
  }, 60_000)
})
