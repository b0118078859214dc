// Sends queued webhook deliveries (the outbox written by webhook-events.ts), in the background,
// so no API request waits for a receiver. Each payment's deliveries go one at a time, in the
// order of their events; different payments go in parallel. A delivery is sent once: failures
// are logged, not retried (spec 6). Deliveries still pending at stop are sent after the next
// start. Listeners hear of every finished delivery (the live tail) and every new payment event
// (`paybox listen`).
// For throughput: the outbox is read as soon as a transaction commits (a slow poll remains for
// writes from another process), at most 10 deliveries are on the wire at once, over one undici
// connection pool per receiver origin, and finished deliveries are logged in one transaction per tick.
import type { Kysely } from 'kysely'
import type { Pool } from 'undici'
import { onCommit } from '../db/database.js'
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '../../src/signing.js'
import type { Clock } from '../clock.js'
import type { Database, PaymentEventRow, WebhookDeliveryRow } from '../db/schema.js'
import { findMerchantById } from '../merchants/merchant-repository.js'
import { newDeliveryIdentity } from './webhook-events.js'
import { findEventsAfter, findPendingDeliveries, insertDelivery, lastEventSequence, updateDelivery } from './webhook-repository.js'

/** The receiver's time to answer (spec 6, 8). */
export const WEBHOOK_TIMEOUT_MS = 10_000
/** How much of a receiver's answer the log keeps. */
export const RESPONSE_BODY_LIMIT_BYTES = 4096
export const WEBHOOK_USER_AGENT = 'paybox-sandbox-webhooks/1.0'
/** The safety net: commits in this process kick the dispatcher at once; another process's are seen by polling. */
const DEFAULT_POLL_MS = 250
const BATCH = 100
/** Deliveries on the wire at once, across all receivers. */
export const MAX_CONCURRENT_DELIVERIES = 10

export interface WebhookDispatcherOptions {
  db: Kysely<Database>
  /** Business time, for the log's timestamps. */
  clock: Clock
  /** Refuse (skip) plain-http URLs. */
  requireHttps?: boolean
  timeoutMs?: number
  /** How often the outbox is read for new work. */
  pollMs?: number
  log?: (line: string) => void
}

export type DeliveryListener = (delivery: WebhookDeliveryRow) => void
export type EventListener = (event: PaymentEventRow) => void

export class WebhookDispatcher {
  readonly #options: Required<Omit<WebhookDispatcherOptions, 'log'>> & Pick<WebhookDispatcherOptions, 'log'>
  readonly #deliveryListeners = new Set<DeliveryListener>()
  readonly #eventListeners = new Set<EventListener>()
  /** Payments with a delivery on the wire: their next one waits. */
  readonly #busyPayments = new Set<string>()
  /** Deliveries being sent outside the queue (resends): the queue leaves them alone. */
  readonly #claimed = new Set<string>()
  readonly #inFlight = new Set<Promise<void>>()
  readonly #abort = new AbortController()
  #timer: NodeJS.Timeout | undefined
  #pumping: Promise<void> | undefined
  /** A pump is wanted once the current one ends (work arrived while it ran). */
  #pumpAgain = false
  #kickScheduled = false
  #stopListening: (() => void) | undefined
  #eventCursor = 0
  /** One keep-alive connection pool per receiver origin. */
  readonly #pools = new Map<string, Pool>()
  #undici: Promise<typeof import('undici')> | undefined
  /** Finished deliveries waiting to be logged together, each with who awaits it. */
  #unlogged: Array<{ row: WebhookDeliveryRow; done: (error?: unknown) => void }> = []

