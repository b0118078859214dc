// What `paybox listen` does with each payment event: POSTs its payload, byte for byte, to a
// local URL, signed exactly as the sandbox signs a webhook, and reports how the receiver answered.
import type { PaymentEvent } from '../client/types.js'
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '../signing.js'

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
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const timeout = AbortSignal.timeout(FORWARD_TIMEOUT_MS)
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      body: payload,
      headers: {
        'content-type': 'application/json',
        'user-agent': target.userAgent,
        [WEBHOOK_SIGNATURE_HEADER]: signWebhook(payload, target.secret),
      },
      redirect: 'manual',
      signal: AbortSignal.any([timeout, target.signal]),
    })
    // Read the answer to the end so the connection can be reused; its content does not matter here.
    await response.arrayBuffer()
    return { status: response.status, duration_ms: elapsed(), error: null }
  } catch (error) {
    if (target.signal.aborted) return undefined
    const reason = timeout.aborted ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : describeNetworkError(error)
    return { status: null, duration_ms: elapsed(), error: reason }
  }
}

export function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? (error.cause as NodeJS.ErrnoException) : undefined
  if (cause?.code === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED): is your server running?'
  if (cause?.code === 'ENOTFOUND') return 'host not found (ENOTFOUND)'
  if (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET') return 'the connection was closed before an answer (ECONNRESET)'
  if (cause?.code) return `${cause.message} (${cause.code})`
  return error instanceof Error ? error.message : String(error)
}
