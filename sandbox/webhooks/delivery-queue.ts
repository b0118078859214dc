// Which pending webhook deliveries go next: the oldest first, each subject's in order, each once,
// and at most 10 on the wire per merchant and per receiver origin, so a receiver that never
// answers holds only its own share (the outbox is then read past it for others' deliveries).
import type { WebhookDeliveryRow } from '../db/schema.js'
import { MAX_DELIVERIES_PER_ORIGIN } from './webhook-sender.js'

export const QUEUE_SIZE = 100
/** What the queue may grow to with deliveries read past those waiting on a merchant's share. */
export const MAX_QUEUE_SIZE = 4 * QUEUE_SIZE
/** Deliveries on the wire at once, across all receivers: bounds the sandbox's sockets. */
export const MAX_CONCURRENT_DELIVERIES = 64
/** Deliveries of one merchant on the wire at once: its slow receivers cannot hold everyone's. */
export const MAX_DELIVERIES_PER_MERCHANT = 10

/** What to read past the queue for: pending deliveries of other merchants and other URLs. */
export interface ReadPast {
  merchants: string[]
  urls: string[]
  limit: number
}

export class DeliveryQueue {
  /** Subjects (subjectKey) with a delivery on the wire: their next one waits. */
  readonly #busySubjects = new Set<string>()
  /** Deliveries being sent outside the queue (resends): the queue leaves them alone. */
  readonly #claimed = new Set<string>()
  /** Ids of the deliveries taken until logged: still pending in the outbox. */
  readonly #taken = new Set<string>()
  // A read of the outbox that began before a delivery's log committed (PostgreSQL) still returns
  // it as pending: deliveries logged while a read runs are left out of what it returns.
  #reads = 0
  readonly #loggedDuringRead = new Set<string>()
  #onTheWire = 0
  /** Of those, per merchant and per receiver origin (entries removed at zero). */
  readonly #wireByMerchant = new Map<string, number>()
  readonly #wireByOrigin = new Map<string, number>()
  /** Receiver origins by URL, so a waiting delivery's URL is not parsed at every pass. */
  readonly #origins = new Map<string, string>()
  // Every pending delivery up to #queuedThrough is here or taken (sequences are allocated under
  // the write lock), so a refill reads only newer ones; each poll reads it anew.
  #queue: WebhookDeliveryRow[] = []
  /** Ids in #queue: a refill may meet deliveries already read past a merchant's share. */
  #queuedIds = new Set<string>()
  #queuedThrough = 0
  #stale = true
  /** The outbox was read past a full share's deliveries since the queue was last read anew. */
  #readPast = false

  get queuedThrough(): number {
    return this.#queuedThrough
  }

  get wireFull(): boolean {
    return this.#onTheWire >= MAX_CONCURRENT_DELIVERIES
  }

