// Sends the outbox's webhook deliveries in the background, so no API request waits for a receiver:
// each payment's in order, once (failures are logged, not retried: spec 6), pending ones after a restart.
import type { Kysely } from 'kysely'
import { announce, isLeader, isPostgres, onAnnouncement, onCommit, runTransaction } from '../db/database.js'
import type { Clock } from '../clock.js'
import type { Database, MerchantRow, WebhookDeliveryRow } from '../db/schema.js'
import { findMerchantById } from '../merchants/merchant-repository.js'
import { DeliveryQueue } from './delivery-queue.js'
import type { DeliveryListener, EventListener, WebhookDeliveries } from './webhook-deliveries.js'
import { StoredEgress } from './egress-policy.js'
import type { WebhookEgress } from './webhook-egress.js'
import { WebhookFeed } from './webhook-feed.js'
import {
  findDeliveriesByIds,
  findDeliveryById,
  findPendingDeliveriesAfter,
  logDeliveryOutcomes,
  updateDelivery,
} from './webhook-repository.js'
import { recordResend } from './webhook-resend.js'
import { WebhookSender } from './webhook-sender.js'

/** The safety net: commits in this process kick the dispatcher at once; another process's are seen by polling. */
const DEFAULT_POLL_MS = 250
/** How long a resend waits for the leading replica past the receiver's own timeout. */
const RESEND_WAIT_MARGIN_MS = 5_000
/** What the sending replica tells the others as it logs deliveries: their ids, comma-separated. */
const DELIVERED_TOPIC = 'delivered'
/** Ids per announcement: 100 UUIDs and their commas stay far below NOTIFY's payload limit. */
const DELIVERIES_PER_ANNOUNCEMENT = 100

export interface WebhookDispatcherOptions {
  db: Kysely<Database>
  /** Business time, for the log's timestamps. */
  clock: Clock
  requireHttps?: boolean
  /** Where deliveries may go: the sandbox's stored egress policy (a shared sandbox refuses internal addresses); default: anywhere. */
  egress?: StoredEgress
  timeoutMs?: number
  pollMs?: number
  log?: (line: string) => void
}

/** A delivery's merchant, read once per pump for all the deliveries it sends. */
type MerchantLookup = (merchantId: string) => Promise<MerchantRow | undefined>
/** The sandbox's egress rule, read once per pump: whichever replica sends enforces the stored one. */
type EgressLookup = () => Promise<WebhookEgress>
type Lookups = { merchantOf: MerchantLookup; egressOf: EgressLookup }

export class WebhookDispatcher implements WebhookDeliveries {
  readonly #db: Kysely<Database>
  readonly #clock: Clock
  readonly #pollMs: number
  readonly #log: ((line: string) => void) | undefined
  readonly #queue = new DeliveryQueue()
  readonly #sender: WebhookSender
  readonly #egress: StoredEgress
  readonly #feed = new WebhookFeed()
  readonly #inFlight = new Set<Promise<void>>()
  #timer: NodeJS.Timeout | undefined
  #pumping: Promise<void> | undefined
  /** A pump is wanted once the current one ends (work arrived while it ran). */
  #pumpAgain = false
  #kickScheduled = false
  #stopListening: (() => void) | undefined
  #stopHearing: (() => void) | undefined
  /** Finished deliveries waiting to be logged together, each with who awaits it. */
  #unlogged: Array<{ row: WebhookDeliveryRow; done: (error?: unknown) => void }> = []

  constructor(options: WebhookDispatcherOptions) {
    this.#db = options.db
    this.#clock = options.clock
    this.#pollMs = options.pollMs ?? DEFAULT_POLL_MS
    this.#log = options.log
    this.#sender = new WebhookSender({ requireHttps: options.requireHttps, timeoutMs: options.timeoutMs })
    this.#egress = options.egress ?? new StoredEgress({ shared: false, allowWebhookTo: [] })
  }

  async start(): Promise<void> {
    // Listeners hear of events from now on; deliveries are sent whenever they were queued.
    await this.#feed.start(this.#db)
    this.#timer = setInterval(() => {
      this.#queue.markStale()
      this.kick()
    }, this.#pollMs).unref()
    this.#stopListening = onCommit(this.#db, () => this.#kickSoon())
    // Only the leader sends and so learns of finished deliveries first hand; the other replicas' live tails hear of them here.
    this.#stopHearing = onAnnouncement(this.#db, DELIVERED_TOPIC, (ids) => void this.#heardDelivered(ids))
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

