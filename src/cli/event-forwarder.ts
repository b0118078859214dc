// What `paybox listen` does with each payment event: POSTs its payload, byte for byte, to a
// local URL, signed exactly as the sandbox signs a webhook, and reports how the receiver answered.
import type { PayboxClient } from '../client/paybox-client.js'
import type { PaymentEvent } from '../client/types.js'
import { signWebhook } from '../signing.js'
import { postWebhook } from '../webhooks/post-webhook.js'

/** As long as the sandbox gives a receiver (spec 6). */
export const FORWARD_TIMEOUT_MS = 10_000

export interface ForwardOutcome {
  /** The receiver's HTTP status; null when it gave no answer. */
  status: number | null
  duration_ms: number
  /** Why there was no answer (refused, timed out…), or null. */
  error: string | null
}

/** What `listen --json` prints for each event, one object per line: the event without its payload, and the outcome. */
export interface ForwardedEvent extends Omit<PaymentEvent, 'payload'>, ForwardOutcome {}

export interface ForwardTarget {
  url: string
  secret: string
  userAgent: string
  /** Ends a forward in progress when the command stops. */
  signal: AbortSignal
}

/** Forwards one payload; undefined if the command was stopped meanwhile. */
export async function forwardPayload(target: ForwardTarget, payload: string): Promise<ForwardOutcome | undefined> {
  const { url, userAgent, signal } = target
  const answer = await postWebhook({
    url,
    body: payload,
    signature: signWebhook(payload, target.secret),
    userAgent,
    timeoutMs: FORWARD_TIMEOUT_MS,
    signal,
  })
  if (answer.status === null && signal.aborted) return undefined
  return { status: answer.status, duration_ms: answer.durationMs, error: answer.error }
}

// A payment whose own webhookUrl is where `listen` forwards would reach the receiver twice. Asked of a
// payment's first event only (one request per new payment).
export async function doubleDeliveryWarning(client: PayboxClient, event: PaymentEvent, forwardTo: string): Promise<string | undefined> {
  if (event.event_type !== 'transaction_created') return undefined
  const { webhookUrl } = await client.payments.get(event.checkout_id).catch(() => ({ webhookUrl: undefined }))
  if (!webhookUrl || !URL.canParse(webhookUrl) || new URL(webhookUrl).href !== new URL(forwardTo).href) return undefined
  return (
    `Warning: payment ${event.checkout_id} sends its webhooks to ${forwardTo} itself, and listen forwards them there too: ` +
    'your receiver gets each of its events twice (use listen or a webhookUrl, not both)'
  )
}
