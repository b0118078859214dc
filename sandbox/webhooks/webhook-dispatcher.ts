// Sends queued webhook deliveries (the outbox written by webhook-events.ts), in the background,
// so no API request waits for a receiver. Each payment's deliveries go one at a time, in the
// order of their events; different payments go in parallel. A delivery is sent once: failures
// are logged, not retried (spec 6). Deliveries still pending at stop are sent after the next
// start. Listeners hear of every finished delivery (the live tail) and every new payment event
// (`paybox listen`).
import type { Kysely } from 'kysely'
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
const DEFAULT_POLL_MS = 100
const BATCH = 100

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
  #eventCursor = 0

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
    this.kick()
  }

  /** Stops sending; deliveries on the wire are abandoned and stay pending for the next start. */
  async stop(): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
    this.#abort.abort()
    await this.#pumping
    await Promise.allSettled([...this.#inFlight])
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
    this.#pumping ??= this.#pump()
      .catch((error: unknown) => this.#options.log?.(`Webhook dispatch failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (this.#pumping = undefined))
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
    const claimed = new Set<string>()
    for (const delivery of await findPendingDeliveries(db, BATCH)) {
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
          // The payment's next delivery may go now; let I/O run first.
          setImmediate(() => this.kick())
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
    await updateDelivery(db, delivery.id, finished)
    for (const listener of this.#deliveryListeners) listener(finished)
    return finished
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
    const started = performance.now()
    const timeout = AbortSignal.timeout(this.#options.timeoutMs)
    const signal = AbortSignal.any([timeout, this.#abort.signal])
    const elapsed = () => Math.round(performance.now() - started)
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        body: delivery.request_payload,
        headers: {
          'content-type': 'application/json',
          'user-agent': WEBHOOK_USER_AGENT,
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(delivery.request_payload, secret),
        },
        redirect: 'manual',
        signal,
      })
      const body = await readLimited(response, RESPONSE_BODY_LIMIT_BYTES)
      const ok = response.status >= 200 && response.status < 300
      return {
        status: ok ? ('success' as const) : ('failed' as const),
        http_status: response.status,
        response_body: body,
        error_message: ok ? null : `The receiver answered HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : ''}`,
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
async function readLimited(response: Response, limit: number): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  while (size <= limit) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.byteLength
  }
  await reader.cancel().catch(() => {})
  const bytes = Buffer.concat(chunks)
  // Cut on a character boundary: a partial UTF-8 sequence at the end is dropped.
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, limit)).replace(/\uFFFD$/, '')
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? (error.cause as NodeJS.ErrnoException) : undefined
  if (cause?.code === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED)'
  if (cause?.code === 'ENOTFOUND') return 'host not found (ENOTFOUND)'
  if (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET') return 'the connection was closed before an answer (ECONNRESET)'
  if (cause?.code) return `${cause.message} (${cause.code})`
  return error instanceof Error ? error.message : String(error)
}
