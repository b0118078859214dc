// Sends queued webhook deliveries (the outbox written by webhook-events.ts), in the background,
// so no API request waits for a receiver. Each payment's deliveries go one at a time, in the
// order of their events; different payments go in parallel. A delivery is sent once: failures
// are logged, not retried (spec 6). Deliveries still pending at stop are sent after the next
// start. Listeners hear of every finished delivery (the live tail) and every new payment event
// (`paybox listen`).
// For throughput: the outbox is read as soon as a transaction commits (a slow poll remains for
// writes from another process) into a queue of the oldest pending deliveries, refilled with newer
// ones only; deliveries wait for receivers over one undici connection pool per receiver origin
// (its dispatch API: no stream or AbortSignal per delivery); and the deliveries answered in one
// tick have their outcome logged in one transaction.
// For fairness: a merchant, and a receiver origin, each have at most 10 deliveries on the wire, so
// a receiver that never answers holds its own share only; when everything queued waits on such a
// share, the outbox is read past those deliveries for others'.
import type { Kysely } from 'kysely'
import type { Dispatcher, Pool } from 'undici'
import { onCommit, runTransaction } from '../db/database.js'
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '../../src/signing.js'
import { describeNetworkError } from '../../src/webhooks/post-webhook.js'
import type { Clock } from '../clock.js'
import type { Database, MerchantRow, WebhookDeliveryRow } from '../db/schema.js'
import { findMerchantById } from '../merchants/merchant-repository.js'
import type { DeliveryListener, EventListener, WebhookDeliveries } from './webhook-deliveries.js'
import { EgressRefusedError, WebhookEgress } from './webhook-egress.js'
import { newDeliveryIdentity } from './webhook-events.js'
import {
  findEventsAfter,
  findPendingDeliveriesAfter,
  insertDelivery,
  lastEventSequence,
  logDeliveryOutcomes,
  updateDelivery,
} from './webhook-repository.js'

/** The receiver's time to answer (spec 6, 8). */
export const WEBHOOK_TIMEOUT_MS = 10_000
/** How much of a receiver's answer the log keeps. */
export const RESPONSE_BODY_LIMIT_BYTES = 4096
export const WEBHOOK_USER_AGENT = 'paybox-sandbox-webhooks/1.0'
/** The safety net: commits in this process kick the dispatcher at once; another process's are seen by polling. */
const DEFAULT_POLL_MS = 250
const BATCH = 100
/** Pending deliveries read ahead into the queue. */
const QUEUE_SIZE = 100
/** What the queue may grow to with deliveries read past those waiting on a merchant's share. */
const MAX_QUEUE_SIZE = 4 * QUEUE_SIZE
/** Deliveries on the wire at once, across all receivers: bounds the sandbox's sockets. */
export const MAX_CONCURRENT_DELIVERIES = 64
/** Deliveries of one merchant on the wire at once: its slow receivers cannot hold everyone's. */
export const MAX_DELIVERIES_PER_MERCHANT = 10
/** Deliveries to one receiver origin at once (its connection pool's size). */
export const MAX_DELIVERIES_PER_ORIGIN = 10

export interface WebhookDispatcherOptions {
  db: Kysely<Database>
  /** Business time, for the log's timestamps. */
  clock: Clock
  /** Refuse (skip) plain-http URLs. */
  requireHttps?: boolean
  /** Where deliveries may go (a shared sandbox refuses internal addresses); default: anywhere. */
  egress?: WebhookEgress
  timeoutMs?: number
  /** How often the outbox is read for new work. */
  pollMs?: number
  log?: (line: string) => void
}


/** A delivery's merchant, read once per pump for all the deliveries it sends. */
type MerchantLookup = (merchantId: string) => Promise<MerchantRow | undefined>

