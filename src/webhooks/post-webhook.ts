// One webhook POST as the sandbox makes it (no redirects followed, a deadline, the answer read to its
// end), for `paybox listen` and `paybox webhooks test-receiver`.
import { WEBHOOK_SIGNATURE_HEADER } from '../signing.js'

export interface WebhookPost {
  url: string
  body: string
  /** The X-WEBHOOK-AUTH header; undefined sends none. */
  signature: string | undefined
  userAgent: string
  timeoutMs: number
  /** Ends the request early (the command stopping); the answer then has no status. */
  signal?: AbortSignal
  /** What sends it (default: the global fetch); a shared sandbox passes one bound to its egress rule. */
  fetch?: typeof fetch
}

export interface WebhookAnswer {
  /** The receiver's HTTP status; null when there was no answer. */
  status: number | null
  durationMs: number
  /** Why there was no answer (refused, dropped, timed out…), or null. */
  error: string | null
}

export async function postWebhook(post: WebhookPost): Promise<WebhookAnswer> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const timeout = AbortSignal.timeout(post.timeoutMs)
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': post.userAgent }
  if (post.signature !== undefined) headers[WEBHOOK_SIGNATURE_HEADER] = post.signature
  try {
    const signal = post.signal ? AbortSignal.any([timeout, post.signal]) : timeout
    const response = await (post.fetch ?? fetch)(post.url, { method: 'POST', body: post.body, headers, redirect: 'manual', signal })
    // Read the answer to its end: until then the receiver has not finished answering, and the
    // connection cannot be reused.
    await response.arrayBuffer()
    return { status: response.status, durationMs: elapsed(), error: null }
  } catch (error) {
    const reason = timeout.aborted
      ? `no answer within ${formatSeconds(post.timeoutMs)}`
      : describeNetworkError(error, ': is your server running?')
    return { status: null, durationMs: elapsed(), error: reason }
  }
}

const formatSeconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`

/** The socket error under a failed request: undici's request reports it directly, fetch in `cause`. */
function socketErrorOf(error: unknown): NodeJS.ErrnoException | undefined {
  if (!(error instanceof Error)) return undefined
  if (error.cause instanceof Error) return error.cause as NodeJS.ErrnoException
  return typeof (error as NodeJS.ErrnoException).code === 'string' ? (error as NodeJS.ErrnoException) : undefined
}

/** In the same words as the sandbox's delivery log; `refusedHint` follows a refused connection. */
export function describeNetworkError(error: unknown, refusedHint = ''): string {
  const cause = socketErrorOf(error)
  if (cause?.code === 'ECONNREFUSED') return `connection refused (ECONNREFUSED)${refusedHint}`
  if (cause?.code === 'ENOTFOUND') return 'host not found (ENOTFOUND)'
  if (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET') return 'the connection was closed before an answer (ECONNRESET)'
  if (cause?.code) return `${cause.message} (${cause.code})`
  return error instanceof Error ? error.message : String(error)
}
