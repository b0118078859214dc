// Sends the outbox's webhook deliveries in the background, so no API request waits for a receiver:
// each subject's in order, once (failures are logged, not retried: spec 6), pending ones after a
// restart. This module schedules; what goes next is DeliveryQueue's call (filled by outbox-reader.ts
// on SQLite; on PostgreSQL every replica claims its share: delivery-claim-repository.ts), an
// attempt and its log entry are DeliveryAttempts' and DeliveryLogWriter's.
import { hostname } from 'node:os'
import type { Kysely } from 'kysely'
import { isPostgres, onCommit } from '../db/database.js'
import { atMostEvery, systemClock, type Clock } from '../clock.js'
import type { Database, WebhookDeliveryRow } from '../db/schema.js'
import { DeliveryAttempts, type AttemptLookups } from './delivery-attempts.js'
import { DeliveryLogWriter } from './delivery-log-writer.js'
import {
  claimDeliveries,
  claimInTransaction,
  newClaim,
  refreshStaleOutboxStatistics,
  vacuumLiveClaims,
  type Claimed,
  type ClaimRequest,
  type PendingCount,
} from './delivery-claim-repository.js'
import { DeliveryQueue, MAX_DELIVERIES_PER_MERCHANT } from './delivery-queue.js'
import type { DeliveryListener, EventListener, WebhookDeliveries } from '../context.js'
import { StoredEgress } from './egress-policy.js'
import { fillQueue } from './outbox-reader.js'
import { WebhookFeed } from './webhook-feed.js'
import { recordResend } from './webhook-resend.js'
import { MAX_DELIVERIES_PER_ORIGIN, WebhookSender } from './webhook-sender.js'

/** The safety net: commits in this process kick the dispatcher at once; another process's are seen by polling. */
const DEFAULT_POLL_MS = 250
/**
 * A claim's lease past the receiver's timeout: time to look up the merchant, connect and log. A
 * replica that has not logged by then is taken for dead, and any replica claims the delivery again.
 */
export const CLAIM_LEASE_MARGIN_MS = 5_000
/** PostgreSQL: deliveries a replica finishes (each deleting its live claim's row) between its vacuums of the live claims' table. */
export const VACUUM_LIVE_CLAIMS_EVERY = 500

export interface WebhookDispatcherOptions {
  db: Kysely<Database>
  /** Business time, for the log's timestamps. */
  clock: Clock
  /** Wall-clock time, for claims' leases (PostgreSQL); default: the system's. */
  wallClock?: Clock
  /** This replica's name in the log's claimed_by (default host:pid). */
  replicaName?: string
  requireHttps?: boolean
  /** Where deliveries may go: the sandbox's stored egress policy (a shared sandbox refuses internal addresses); default: anywhere. */
  egress?: StoredEgress
  timeoutMs?: number
  pollMs?: number
  /** PostgreSQL: how long logged deliveries wait to be announced together (default ANNOUNCE_DELIVERED_EVERY_MS). */
  announceEveryMs?: number
  log?: (line: string) => void
}

export class WebhookDispatcher implements WebhookDeliveries {
  readonly #db: Kysely<Database>
  readonly #clock: Clock
  readonly #wallClock: Clock
  readonly #replicaName: string
  readonly #pollMs: number
  readonly #log: ((line: string) => void) | undefined
  readonly #queue = new DeliveryQueue()
  readonly #sender: WebhookSender
  readonly #egress: StoredEgress
  readonly #feed = new WebhookFeed()
  readonly #logWriter: DeliveryLogWriter
  readonly #attempts: DeliveryAttempts
  readonly #inFlight = new Set<Promise<void>>()
  #timer: NodeJS.Timeout | undefined
  #pumping: Promise<void> | undefined
  /** A pump is wanted once the current one ends (work arrived while it ran). */
  #pumpAgain = false
  #kickScheduled = false
  /** Slots a claim under way may fill (PostgreSQL): two claims at once do not both count them free. */
  #reserved = 0
  /** This replica's claims check the outbox's statistics at most once a poll. */
  readonly #statisticsDue: () => boolean
  /** PostgreSQL: the outbox's pending deliveries as this replica's check last counted them. */
  #pendingCount: PendingCount | undefined
  /** PostgreSQL: where each merchant's pending deliveries start, as this replica's claims last read them; they read from the oldest at most once a poll. */
  readonly #headStarts = new Map<string, number>()
  readonly #oldestReadDue: () => boolean
  /** PostgreSQL: deliveries finished since this replica last vacuumed the live claims, and the vacuum under way. */
  #finishedSinceVacuum = 0
  #vacuuming: Promise<void> | undefined
  #stopListening: (() => void) | undefined
  #stopHearing: (() => void) | undefined