  constructor(options: WebhookDispatcherOptions) {
    this.#options = {
      ...options,
      requireHttps: options.requireHttps ?? false,
      timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      pollMs: options.pollMs ?? DEFAULT_POLL_MS,
    }
  }

  async start(): Promise<void> {
    // Listeners hear of events from now on; deliveries are sent whenever they were queued.
    this.#eventCursor = await lastEventSequence(this.#options.db)
    this.#timer = setInterval(() => this.kick(), this.#options.pollMs).unref()
    this.#stopListening = onCommit(this.#options.db, () => this.#kickSoon())
    // Loads undici in the background: the first delivery need not wait, nor start-up either.
    this.#undici ??= import('undici')
    this.#undici.catch(() => {})
    this.kick()
  }

  /** Stops sending; deliveries on the wire are abandoned and stay pending for the next start. */
  async stop(): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
    this.#stopListening?.()
    this.#abort.abort()
    await this.#pumping
    await Promise.allSettled([...this.#inFlight])
    await Promise.allSettled([...this.#pools.values()].map((pool) => pool.destroy()))
    this.#pools.clear()
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

  /**
   * Replays a delivery: its stored payload, byte for byte, to the same URL, signed with the
   * merchant's current secret, as a new delivery sent now. Returns the new log entry.
   */
  async resend(original: WebhookDeliveryRow): Promise<WebhookDeliveryRow> {
    const now = this.#options.clock.now()
    const delivery = await this.#options.db.transaction().execute(async (trx) => {
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
    for (const event of await findEventsAfter(db, this.#eventCursor, BATCH)) {
      this.#eventCursor = event.sequence
      for (const listener of this.#eventListeners) listener(event)
    }
    if (this.#inFlight.size >= MAX_CONCURRENT_DELIVERIES) return
    const claimed = new Set<string>()
    // The oldest few: those on the wire (still pending) and enough to fill the free slots.
    for (const delivery of await findPendingDeliveries(db, this.#inFlight.size + this.#claimed.size + 2 * MAX_CONCURRENT_DELIVERIES)) {
      if (this.#inFlight.size >= MAX_CONCURRENT_DELIVERIES) break
      if (this.#claimed.has(delivery.id)) continue
      // Only the oldest pending delivery of a payment may go, and only when none is on the wire.
      if (this.#busyPayments.has(delivery.payment_id) || claimed.has(delivery.payment_id)) {
        claimed.add(delivery.payment_id)
        continue
      }
      claimed.add(delivery.payment_id)
      this.#busyPayments.add(delivery.payment_id)
      const sending: Promise<void> = this.#deliver(delivery)
        .then(() => undefined)
        .catch((error: unknown) => this.#giveUp(delivery, error))
        .finally(() => {
          this.#busyPayments.delete(delivery.payment_id)
          this.#inFlight.delete(sending)
          // The payment's next delivery, or another payment's, may go now.
          this.#kickSoon()
        })
      this.#inFlight.add(sending)
    }
  }

  async #deliver(delivery: WebhookDeliveryRow): Promise<WebhookDeliveryRow> {
    const { db, clock } = this.#options
    const merchant = await findMerchantById(db, delivery.merchant_id)
    if (!merchant) throw new Error(`Webhook ${delivery.id} belongs to no merchant`)
    const refusal = merchant.webhooks_paused === 1 ? 'Not sent: webhooks are paused for this merchant' : this.#urlRefusal(delivery.url)
    const outcome = refusal !== undefined ? { status: 'skipped' as const, error_message: refusal } : await this.#send(delivery, merchant.api_secret)
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
        this.#options.db
          .transaction()
          .execute(async (trx) => {
            for (const { row: finished } of batch) await updateDelivery(trx, finished.id, finished)
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
      const { Pool } = await (this.#undici ??= import('undici'))
      pool = this.#pools.get(url.origin) ?? new Pool(url.origin, { connections: MAX_CONCURRENT_DELIVERIES })
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
    return undefined
  }

  /** POSTs the stored payload, signed with the merchant's current secret; undefined if stopped meanwhile. */
  async #send(delivery: WebhookDeliveryRow, secret: string) {
    // The receiver's time starts once the connection pool is ready, not while undici loads.
    const url = new URL(delivery.url)
    const pool = await this.#poolFor(url)
    const started = performance.now()
    const timeout = AbortSignal.timeout(this.#options.timeoutMs)
    const signal = AbortSignal.any([timeout, this.#abort.signal])
    const elapsed = () => Math.round(performance.now() - started)
    try {
      // undici's request does not follow redirects: a 3xx is the receiver's answer.
      const response = await pool.request({
        method: 'POST',
        path: `${url.pathname}${url.search}`,
        body: delivery.request_payload,
        headers: {
          'content-type': 'application/json',
          'user-agent': WEBHOOK_USER_AGENT,
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(delivery.request_payload, secret),
        },
        signal,
      })
      const body = await readLimited(response.body, RESPONSE_BODY_LIMIT_BYTES)
      const status = response.statusCode
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
      const message = timeout.aborted
        ? `No answer within ${this.#options.timeoutMs / 1000} s (timed out)`
        : `Could not deliver: ${describeNetworkError(error)}`
      return { status: 'failed' as const, http_status: null, response_body: null, error_message: message, duration_ms: elapsed() }
    }
  }
}

/** The response body as text, cut at `limit` bytes; the rest is not read. */
async function readLimited(body: AsyncIterable<Buffer> & { destroy(): unknown }, limit: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    chunks.push(chunk)
    size += chunk.byteLength
    if (size > limit) break
  }
  // Breaking out of the loop destroys the stream; an answer read to the end frees the connection.
  body.destroy()
  const bytes = Buffer.concat(chunks)
  // Cut on a character boundary: a partial UTF-8 sequence at the end is dropped.
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, limit)).replace(/\uFFFD$/, '')
}

function describeNetworkError(error: unknown): string {
  // undici's request reports socket errors directly; fetch wrapped them in `cause`.
  const cause =
    error instanceof Error && error.cause instanceof Error
      ? (error.cause as NodeJS.ErrnoException)
      : error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string'
        ? (error as NodeJS.ErrnoException)
        : undefined
  if (cause?.code === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED)'
  if (cause?.code === 'ENOTFOUND') return 'host not found (ENOTFOUND)'
  if (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET') return 'the connection was closed before an answer (ECONNRESET)'
  if (cause?.code) return `${cause.message} (${cause.code})`
  return error instanceof Error ? error.message : String(error)
}
