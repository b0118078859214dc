// A dispatcher on PostgreSQL, with its wall clock injected: each merchant's head is read from
// where its last claim found it, and from the merchant's oldest pending delivery once a poll, so a
// delivery whose transaction committed after a newer one was read waits one poll at most. What it
// logged is announced to the other replicas when it stops, not left in the announcement window.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { openDatabase, runTransaction, type SandboxDb } from '../../sandbox/db/database.js'
import type { WebhookDeliveryRow } from '../../sandbox/db/schema.js'
import { DeliveryLogWriter } from '../../sandbox/webhooks/delivery-log-writer.js'
import { WebhookDispatcher } from '../../sandbox/webhooks/webhook-dispatcher.js'
import { newDeliveryIdentity, pendingDelivery } from '../../sandbox/webhooks/webhook-events.js'
import { WebhookFeed } from '../../sandbox/webhooks/webhook-feed.js'
import { findDeliveryById, insertDelivery, nextDeliverySequence } from '../../sandbox/webhooks/webhook-repository.js'
import type { TestDatabase } from '../../harness/postgres.js'
import { createSandboxDatabase } from '../../harness/sandbox-database.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/webhook-receiver.js'
import { waitFor } from '../../harness/wait.js'
import { WEBHOOK_DELIVERY_ID_HEADER } from '../../src/api/headers.js'

/** Longer than any test: the dispatcher's own poll never fires, and a poll passes only when the test moves the clock. */
const POLL_MS = 600_000

let database: TestDatabase
let db: SandboxDb
let receiver: WebhookReceiver
let merchantId: string
let subjects = 0
let dispatcher: WebhookDispatcher | undefined

beforeAll(async () => {
  // Only this test's dispatcher sends.
  const made = await createSandboxDatabase('paybox_dispatcher_claims')
  database = made.database
  merchantId = made.merchantIds[0]!
  db = await openDatabase({ file: database.url })
  receiver = await startWebhookReceiver('not checked here')
})
afterEach(async () => {
  await dispatcher?.stop()
  dispatcher = undefined
})
afterAll(async () => {
  await receiver?.close()
  await db?.destroy()
  await database?.drop()
})

const receivedIds = () => receiver.received.map((request) => request.headers[WEBHOOK_DELIVERY_ID_HEADER])
const logged = async (row: WebhookDeliveryRow) => (await findDeliveryById(db, row.id))?.status === 'success'

/** Queues one pending delivery of a new subject to the receiver, at the sequence given (one taken earlier) or a new one. */
const queue = (sequence?: number): Promise<WebhookDeliveryRow> =>
  runTransaction(db, async (trx) => {
    const subjectId = `pt_dispatcher_${++subjects}`
    const identity = await newDeliveryIdentity(trx, { type: 'payment', id: subjectId })
    const row = pendingDelivery({
      ...identity,
      sequence: sequence ?? identity.sequence,
      merchant_id: merchantId,
      subject_type: 'payment',
      subject_id: subjectId,
      event_type: 'transaction_updated',
      url: receiver.url,
      request_payload: '{}',
      created_at: 0,
    })
    await insertDelivery(trx, row)
    return row
  })

const startDispatcher = async (wallClock: ManualClock, announceEveryMs?: number) => {
  dispatcher = new WebhookDispatcher({ db, clock: wallClock, wallClock, replicaName: 'replica-a', pollMs: POLL_MS, announceEveryMs })
  await dispatcher.start()
  return dispatcher
}

it("finds a delivery committed below its merchant's head at the next poll, not before", async () => {
  const wallClock = new ManualClock(Date.now())
  const sending = await startDispatcher(wallClock)
  // A sequence taken and left free before the merchant's next delivery, for one committed late to hold.
  const gap = await nextDeliverySequence(db)
  const first = await queue()
  await waitFor('the first delivery logged', () => logged(first))
  // Committed below where the claims found the merchant's head (its transaction took its sequence
  // before the first's was read), with a newer one: the claim that takes the newer one reads from the start.
  const late = await queue(gap)
  const newer = await queue()
  await waitFor('the newer delivery logged', () => logged(newer))
  expect(receivedIds()).not.toContain(late.id)
  expect((await findDeliveryById(db, late.id))?.status).toBe('pending')

  // A poll later, the next claim reads the merchant from its oldest pending delivery.
  wallClock.advance(POLL_MS)
  sending.kick()
  await waitFor('the late delivery logged', () => logged(late))
  expect(receivedIds()).toEqual([first.id, newer.id, late.id])
})

it('announces what it logged to the other replicas when it stops, within the announcement window', async () => {
  const other = await openDatabase({ file: database.url })
  const heardBy = new WebhookFeed()
  const heard: string[] = []
  heardBy.onDelivery((delivery) => heard.push(delivery.id))
  const stopHearing = new DeliveryLogWriter({ db: other, feed: heardBy }).hearOtherReplicas()
  try {
    // A window no test outlasts: only the stop announces.
    const sending = await startDispatcher(new ManualClock(Date.now()), 600_000)
    const delivery = await queue()
    await waitFor('the delivery logged', () => logged(delivery))
    await sending.stop()
    dispatcher = undefined
    await waitFor('the other replica to hear of it', () => heard.includes(delivery.id))
  } finally {
    stopHearing()
    await other.destroy()
  }
})
