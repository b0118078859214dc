// Makes one attempt at a webhook delivery: decides whether it may go (paused merchant, URL,
// egress), then POSTs the stored payload, signed, over one keep-alive pool per receiver origin.
import type { Pool } from 'undici'
import { WEBHOOK_DELIVERY_ID_HEADER } from '../../src/api/headers.js'
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '../../src/signing.js'
import { describeNetworkError } from '../../src/webhooks/post-webhook.js'
import type { MerchantRow, WebhookDeliveryRow } from '../db/schema.js'
import { DeliveryExchange } from './delivery-exchange.js'
import { EgressRefusedError, type WebhookEgress } from './webhook-egress.js'

/** The receiver's time to answer (spec 6, 8). */
export const WEBHOOK_TIMEOUT_MS = 10_000
export const RESPONSE_BODY_LIMIT_BYTES = 4096
export const WEBHOOK_USER_AGENT = 'paybox-sandbox-webhooks/1.0'
/** Deliveries to one receiver origin at once (its connection pool's size). */
export const MAX_DELIVERIES_PER_ORIGIN = 10

/** The headers a delivery is sent with: what the receiver gets, and what the dashboard shows. */
export function deliveryHeaders(delivery: Pick<WebhookDeliveryRow, 'id' | 'request_payload'>, secret: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    [WEBHOOK_SIGNATURE_HEADER]: signWebhook(delivery.request_payload, secret),
    [WEBHOOK_DELIVERY_ID_HEADER]: delivery.id,
  }
}

export interface WebhookSenderOptions {
  requireHttps?: boolean
  timeoutMs?: number
}

/** What one attempt changes in the delivery's log entry; `tried`: it went to the network (not refused beforehand). */
export type AttemptOutcome = Pick<WebhookDeliveryRow, 'status' | 'http_status' | 'response_body' | 'error_message' | 'duration_ms'> & {
  tried: boolean
}

export class WebhookSender {
  readonly #requireHttps: boolean
  readonly #timeoutMs: number

  get timeoutMs(): number {
    return this.#timeoutMs
  }
  readonly #abort = new AbortController()
  readonly #exchanges = new Set<DeliveryExchange>()
  /** By egress rule and origin: a pool's connector enforces the rule it was made with. */
  readonly #pools = new Map<WebhookEgress, Map<string, Pool>>()
  /** Loaded with the first delivery: start-up and an idle sandbox do without it. */
  #undici: Promise<typeof import('undici')> | undefined
  /** Connections of receiverFetch() by egress rule, checked like deliveries'. */
  readonly #receiverAgents = new Map<WebhookEgress, import('undici').Agent>()

  constructor(options: WebhookSenderOptions = {}) {
    this.#requireHttps = options.requireHttps ?? false
    this.#timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS
  }

  get stopped(): boolean {
    return this.#abort.signal.aborted
  }

  /**
   * Undefined when the sender stopped meanwhile: the delivery stays pending. `egress`: the
   * sandbox's stored rule as it is now, checked on the URL and on the address connected to.
   */
  async attempt(delivery: WebhookDeliveryRow, merchant: MerchantRow, egress: WebhookEgress): Promise<AttemptOutcome | undefined> {
    const refusal =
      merchant.webhooks_paused === 1 ? 'Not sent: webhooks are paused for this merchant' : this.#urlRefusal(delivery.url, egress)
    if (refusal !== undefined)
      return { status: 'skipped', http_status: null, response_body: null, error_message: refusal, duration_ms: null, tried: false }
    return this.#send(delivery, merchant.api_secret, egress)
  }

