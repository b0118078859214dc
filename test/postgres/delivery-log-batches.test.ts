// A replica writes one batch of finished deliveries at a time (delivery-log-writer.ts): those that
// finish while a batch is being written wait for it and go together in the next transaction, so a
// busy replica's batches grow with its load. Here the first batch's transaction is held open (its
// claim step waits on a gate) while five more deliveries finish, each in a turn of its own. What
// the batches logged is announced to the other replicas together, not once a transaction.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openDatabase, type SandboxDb } from '../../sandbox/db/database.js'
import type { WebhookDeliveryRow } from '../../sandbox/db/schema.js'
import { claimDeliveries } from '../../sandbox/webhooks/delivery-claim-repository.js'
import { DeliveryLogWriter } from '../../sandbox/webhooks/delivery-log-writer.js'
import { WebhookFeed } from '../../sandbox/webhooks/webhook-feed.js'
import type { TestDatabase } from '../../harness/postgres.js'
import { createSandboxDatabase } from '../../harness/sandbox-database.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { waitFor } from '../../harness/wait.js'

let database: TestDatabase
let db: SandboxDb
let merchantId: string

beforeAll(async () => {
  const made = await createSandboxDatabase('paybox_log_batches')
  database = made.database
  merchantId = made.merchantIds[0]!
  db = await openDatabase({ file: database.url })
})
afterAll(async () => {
  await db?.destroy()
  await database?.drop()
})

/** A finished delivery no claim holds: its log transaction runs, and logs nothing. */
const finished = (n: number) => ({ id: `wh_batch_${n}`, claim_token: `token_${n}`, status: 'success' }) as WebhookDeliveryRow

it('logs the deliveries that finish while a batch is written together, in the next transaction', async () => {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const transactions: number[] = []
  const writer = new DeliveryLogWriter({
    db,
    feed: new WebhookFeed(),
    alsoInLog: async () => {
      transactions.push(transactions.length)
      if (transactions.length === 1) await gate
      return () => {}
    },
  })
  const first = writer.finished(finished(0))
  await waitFor('the first batch held open', () => transactions.length === 1)
  const later: Array<Promise<boolean>> = []
  for (let n = 1; n <= 5; n++) {
    later.push(writer.finished(finished(n)))
    await new Promise((resolve) => setImmediate(resolve))
  }
  release()
  expect(await Promise.all([first, ...later])).toEqual([false, false, false, false, false, false])
  expect(transactions).toHaveLength(2)
})

it('announces what its batches logged together, as another replica hears it', async () => {
  const other = await openDatabase({ file: database.url })
  const heardBy = new WebhookFeed()
  let announcements = 0
  const heard: string[] = []
  heardBy.onProgress(() => announcements++)
  heardBy.onDelivery((delivery) => heard.push(delivery.id))
  const stopHearing = new DeliveryLogWriter({ db: other, feed: heardBy }).hearOtherReplicas()
  try {
    await queryFromOutside(
      database.url,
      `insert into webhook_deliveries (id, merchant_id, subject_type, subject_id, event_type, url, status, request_payload, attempt_count, created_at, updated_at)
        select 'wh_announced_' || i, ?, 'payment', 'pt_announced_' || i, 'transaction_updated', 'http://127.0.0.1:9/', 'pending', '{}', 1, 0, 0
        from generate_series(1, 6) i`,
      [merchantId],
    )
    const { claimed } = await claimDeliveries(db, {
      by: 'replica-a',
      now: Date.now(),
      leaseMs: 15_000,
      limit: 6,
      caps: { perMerchant: 10, perOrigin: 10, originOf: (url) => new URL(url).origin },
    })
    expect(claimed).toHaveLength(6)
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let transactions = 0
    // A window no test outlasts: what both transactions logged waits for announceNow.
    const writer = new DeliveryLogWriter({
      db,
      feed: new WebhookFeed(),
      alsoInLog: async () => {
        if (++transactions === 1) await gate
        return () => {}
      },
      announceEveryMs: 60_000,
    })
    const logging = [writer.finished({ ...claimed[0]!, status: 'success' })]
    await waitFor('the first batch held open', () => transactions === 1)
    for (const row of claimed.slice(1)) {
      logging.push(writer.finished({ ...row, status: 'success' }))
      await new Promise((resolve) => setImmediate(resolve))
    }
    release()
    expect(await Promise.all(logging)).toEqual([true, true, true, true, true, true])
    expect(transactions).toBe(2)
    writer.announceNow()
    await waitFor('the other replica to hear of all six', () => heard.length === 6)
    expect({ announcements, heard: heard.sort() }).toEqual({ announcements: 1, heard: claimed.map((row) => row.id).sort() })
  } finally {
    stopHearing()
    await other.destroy()
  }
})