export class WebhookDispatcher implements WebhookDeliveries {
  readonly #options: Required<Omit<WebhookDispatcherOptions, 'log'>> & Pick<WebhookDispatcherOptions, 'log'>
  readonly #deliveryListeners = new Set<DeliveryListener>()
  readonly #eventListeners = new Set<EventListener>()
  /** Payments with a delivery on the wire: their next one waits. */
  readonly #busyPayments = new Set<string>()
  /** Deliveries being sent outside the queue (resends): the queue leaves them alone. */
  readonly #claimed = new Set<string>()
  /** Deliveries from the queue until logged (sent, or being logged). */
  readonly #inFlight = new Set<Promise<void>>()
  /** Ids of the deliveries in #inFlight: still pending in the outbox, but taken. */
  readonly #taken = new Set<string>()
  /** Queued deliveries waiting for the receiver's answer: at most MAX_CONCURRENT_DELIVERIES. */
  #onTheWire = 0
  /** Of those, per merchant and per receiver origin (entries removed at zero). */
  readonly #wireByMerchant = new Map<string, number>()
  readonly #wireByOrigin = new Map<string, number>()
  /** Receiver origins by URL, so a waiting delivery's URL is not parsed at every pass. */
  readonly #origins = new Map<string, string>()
  /**
   * The oldest pending deliveries not yet taken, in sequence order. Every pending delivery up to
   * #queuedThrough is here or taken: sequences are allocated under the write lock, so a refill
   * reads only newer ones. It is read anew at start and at each poll (another process's changes,
   * a resend that did not finish).
   */
  #queue: WebhookDeliveryRow[] = []
  /** Ids in #queue: a refill may meet deliveries already read past a merchant's share. */
  #queuedIds = new Set<string>()
  #queuedThrough = 0
  #rereadQueue = true
  /** The outbox was read past a full merchant's deliveries since the queue was last read anew. */
  #readPast = false
  readonly #abort = new AbortController()
  /** Exchanges with receivers in progress: cancelled at stop. */
  readonly #exchanges = new Set<DeliveryExchange>()
  #timer: NodeJS.Timeout | undefined
  #pumping: Promise<void> | undefined
  /** A pump is wanted once the current one ends (work arrived while it ran). */
  #pumpAgain = false
  #kickScheduled = false
  #stopListening: (() => void) | undefined
  #eventCursor = 0
  /** One keep-alive connection pool per receiver origin. */
  readonly #pools = new Map<string, Pool>()
  /** Loaded with the first delivery: start-up and an idle sandbox do without it. */
  #undici: Promise<typeof import('undici')> | undefined
  /** Finished deliveries waiting to be logged together, each with who awaits it. */
  #unlogged: Array<{ row: WebhookDeliveryRow; done: (error?: unknown) => void }> = []

