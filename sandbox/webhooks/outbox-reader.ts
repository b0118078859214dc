// Fills the delivery queue from the outbox: the pending deliveries newer than those queued, then,
// when all that is queued waits on a full share (a slow receiver), those of other merchants and URLs.
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.js'
import type { DeliveryQueue } from './delivery-queue.js'
import { findPendingDeliveriesAfter } from './webhook-repository.js'

/** `sendReady` runs whenever deliveries were added that may go; `stopped` ends the reading. */
export async function fillQueue(db: Kysely<Database>, queue: DeliveryQueue, sendReady: () => void, stopped: () => boolean): Promise<void> {
  let more = true
  const limit = queue.room
  if (limit > 0) {
    const newer = await queue.read(() => findPendingDeliveriesAfter(db, queue.queuedThrough, limit))
    if (stopped()) return
    more = newer.count === limit
    if (queue.addNewer(newer.rows)) sendReady()
  }
  if (!more) return
  const past = queue.readPast()
  if (past === undefined) return
  const others = await queue.read(() =>
    findPendingDeliveriesAfter(db, queue.queuedThrough, past.limit, { merchants: past.merchants, urls: past.urls }),
  )
  if (stopped()) return
  if (queue.enqueue(others.rows)) sendReady()
}