  /** Deliveries this process may still put on the wire. */
  get freeSlots(): number {
    return Math.max(0, MAX_CONCURRENT_DELIVERIES - this.#onTheWire)
  }

  get room(): number {
    return Math.max(0, QUEUE_SIZE - this.#queue.length)
  }

  /** The outbox may have changed behind the queue's back (a poll): read it anew at the next pass. */
  markStale(): void {
    this.#stale = true
  }

  /** Taken deliveries stay taken. */
  refreshIfStale(): void {
    if (!this.#stale) return
    this.#stale = false
    this.#queue = []
    this.#queuedIds = new Set()
    this.#queuedThrough = 0
    this.#readPast = false
  }

  addNewer(rows: WebhookDeliveryRow[]): boolean {
    if (rows.length > 0) this.#queuedThrough = rows.at(-1)!.sequence
    return this.enqueue(rows)
  }

  /** What to read past when all that is queued waits on a full share; once per reading, as it walks a slow receiver's backlog. */
  readPast(): ReadPast | undefined {
    if (this.#readPast || this.wireFull || this.#queue.length >= MAX_QUEUE_SIZE) return undefined
    const merchants = [...this.#wireByMerchant]
      .filter(([, count]) => count >= MAX_DELIVERIES_PER_MERCHANT)
      .map(([merchantId]) => merchantId)
    const urls = [...new Set(this.#queue.map((d) => d.url))].filter(
      (url) => (this.#wireByOrigin.get(this.#originOf(url)) ?? 0) >= MAX_DELIVERIES_PER_ORIGIN,
    )
    if (merchants.length === 0 && urls.length === 0) return undefined
    this.#readPast = true
    return { merchants, urls, limit: MAX_QUEUE_SIZE - this.#queue.length }
  }

  /** Runs a read of pending deliveries; what was logged meanwhile is left out. `count`: the rows it read. */
  async read(query: () => Promise<WebhookDeliveryRow[]>): Promise<{ rows: WebhookDeliveryRow[]; count: number }> {
    this.#reads++
    try {
      const rows = await query()
      return { rows: rows.filter((row) => !this.#loggedDuringRead.has(row.id)), count: rows.length }
    } finally {
      if (--this.#reads === 0) this.#loggedDuringRead.clear()
    }
  }

  /** Leaves out deliveries already queued, taken (pending until logged) or being resent; whether any was added. */
  enqueue(rows: WebhookDeliveryRow[]): boolean {
    const fresh = rows.filter((row) => !this.#queuedIds.has(row.id) && !this.#taken.has(row.id) && !this.#claimed.has(row.id))
    if (fresh.length === 0) return false
    for (const row of fresh) this.#queuedIds.add(row.id)
    const last = this.#queue.at(-1)
    this.#queue.push(...fresh)
    // Rows read past a merchant's share may be newer than a later refill's: keep sequence order.
    if (last !== undefined && fresh[0]!.sequence < last.sequence) this.#queue.sort((a, b) => a.sequence - b.sequence)
    return true
  }

  /** Takes what may go, oldest first, while slots are free; each is on the wire until `answered`. */
  takeReady(): WebhookDeliveryRow[] {
    if (this.#queue.length === 0) return []
    const ready: WebhookDeliveryRow[] = []
    const waiting: WebhookDeliveryRow[] = []
    const held = new Set<string>()
    for (const delivery of this.#queue) {
      if (this.#claimed.has(delivery.id)) {
        this.#queuedIds.delete(delivery.id)
        continue
      }
      // Only the oldest pending delivery of a subject may go, only when none is on the wire, and
      // only within its merchant's and its receiver's share.
      const subject = subjectKey(delivery)
      if (
        this.wireFull ||
        this.#busySubjects.has(subject) ||
        held.has(subject) ||
        (this.#wireByMerchant.get(delivery.merchant_id) ?? 0) >= MAX_DELIVERIES_PER_MERCHANT ||
        (this.#wireByOrigin.get(this.#originOf(delivery.url)) ?? 0) >= MAX_DELIVERIES_PER_ORIGIN
      ) {
        held.add(subject)
        waiting.push(delivery)
        continue
      }
      held.add(subject)
      this.#queuedIds.delete(delivery.id)
      this.#take(delivery)
      ready.push(delivery)
    }
    this.#queue = waiting
    return ready
  }

  /** Puts a delivery claimed from the shared outbox on the wire: the claim kept its subject's order and the caps. */
  takeClaimed(delivery: WebhookDeliveryRow): void {
    this.#take(delivery)
  }

  /** The receiver answered (or the attempt ended): the delivery's slot is free. Call once. */
  answered(delivery: WebhookDeliveryRow): void {
    this.#onTheWire--
    countIn(this.#wireByMerchant, delivery.merchant_id, -1)
    countIn(this.#wireByOrigin, this.#originOf(delivery.url), -1)
  }

  /** The delivery is logged (or given up): its subject's next one may go. */
  finished(delivery: WebhookDeliveryRow): void {
    this.#busySubjects.delete(subjectKey(delivery))
    this.#taken.delete(delivery.id)
    if (this.#reads > 0) this.#loggedDuringRead.add(delivery.id)
  }

  /** A delivery sent outside the queue (a resend) until `release`. */
  claim(id: string): void {
    this.#claimed.add(id)
  }

  release(id: string): void {
    this.#claimed.delete(id)
  }

  #take(delivery: WebhookDeliveryRow): void {
    this.#busySubjects.add(subjectKey(delivery))
    this.#taken.add(delivery.id)
    this.#onTheWire++
    countIn(this.#wireByMerchant, delivery.merchant_id, 1)
    countIn(this.#wireByOrigin, this.#originOf(delivery.url), 1)
  }

  /** A receiver URL's origin, which shares one cap; cached, so a waiting delivery's URL is not parsed at every pass. */
  originOf(url: string): string {
    return this.#originOf(url)
  }

  #originOf(url: string): string {
    let origin = this.#origins.get(url)
    if (origin === undefined) {
      if (this.#origins.size >= MAX_QUEUE_SIZE * 4) this.#origins.clear()
      origin = URL.canParse(url) ? new URL(url).origin : url
      this.#origins.set(url, origin)
    }
    return origin
  }
}

/** Whose deliveries go one at a time, in order: ids of different subject types may coincide. */
function subjectKey(delivery: Pick<WebhookDeliveryRow, 'subject_type' | 'subject_id'>): string {
  return `${delivery.subject_type}:${delivery.subject_id}`
}

// Zero counts are dropped, so a map holds only what is on the wire.
function countIn(counts: Map<string, number>, key: string, by: number): void {
  const count = (counts.get(key) ?? 0) + by
  if (count > 0) counts.set(key, count)
  else counts.delete(key)
}