  constructor(options: WebhookDispatcherOptions) {
    this.#options = {
      ...options,
      requireHttps: options.requireHttps ?? false,
      egress: options.egress ?? new WebhookEgress(),
      timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      pollMs: options.pollMs ?? DEFAULT_POLL_MS,
    }
  }

  async start(): Promise<void> {
    // Listeners hear of events from now on; deliveries are sent whenever they were queued.
    this.#eventCursor = await lastEventSequence(this.#options.db)
    this.#timer = setInterval(() => {
      this.#rereadQueue = true
      this.kick()
    }, this.#options.pollMs).unref()
    this.#stopListening = onCommit(this.#options.db, () => this.#kickSoon())
    this.kick()
  }

  /** Stops sending; deliveries on the wire are abandoned and stay pending for the next start. */
  async stop(): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
    this.#stopListening?.()
    this.#abort.abort()
    for (const exchange of this.#exchanges) exchange.cancel(new Error('The sandbox is stopping'))
    await this.#pumping
    await Promise.allSettled([...this.#inFlight])
    await Promise.allSettled([...this.#pools.values()].map((pool) => pool.destroy()))
    this.#pools.clear()
  }

  webhookUrlRefusal(url: string): string | undefined {
    return this.#options.egress.urlRefusal(url)
  }

  onDelivery(listener: DeliveryListener): () => void {
    this.#deliveryListeners.add(listener)
    return () => this.#deliveryListeners.delete(listener)
  }

  onEvent(listener: EventListener): () => void {
    this.#eventListeners.add(listener)
    return () => this.#eventListeners.delete(listener)
  }

  /** Looks for new work now rather than at the next poll. */
  kick(): void {
    if (this.#abort.signal.aborted) return
    if (this.#pumping) {
      this.#pumpAgain = true
      return
    }
    this.#pumping = this.#pump()
      .catch((error: unknown) => this.#options.log?.(`Webhook dispatch failed: ${error instanceof Error ? error.message : String(error)}`))
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
    const now = this.#options.clock.now()
    const delivery = await runTransaction(this.#options.db, async (trx) => {
      const row: WebhookDeliveryRow = {
        ...original,
        ...(await newDeliveryIdentity(trx, original.payment_id)),
        status: 'pending',
        response_body: null,
        http_status: null,
        error_message: null,
        attempt_count: original.attempt_count + 1,
        duration_ms: null,
        resend_of: original.id,
        last_attempt_at: null,
        created_at: now,
        updated_at: now,
      }
      this.#claimed.add(row.id)
      await insertDelivery(trx, row)
      return row
    })
    try {
      return await this.#deliver(delivery)
    } finally {
      this.#claimed.delete(delivery.id)
    }
  }

  async #pump(): Promise<void> {
    const { db } = this.#options
    if (this.#eventListeners.size === 0) {
      // Nobody to tell: keep the cursor at the newest event without reading any.
      this.#eventCursor = await lastEventSequence(db)
    } else {
      for (const event of await findEventsAfter(db, this.#eventCursor, BATCH)) {
        this.#eventCursor = event.sequence
        for (const listener of this.#eventListeners) listener(event)
      }
    }
    if (this.#onTheWire >= MAX_CONCURRENT_DELIVERIES) return
    if (this.#rereadQueue) {
      this.#rereadQueue = false
      this.#queue = []
      this.#queuedIds = new Set()
      this.#queuedThrough = 0
      this.#readPast = false
    }
    const merchants = new Map<string, Promise<MerchantRow | undefined>>()
    const merchantOf: MerchantLookup = (id) => {
      let merchant = merchants.get(id)
      if (merchant === undefined) merchants.set(id, (merchant = findMerchantById(db, id)))
      return merchant
    }
    this.#sendFromQueue(merchantOf)
    if (this.#onTheWire >= MAX_CONCURRENT_DELIVERIES) return
    // Slots left and room in the queue: read the newer pending deliveries, and send from them too.
    /** Whether the outbox may hold pending deliveries past #queuedThrough. */
    let more = true
    if (this.#queue.length < QUEUE_SIZE) {
      const limit = QUEUE_SIZE - this.#queue.length
      const newer = await findPendingDeliveriesAfter(db, this.#queuedThrough, limit)
      if (this.#abort.signal.aborted) return
      more = newer.length === limit
      if (newer.length > 0) this.#queuedThrough = newer.at(-1)!.sequence
      if (this.#enqueue(newer)) this.#sendFromQueue(merchantOf)
    }
    // Slots left, but what is queued waits on a full share (a merchant's, or a receiver's) and more
    // is pending: read past those merchants' and those URLs' deliveries for others (the queue keeps
    // its order; #queuedThrough stays). Once per reading of the queue: the read walks the slow
    // receivers' backlog, which may be long.
    if (!more || this.#readPast || this.#onTheWire >= MAX_CONCURRENT_DELIVERIES || this.#queue.length >= MAX_QUEUE_SIZE) return
    const fullMerchants = [...this.#wireByMerchant].filter(([, count]) => count >= MAX_DELIVERIES_PER_MERCHANT).map(([merchantId]) => merchantId)
    const fullUrls = [...new Set(this.#queue.map((d) => d.url))].filter((url) => (this.#wireByOrigin.get(this.#originOf(url)) ?? 0) >= MAX_DELIVERIES_PER_ORIGIN)
    if (fullMerchants.length === 0 && fullUrls.length === 0) return
    this.#readPast = true
    const others = await findPendingDeliveriesAfter(db, this.#queuedThrough, MAX_QUEUE_SIZE - this.#queue.length, { merchants: fullMerchants, urls: fullUrls })
    if (this.#abort.signal.aborted) return
    if (this.#enqueue(others)) this.#sendFromQueue(merchantOf)
  }

  /**
   * Adds deliveries to the queue in sequence order, leaving out those already queued, taken (still
   * pending until logged) or being resent. Whether any was added.
   */
  #enqueue(rows: WebhookDeliveryRow[]): boolean {
    const fresh = rows.filter((row) => !this.#queuedIds.has(row.id) && !this.#taken.has(row.id) && !this.#claimed.has(row.id))
    if (fresh.length === 0) return false
    for (const row of fresh) this.#queuedIds.add(row.id)
    const last = this.#queue.at(-1)
    this.#queue.push(...fresh)
    // Rows read past a merchant's share may be newer than a later refill's: keep sequence order.
    if (last !== undefined && fresh[0]!.sequence < last.sequence) this.#queue.sort((a, b) => a.sequence - b.sequence)
    return true
  }

  /** The origin (scheme, host, port) a delivery goes to; its URL when it has none. */
  #originOf(url: string): string {
    let origin = this.#origins.get(url)
    if (origin === undefined) {
      if (this.#origins.size >= MAX_QUEUE_SIZE * 4) this.#origins.clear()
      origin = URL.canParse(url) ? new URL(url).origin : url
      this.#origins.set(url, origin)
    }
    return origin
  }

  /** Takes what may go from the queue, oldest first, while slots are free. */
  #sendFromQueue(merchantOf: MerchantLookup): void {
    if (this.#queue.length === 0) return
    const waiting: WebhookDeliveryRow[] = []
    /** Payments with an older delivery on the wire or still waiting in this pass. */
    const held = new Set<string>()
    for (const delivery of this.#queue) {
      if (this.#claimed.has(delivery.id)) {
        this.#queuedIds.delete(delivery.id)
        continue
      }
      // Only the oldest pending delivery of a payment may go, only when none is on the wire, and
      // only within its merchant's and its receiver's share.
      if (
        this.#onTheWire >= MAX_CONCURRENT_DELIVERIES ||
        this.#busyPayments.has(delivery.payment_id) ||
        held.has(delivery.payment_id) ||
        (this.#wireByMerchant.get(delivery.merchant_id) ?? 0) >= MAX_DELIVERIES_PER_MERCHANT ||
        (this.#wireByOrigin.get(this.#originOf(delivery.url)) ?? 0) >= MAX_DELIVERIES_PER_ORIGIN
      ) {
        held.add(delivery.payment_id)
        waiting.push(delivery)
        continue
      }
      held.add(delivery.payment_id)
      this.#queuedIds.delete(delivery.id)
      this.#take(delivery, merchantOf)
    }
    this.#queue = waiting
  }

  #take(delivery: WebhookDeliveryRow, merchantOf: MerchantLookup): void {
    this.#busyPayments.add(delivery.payment_id)
    this.#taken.add(delivery.id)
    const origin = this.#originOf(delivery.url)
    this.#onTheWire++
    countIn(this.#wireByMerchant, delivery.merchant_id, 1)
    countIn(this.#wireByOrigin, origin, 1)
    let answered = false
    // The slot is free once the receiver answered; the payment's next delivery waits until this one is logged.
    const freeSlot = () => {
      if (answered) return
      answered = true
      this.#onTheWire--
      countIn(this.#wireByMerchant, delivery.merchant_id, -1)
      countIn(this.#wireByOrigin, origin, -1)
      this.#kickSoon()
    }
    const sending: Promise<void> = this.#deliver(delivery, merchantOf, freeSlot)
      .then(() => undefined)
      .catch((error: unknown) => this.#giveUp(delivery, error))
      .finally(() => {
        freeSlot()
        this.#busyPayments.delete(delivery.payment_id)
        this.#taken.delete(delivery.id)
        this.#inFlight.delete(sending)
        // The payment's next delivery, or another payment's, may go now.
        this.#kickSoon()
      })
    this.#inFlight.add(sending)
  }

  async #deliver(
    delivery: WebhookDeliveryRow,
    merchantOf: MerchantLookup = (id) => findMerchantById(this.#options.db, id),
    answered: () => void = () => {},
  ): Promise<WebhookDeliveryRow> {
    const { clock } = this.#options
    const merchant = await merchantOf(delivery.merchant_id)
    if (!merchant) throw new Error(`Webhook ${delivery.id} belongs to no merchant`)
    const refusal = merchant.webhooks_paused === 1 ? 'Not sent: webhooks are paused for this merchant' : this.#urlRefusal(delivery.url)
    const outcome = refusal !== undefined ? { status: 'skipped' as const, error_message: refusal } : await this.#send(delivery, merchant.api_secret)
    answered()
    if (outcome === undefined) return delivery // stopped mid-send: it stays pending
    const now = clock.now()
    const finished: WebhookDeliveryRow = { ...delivery, ...outcome, updated_at: now, last_attempt_at: refusal === undefined ? now : null }
    await this.#logFinished(finished)
    for (const listener of this.#deliveryListeners) listener(finished)
    return finished
  }

  /**
   * Logs a finished delivery. Those finishing in the same turn of the event loop are written in
   * one transaction (one commit instead of one each); each caller resumes once its row is written.
   */
  #logFinished(row: WebhookDeliveryRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#unlogged.push({ row, done: (error) => (error === undefined ? resolve() : reject(error)) })
      if (this.#unlogged.length > 1) return
      setImmediate(() => {
        const batch = this.#unlogged
        this.#unlogged = []
        runTransaction(this.#options.db, async (trx) => {
            await logDeliveryOutcomes(
              trx,
              batch.map(({ row: finished }) => finished),
            )
          })
          .then(
            () => batch.forEach(({ done }) => done()),
            (error: unknown) => batch.forEach(({ done }) => done(error)),
          )
      })
    })
  }

  /** The connection pool for a receiver's origin, created on first use. */
  async #poolFor(url: URL): Promise<Pool> {
    let pool = this.#pools.get(url.origin)
    if (pool === undefined) {
      const { Pool, buildConnector } = await (this.#undici ??= import('undici'))
      const connect = this.#options.egress.connector(buildConnector)
      pool = this.#pools.get(url.origin) ?? new Pool(url.origin, { connections: MAX_DELIVERIES_PER_ORIGIN, ...(connect ? { connect } : {}) })
      this.#pools.set(url.origin, pool)
    }
    return pool
  }

  /** A delivery that broke the sandbox itself is logged failed, so it is not attempted forever. */
  async #giveUp(delivery: WebhookDeliveryRow, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error)
    this.#options.log?.(`Webhook ${delivery.id} could not be delivered: ${message}`)
    const now = this.#options.clock.now()
    await updateDelivery(this.#options.db, delivery.id, { status: 'failed', error_message: `The sandbox could not send it: ${message}`, updated_at: now }).catch(
      () => {},
    )
  }

  #urlRefusal(url: string): string | undefined {
    const protocol = URL.canParse(url) ? new URL(url).protocol : undefined
    if (protocol !== 'http:' && protocol !== 'https:') return 'Not sent: the webhook URL is not an http(s) URL'
    if (this.#options.requireHttps && protocol !== 'https:') return 'Not sent: the sandbox runs with --require-https and the URL is http'
    const refusal = this.#options.egress.urlRefusal(url)
    return refusal === undefined ? undefined : `Not sent: ${refusal}`
  }

  /** POSTs the stored payload, signed with the merchant's current secret; undefined if stopped meanwhile. */
  async #send(delivery: WebhookDeliveryRow, secret: string) {
    // The receiver's time starts once the connection pool is ready, not while undici loads.
    const url = new URL(delivery.url)
    const pool = await this.#poolFor(url)
    if (this.#abort.signal.aborted) return undefined
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    // One exchange object and one timer per delivery: undici's request() would add a body stream,
    // an async iterator and two AbortSignals (timeout, and any() with the stop signal).
    const exchange = new DeliveryExchange(RESPONSE_BODY_LIMIT_BYTES)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      exchange.cancel(new Error('timed out'))
    }, this.#options.timeoutMs)
    this.#exchanges.add(exchange)
    try {
      // The dispatch API does not follow redirects: a 3xx is the receiver's answer.
      exchange.start(pool, {
        method: 'POST',
        path: `${url.pathname}${url.search}`,
        body: delivery.request_payload,
        headers: {
          'content-type': 'application/json',
          'user-agent': WEBHOOK_USER_AGENT,
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(delivery.request_payload, secret),
        },
      })
      const { status, body } = await exchange.answer
      const ok = status >= 200 && status < 300
      return {
        status: ok ? ('success' as const) : ('failed' as const),
        http_status: status,
        response_body: body,
        error_message: ok ? null : `The receiver answered HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
        duration_ms: elapsed(),
      }
    } catch (error) {
      if (this.#abort.signal.aborted) return undefined
      // Refused before a byte was sent, with the same words whatever listens there: no port scan.
      if (error instanceof EgressRefusedError || (error as { code?: string } | undefined)?.code === 'EWEBHOOKEGRESS') {
        return { status: 'skipped' as const, http_status: null, response_body: null, error_message: `Not sent: ${(error as Error).message}`, duration_ms: null }
      }
      const message = timedOut ? `No answer within ${this.#options.timeoutMs / 1000} s (timed out)` : `Could not deliver: ${describeNetworkError(error)}`
      return { status: 'failed' as const, http_status: null, response_body: null, error_message: message, duration_ms: elapsed() }
    } finally {
      clearTimeout(timer)
      this.#exchanges.delete(exchange)
    }
  }
}

/** Adds `by` to a count in `counts`, dropping it at zero so the map holds only what is on the wire. */
function countIn(counts: Map<string, number>, key: string, by: number): void {
  const count = (counts.get(key) ?? 0) + by
  if (count > 0) counts.set(key, count)
  else counts.delete(key)
}

const utf8 = new TextDecoder('utf-8', { fatal: false })

/**
 * One POST to a receiver through undici's dispatch API: the answer's status and its body as text,
 * cut at `limit` bytes (the rest is not read: the connection is closed instead).
 */
class DeliveryExchange implements Dispatcher.DispatchHandler {
  readonly answer: Promise<{ status: number; body: string }>
  readonly #limit: number
  readonly #chunks: Buffer[] = []
  #size = 0
  #status = 0
  #settled = false
  #abortRequest: ((error?: Error) => void) | undefined
  #cancelled: Error | undefined
  #resolve!: (answer: { status: number; body: string }) => void
  #reject!: (error: unknown) => void

  constructor(limit: number) {
    this.#limit = limit
    this.answer = new Promise((resolve, reject) => {
      this.#resolve = resolve
      this.#reject = reject
    })
  }

  start(pool: Pool, options: Dispatcher.DispatchOptions): void {
    try {
      pool.dispatch(options, this)
    } catch (error) {
      this.onError(error as Error)
    }
  }

  /** Ends the exchange with `error` (timeout, stop), closing the request if it is under way. */
  cancel(error: Error): void {
    if (this.#settled) return
    this.#cancelled = error
    if (this.#abortRequest) this.#abortRequest(error)
    else this.onError(error)
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.#cancelled) abort(this.#cancelled)
    else this.#abortRequest = abort
  }

  onHeaders(statusCode: number): boolean {
    // 1xx answers are interim: the final one follows.
    if (statusCode >= 200) this.#status = statusCode
    return true
  }

  onData(chunk: Buffer): boolean {
    if (this.#settled) return true
    this.#chunks.push(chunk)
    this.#size += chunk.byteLength
    if (this.#size > this.#limit) {
      this.#finish()
      this.#abortRequest?.(new Error('The answer is longer than the log keeps'))
    }
    return true
  }

  onComplete(): void {
    this.#finish()
  }

  onError(error: Error): void {
    if (this.#settled) return
    this.#settled = true
    this.#reject(error)
  }

  #finish(): void {
    if (this.#settled) return
    this.#settled = true
    const bytes = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks)
    // Cut on a character boundary: a partial UTF-8 sequence at the end is dropped.
    this.#resolve({ status: this.#status, body: utf8.decode(bytes.subarray(0, this.#limit)).replace(/\uFFFD$/, '') })
  }
}