  /** Stops sending: exchanges under way end as abandoned (undefined outcomes). */
  stop(): void {
    this.#abort.abort()
    for (const exchange of this.#exchanges) exchange.cancel(new Error('The sandbox is stopping'))
  }

  /** The global fetch, or under a shared rule undici's over connections `egress` checks once connected (no DNS rebinding). */
  async receiverFetch(egress: WebhookEgress): Promise<typeof fetch> {
    if (!egress.shared) return fetch
    const undici = await (this.#undici ??= import('undici'))
    const connect = egress.connector(undici.buildConnector)
    let agent = this.#receiverAgents.get(egress)
    if (agent === undefined) this.#receiverAgents.set(egress, (agent = new undici.Agent(connect ? { connect } : {})))
    return ((input: string, init?: RequestInit) =>
      undici.fetch(input, { ...(init as Parameters<typeof undici.fetch>[1]), dispatcher: agent })) as unknown as typeof fetch
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#receiverAgents.values()].map((agent) => agent.destroy()))
    this.#receiverAgents.clear()
    await Promise.allSettled([...this.#pools.values()].flatMap((pools) => [...pools.values()].map((pool) => pool.destroy())))
    this.#pools.clear()
  }

  #urlRefusal(url: string, egress: WebhookEgress): string | undefined {
    const protocol = URL.canParse(url) ? new URL(url).protocol : undefined
    if (protocol !== 'http:' && protocol !== 'https:') return 'Not sent: the webhook URL is not an http(s) URL'
    if (this.#requireHttps && protocol !== 'https:') return 'Not sent: the sandbox runs with --require-https and the URL is http'
    const refusal = egress.urlRefusal(url)
    return refusal === undefined ? undefined : `Not sent: ${refusal}`
  }

  async #poolFor(url: URL, egress: WebhookEgress): Promise<Pool> {
    let pools = this.#pools.get(egress)
    if (pools === undefined) this.#pools.set(egress, (pools = new Map()))
    let pool = pools.get(url.origin)
    if (pool === undefined) {
      const { Pool, buildConnector } = await (this.#undici ??= import('undici'))
      const connect = egress.connector(buildConnector)
      pool = pools.get(url.origin) ?? new Pool(url.origin, { connections: MAX_DELIVERIES_PER_ORIGIN, ...(connect ? { connect } : {}) })
      pools.set(url.origin, pool)
    }
    return pool
  }

  async #send(delivery: WebhookDeliveryRow, secret: string, egress: WebhookEgress): Promise<AttemptOutcome | undefined> {
    // The receiver's time starts once the connection pool is ready, not while undici loads.
    const url = new URL(delivery.url)
    const pool = await this.#poolFor(url, egress)
    if (this.stopped) return undefined
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const exchange = new DeliveryExchange(RESPONSE_BODY_LIMIT_BYTES)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      exchange.cancel(new Error('timed out'))
    }, this.#timeoutMs)
    this.#exchanges.add(exchange)
    try {
      // The dispatch API does not follow redirects: a 3xx is the receiver's answer.
      exchange.start(pool, {
        method: 'POST',
        path: `${url.pathname}${url.search}`,
        body: delivery.request_payload,
        headers: deliveryHeaders(delivery, secret),
      })
      const { status, body } = await exchange.answer
      const ok = status >= 200 && status < 300
      return {
        status: ok ? 'success' : 'failed',
        http_status: status,
        response_body: body,
        error_message: ok
          ? null
          : `The receiver answered HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
        duration_ms: elapsed(),
        tried: true,
      }
    } catch (error) {
      if (this.stopped) return undefined
      // Refused before a byte was sent, with the same words whatever listens there: no port scan.
      if (error instanceof EgressRefusedError || (error as { code?: string } | undefined)?.code === 'EWEBHOOKEGRESS') {
        return {
          status: 'skipped',
          http_status: null,
          response_body: null,
          error_message: `Not sent: ${(error as Error).message}`,
          duration_ms: null,
          tried: true,
        }
      }
      const message = timedOut
        ? `No answer within ${this.#timeoutMs / 1000} s (timed out)`
        : `Could not deliver: ${describeNetworkError(error)}`
      return { status: 'failed', http_status: null, response_body: null, error_message: message, duration_ms: elapsed(), tried: true }
    } finally {
      clearTimeout(timer)
      this.#exchanges.delete(exchange)
    }
  }
}