  constructor(options: WebhookDispatcherOptions) {
    this.#db = options.db
    this.#clock = options.clock
    this.#wallClock = options.wallClock ?? systemClock
    this.#replicaName = options.replicaName ?? `${hostname()}:${process.pid}`
    this.#pollMs = options.pollMs ?? DEFAULT_POLL_MS
    this.#statisticsDue = atMostEvery(this.#wallClock, this.#pollMs)
    this.#oldestReadDue = atMostEvery(this.#wallClock, this.#pollMs)
    this.#log = options.log
    this.#sender = new WebhookSender({ requireHttps: options.requireHttps, timeoutMs: options.timeoutMs })
    this.#egress = options.egress ?? new StoredEgress({ shared: false, allowWebhookTo: [] })
    // PostgreSQL: each log transaction also claims the next deliveries, one transaction per turn of the slots.
    this.#logWriter = new DeliveryLogWriter({
      db: this.#db,
      feed: this.#feed,
      log: this.#log,
      alsoInLog: (trx) => this.#claimInLog(trx),
      announceEveryMs: options.announceEveryMs,
    })
    this.#attempts = new DeliveryAttempts({
      db: this.#db,
      clock: this.#clock,
      wallClock: this.#wallClock,
      sender: this.#sender,
      egress: this.#egress,
      logWriter: this.#logWriter,
    })
  }

  async start(): Promise<void> {
    // Listeners hear of events from now on; deliveries are sent whenever they were queued.
    await this.#feed.start(this.#db)
    this.#timer = setInterval(() => {
      this.#queue.markStale()
      this.kick()
    }, this.#pollMs).unref()
    this.#stopListening = onCommit(this.#db, () => this.#kickSoon())
    // Each replica learns first hand of the deliveries it sent; its live tails hear of the others' here.
    this.#stopHearing = this.#logWriter.hearOtherReplicas()
    this.kick()
  }

  /** Stops sending; deliveries on the wire are abandoned and stay pending for the next start. */
  async stop(): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
    this.#stopListening?.()
    this.#stopHearing?.()
    this.#sender.stop()
    await this.#pumping
    await Promise.allSettled([...this.#inFlight])
    this.#logWriter.announceNow()
    await this.#vacuuming
    await this.#sender.close()
  }

  async webhookUrlRefusal(db: Kysely<Database>, url: string): Promise<string | undefined> {
    return (await this.#egress.read(db)).urlRefusal(url)
  }

  async receiverFetch(): Promise<typeof fetch> {
    return this.#sender.receiverFetch(await this.#egress.read(this.#db))
  }

  onDelivery(listener: DeliveryListener): () => void {
    return this.#feed.onDelivery(listener)
  }

  onProgress(listener: () => void): () => void {
    return this.#feed.onProgress(listener)
  }

  onEvent(listener: EventListener): () => void {
    return this.#feed.onEvent(listener)
  }

  kick(): void {
    if (this.#sender.stopped) return
    if (this.#pumping) {
      this.#pumpAgain = true
      return
    }
    this.#pumping = this.#pump()
      .catch((error: unknown) => this.#log?.(`Webhook dispatch failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.#pumping = undefined
        if (this.#pumpAgain) {
          this.#pumpAgain = false
          this.#kickSoon()
        }
      })
  }

  /** One kick for all the commits and finished deliveries of this turn of the event loop. */
  #kickSoon(): void {
    if (this.#kickScheduled) return
    this.#kickScheduled = true
    setImmediate(() => {
      this.#kickScheduled = false
      this.kick()
    })
  }

  /** The leases of claims made now (PostgreSQL). */
  get #leaseMs(): number {
    return this.#sender.timeoutMs + CLAIM_LEASE_MARGIN_MS
  }

  async resend(original: WebhookDeliveryRow): Promise<WebhookDeliveryRow> {
    // The replica that received the resend sends it: on PostgreSQL it is written claimed, so no other replica takes it.
    const claimed = isPostgres(this.#db) ? newClaim(this.#replicaName, this.#wallClock.now(), this.#leaseMs) : undefined
    const delivery = await recordResend(this.#db, original, this.#clock.now(), (id) => this.#queue.claim(id), claimed)
    try {
      return await this.#attempts.deliver(delivery)
    } finally {
      this.#queue.release(delivery.id)
    }
  }

  async #pump(): Promise<void> {
    const db = this.#db
    await this.#feed.readEvents(db)
    if (isPostgres(db)) return this.#claimAndSend()
    const queue = this.#queue
    if (queue.wireFull) return
    queue.refreshIfStale()
    const lookups = this.#attempts.lookups()
    const sendReady = () => {
      for (const delivery of queue.takeReady()) this.#send(delivery, lookups)
    }
    sendReady()
    if (queue.wireFull) return
    // Slots left and room in the queue: read the newer pending deliveries, and send from them too.
    await fillQueue(db, queue, sendReady, () => this.#sender.stopped)
  }

  /** PostgreSQL: every replica claims what may go now, as many as it has free slots, and sends it. */
  async #claimAndSend(): Promise<void> {
    // At most once a poll (a check per claim would cost every commit that wakes a dispatcher), and
    // with every slot full too: this replica's log transactions claim on the same statistics.
    if (this.#statisticsDue()) {
      this.#pendingCount = await refreshStaleOutboxStatistics(this.#db, this.#pendingCount)
    }
    const limit = this.#claimableSlots()
    if (limit === 0) return
    this.#reserved += limit
    try {
      const taken = await claimDeliveries(this.#db, this.#claimRequest(limit))
      this.#keepHeads(taken)
      this.#sendClaimed(taken.claimed)
    } finally {
      this.#reserved -= limit
    }
  }

  /** Inside a log transaction (PostgreSQL): claims for the slots free now; sends what it claimed once that commits. */
  async #claimInLog(trx: Kysely<Database>): Promise<(committed: boolean) => void> {
    const limit = this.#claimableSlots()
    if (limit === 0) return () => {}
    this.#reserved += limit
    let taken: Claimed
    try {
      taken = await claimInTransaction(trx, this.#claimRequest(limit))
      this.#keepHeads(taken)
    } catch (error) {
      this.#reserved -= limit
      throw error
    }
    return (committed) => {
      this.#reserved -= limit
      if (committed) this.#sendClaimed(taken.claimed)
      if (!committed) this.#kickSoon()
      // A share was being filled by another replica: the next log transaction tries again. Only
      // with none to come (nothing on the wire or unlogged once this log's deliveries are done)
      // does the pump claim, awaiting the shares' locks, rather than leave the slots idle until the poll.
      else if (taken.contended && taken.claimed.length < limit) setImmediate(() => this.#inFlight.size === 0 && this.#kickSoon())
    }
  }

  #claimableSlots(): number {
    if (this.#sender.stopped) return 0
    return Math.max(0, this.#queue.freeSlots - this.#reserved)
  }

  #claimRequest(limit: number): ClaimRequest {
    const queue = this.#queue
    const now = this.#wallClock.now()
    // Each merchant's head read from its oldest pending delivery at most once a poll (one that
    // committed late is found then), and from where the last read found it otherwise.
    const fromStarts = !this.#oldestReadDue()
    return {
      by: this.#replicaName,
      now,
      leaseMs: this.#leaseMs,
      limit,
      caps: { perMerchant: MAX_DELIVERIES_PER_MERCHANT, perOrigin: MAX_DELIVERIES_PER_ORIGIN, originOf: (url) => queue.originOf(url) },
      heads: { starts: this.#headStarts, fromStarts },
    }
  }

  /** Each merchant's next read starts where this one found its oldest pending delivery; one it found none of keeps its start. */
  #keepHeads(taken: Claimed): void {
    for (const [merchantId, start] of taken.heads) this.#headStarts.set(merchantId, start)
  }

  #sendClaimed(claimed: WebhookDeliveryRow[]): void {
    if (claimed.length === 0) return
    const lookups = this.#attempts.lookups()
    for (const delivery of claimed) {
      this.#queue.takeClaimed(delivery)
      this.#send(delivery, lookups)
    }
  }

  /** PostgreSQL: every VACUUM_LIVE_CLAIMS_EVERY finished deliveries, one vacuum of the live claims at a time (vacuumLiveClaims). */
  #vacuumLiveClaimsNowAndThen(): void {
    if (!isPostgres(this.#db) || ++this.#finishedSinceVacuum < VACUUM_LIVE_CLAIMS_EVERY || this.#vacuuming) return
    this.#finishedSinceVacuum = 0
    this.#vacuuming = vacuumLiveClaims(this.#db)
      .catch((error: unknown) =>
        this.#log?.(`Vacuuming the live webhook claims failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => (this.#vacuuming = undefined))
  }

  #send(delivery: WebhookDeliveryRow, lookups: AttemptLookups): void {
    // PostgreSQL: a delivery holds its share of the caps until logged, and its log transaction
    // claims the next ones; a kick here would claim in a transaction of its own, finding no room.
    const kick = isPostgres(this.#db) ? () => {} : () => this.#kickSoon()
    let answered = false
    // The slot is free once the receiver answered; the subject's next delivery waits until this one is logged.
    const freeSlot = () => {
      if (answered) return
      answered = true
      this.#queue.answered(delivery)
      kick()
    }
    const sending: Promise<void> = this.#attempts
      .deliver(delivery, lookups, freeSlot)
      .then(() => undefined)
      .catch((error: unknown) => this.#attempts.giveUp(delivery, error))
      .finally(() => {
        freeSlot()
        this.#queue.finished(delivery)
        this.#inFlight.delete(sending)
        this.#vacuumLiveClaimsNowAndThen()
        kick()
      })
    this.#inFlight.add(sending)
  }
}