  async resend(original: WebhookDeliveryRow): Promise<WebhookDeliveryRow> {
    // On a shared database only the leading replica sends, so each delivery goes once: the
    // resend joins the outbox and is answered once the leader has logged it.
    if (isPostgres(this.#db)) return this.#resendThroughLeader(original)
    const delivery = await recordResend(this.#db, original, this.#clock.now(), (id) => this.#queue.claim(id))
    try {
      return await this.#deliver(delivery)
    } finally {
      this.#queue.release(delivery.id)
    }
  }

  async #resendThroughLeader(original: WebhookDeliveryRow): Promise<WebhookDeliveryRow> {
    const delivery = await recordResend(this.#db, original, this.#clock.now(), () => {})
    this.kick()
    const deadline = Date.now() + this.#sender.timeoutMs + RESEND_WAIT_MARGIN_MS
    return new Promise<WebhookDeliveryRow>((resolve) => {
      let checking = false
      const check = async () => {
        if (checking) return
        checking = true
        const row = (await findDeliveryById(this.#db, delivery.id).catch(() => undefined)) ?? delivery
        checking = false
        if (row.status !== 'pending' || Date.now() > deadline || this.#sender.stopped) {
          stop()
          clearInterval(timer)
          resolve(row)
        }
      }
      const stop = onCommit(this.#db, () => void check())
      const timer = setInterval(() => void check(), this.#pollMs).unref()
    })
  }

  async #pump(): Promise<void> {
    const db = this.#db
    await this.#feed.readEvents(db)
    // Every replica feeds its listeners; only the leader sends.
    if (!isLeader(db)) return
    const queue = this.#queue
    if (queue.wireFull) return
    queue.refreshIfStale()
    const merchants = new Map<string, Promise<MerchantRow | undefined>>()
    const merchantOf: MerchantLookup = (id) => {
      let merchant = merchants.get(id)
      if (merchant === undefined) merchants.set(id, (merchant = findMerchantById(db, id)))
      return merchant
    }
    let egress: Promise<WebhookEgress> | undefined
    const egressOf: EgressLookup = () => (egress ??= this.#egress.read(db))
    const lookups = { merchantOf, egressOf }
    this.#sendReady(lookups)
    if (queue.wireFull) return
    // Slots left and room in the queue: read the newer pending deliveries, and send from them too.
    let more = true
    const limit = queue.room
    if (limit > 0) {
      const newer = await queue.read(() => findPendingDeliveriesAfter(db, queue.queuedThrough, limit))
      if (this.#sender.stopped) return
      more = newer.count === limit
      if (queue.addNewer(newer.rows)) this.#sendReady(lookups)
    }
    if (!more) return
    const past = queue.readPast()
    if (past === undefined) return
    const others = await queue.read(() =>
      findPendingDeliveriesAfter(db, queue.queuedThrough, past.limit, { merchants: past.merchants, urls: past.urls }),
    )
    if (this.#sender.stopped) return
    if (queue.enqueue(others.rows)) this.#sendReady(lookups)
  }

  #sendReady(lookups: Lookups): void {
    for (const delivery of this.#queue.takeReady()) this.#send(delivery, lookups)
  }

  #send(delivery: WebhookDeliveryRow, lookups: Lookups): void {
    let answered = false
    // The slot is free once the receiver answered; the payment's next delivery waits until this one is logged.
    const freeSlot = () => {
      if (answered) return
      answered = true
      this.#queue.answered(delivery)
      this.#kickSoon()
    }
    const sending: Promise<void> = this.#deliver(delivery, lookups, freeSlot)
      .then(() => undefined)
      .catch((error: unknown) => this.#giveUp(delivery, error))
      .finally(() => {
        freeSlot()
        this.#queue.finished(delivery)
        this.#inFlight.delete(sending)
        this.#kickSoon()
      })
    this.#inFlight.add(sending)
  }

  async #deliver(
    delivery: WebhookDeliveryRow,
    lookups: Lookups = { merchantOf: (id) => findMerchantById(this.#db, id), egressOf: () => this.#egress.read(this.#db) },
    answered: () => void = () => {},
  ): Promise<WebhookDeliveryRow> {
    const merchant = await lookups.merchantOf(delivery.merchant_id)
    if (!merchant) throw new Error(`Webhook ${delivery.id} belongs to no merchant`)
    const attempt = await this.#sender.attempt(delivery, merchant, await lookups.egressOf())
    answered()
    if (attempt === undefined) return delivery // stopped mid-send: it stays pending
    const { tried, ...outcome } = attempt
    const now = this.#clock.now()
    const finished: WebhookDeliveryRow = { ...delivery, ...outcome, updated_at: now, last_attempt_at: tried ? now : null }
    await this.#logFinished(finished)
    this.#feed.delivered(finished)
    return finished
  }

  /** Another replica logged these deliveries (ids, comma-separated): tells this one's listeners, if it has any. */
  async #heardDelivered(ids: string | undefined): Promise<void> {
    if (!ids || !this.#feed.hasDeliveryListeners) return
    try {
      for (const delivery of await findDeliveriesByIds(this.#db, ids.split(','))) this.#feed.delivered(delivery)
    } catch (error) {
      // A live tail misses them; the delivery log still has them.
      this.#log?.(`Reading deliveries logged by another replica failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  /** Deliveries finishing in one turn of the event loop are logged in one transaction (one commit). */
  #logFinished(row: WebhookDeliveryRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#unlogged.push({ row, done: (error) => (error === undefined ? resolve() : reject(error)) })
      if (this.#unlogged.length > 1) return
      setImmediate(() => {
        const batch = this.#unlogged
        this.#unlogged = []
        const rows = batch.map(({ row: finished }) => finished)
        runTransaction(this.#db, async (trx) => {
          await logDeliveryOutcomes(trx, rows)
          for (let at = 0; at < rows.length; at += DELIVERIES_PER_ANNOUNCEMENT) {
            const ids = rows.slice(at, at + DELIVERIES_PER_ANNOUNCEMENT).map((row) => row.id)
            await announce(this.#db, trx, DELIVERED_TOPIC, ids.join(','))
          }
        }).then(
          () => batch.forEach(({ done }) => done()),
          (error: unknown) => batch.forEach(({ done }) => done(error)),
        )
      })
    })
  }

  /** A delivery that broke the sandbox itself is logged failed, so it is not attempted forever. */
  async #giveUp(delivery: WebhookDeliveryRow, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error)
    this.#log?.(`Webhook ${delivery.id} could not be delivered: ${message}`)
    const now = this.#clock.now()
    await updateDelivery(this.#db, delivery.id, {
      status: 'failed',
      error_message: `The sandbox could not send it: ${message}`,
      updated_at: now,
    }).catch(() => {})
  }
}
