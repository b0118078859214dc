// The sandbox's request log: every HTTP request gets an id (the Request-Id header) and, once its
// response closes, one record (time, method, path, status, duration, merchant, idempotency key),
// kept in a bounded ring of recent records and told to listeners (the log streams, the stderr
// lines of `sandbox start`). Records hold no body, query string or credential. Beside each record,
// for the dashboard's request inspector only: its headers and JSON bodies, redacted and bounded
// (redaction.ts), and for a signature that did not match, what it was sent with.
import type http from 'node:http'
import { IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER } from '../../src/api/headers.js'
import type { RequestLogEntry, RequestLogQuery } from '../../src/client/types.js'
import type { Clock } from '../clock.js'
import { REQUEST_LOG_CAPACITY } from '../../src/api/contract/request-logs.js'
import { newRequestId, notesOf, type SignatureMismatch } from '../http/request-notes.js'
import { bounded, redactHeaders, redactText } from './redaction.js'

/** Longer paths and idempotency keys are cut to this many characters in a record. */
const MAX_TEXT = 256

/** Each body kept of a request or response, in characters (after redaction). */
export const BODY_LIMIT = 4096
/** A response is read this far for redaction before being cut to BODY_LIMIT. */
const RESPONSE_CAPTURE_BYTES = 16 * 1024
/** Body and header text the whole log keeps; past it, the oldest records lose theirs first. */
export const LOG_BODY_BUDGET = 4 * 1024 * 1024
const HEADER_LIMITS = { count: 40, length: 256 }
/** The dashboard's own pages and forms carry session tokens: their bodies are never kept. */
const UNKEPT_PATH = /^\/dashboard(\/|$)/

/** What the request inspector shows besides the record: redacted, bounded. */
export interface RequestDetail {
  requestHeaders: Record<string, string>
  requestBody: string | null
  responseBody: string | null
  signatureMismatch: SignatureMismatch | undefined
}

export interface LoggedRequest {
  entry: RequestLogEntry
  detail: RequestDetail
}

const sizeOf = (detail: RequestDetail): number => {
  let size = (detail.requestBody?.length ?? 0) + (detail.responseBody?.length ?? 0) + (detail.signatureMismatch?.rawBody?.length ?? 0)
  for (const [name, value] of Object.entries(detail.requestHeaders)) size += name.length + value.length
  return size
}

/** Collects the first bytes of a JSON response as it is written. */
function captureResponse(res: http.ServerResponse): () => string | null {
  const chunks: Buffer[] = []
  let size = 0
  const keep = (chunk: unknown, encoding: unknown) => {
    if (size >= RESPONSE_CAPTURE_BYTES || chunk === undefined || chunk === null || typeof chunk === 'function') return
    const buffer =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array)
    chunks.push(buffer.subarray(0, RESPONSE_CAPTURE_BYTES - size))
    size += buffer.byteLength
  }
  const { write, end } = res
  res.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0])
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest)
  } as typeof res.write
  res.end = function (this: http.ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0])
    return (end as (...args: unknown[]) => http.ServerResponse).call(this, chunk, ...rest)
  } as typeof res.end
  return () => {
    const type = String(res.getHeader('content-type') ?? '')
    if (!/json/i.test(type) || chunks.length === 0) return null
    const text = Buffer.concat(chunks).toString('utf8')
    return bounded(redactText(text), BODY_LIMIT)
  }
}

export interface RequestFilter extends RequestLogQuery {
  /** Only this merchant's requests; undefined for all of them. */
  merchantId?: string
}

export function matchesFilter(entry: RequestLogEntry, filter: RequestFilter): boolean {
  if (filter.merchantId !== undefined && entry.merchantId !== filter.merchantId) return false
  if (filter.status !== undefined) {
    const status = String(entry.status)
    if (filter.status.endsWith('xx') ? status[0] !== filter.status[0] : status !== filter.status) return false
  }
  if (filter.path !== undefined) {
    const prefix = filter.path.endsWith('/') ? filter.path : `${filter.path}/`
    if (entry.path !== filter.path && !entry.path.startsWith(prefix)) return false
  }
  return true
}

export class RequestLog {
  readonly #ring: RequestLogEntry[] = []
  readonly #details: RequestDetail[] = []
  #bodyChars = 0
  #next = 0
  readonly #listeners = new Set<(entry: RequestLogEntry) => void>()

  constructor(
    private readonly wallClock: Clock,
    private readonly capacity = REQUEST_LOG_CAPACITY,
  ) {}

  /** Gives the request its id (answered in the Request-Id header) and records it when its response closes. */
  track(req: http.IncomingMessage, res: http.ServerResponse): void {
    const requestId = newRequestId()
    const arrived = this.wallClock.now()
    const started = performance.now()
    res.setHeader(REQUEST_ID_HEADER, requestId)
    const kept = !UNKEPT_PATH.test(req.url ?? '')
    const responseBody = kept ? captureResponse(res) : () => null
    res.once('close', () => {
      const url = req.url ?? ''
      const queryAt = url.indexOf('?')
      const key = req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]
      const notes = notesOf(req)
      const rawBody = notes.rawBody ?? (req as { rawBody?: unknown }).rawBody
      const detail: RequestDetail = {
        requestHeaders: redactHeaders(req.headers, HEADER_LIMITS),
        requestBody: kept && typeof rawBody === 'string' && rawBody !== '' ? bounded(redactText(rawBody), BODY_LIMIT) : null,
        responseBody: responseBody(),
        signatureMismatch: notes.signatureMismatch,
      }
      this.#add(detail, {
        requestId,
        time: new Date(arrived).toISOString(),
        method: req.method ?? '',
        path: (queryAt === -1 ? url : url.slice(0, queryAt)).slice(0, MAX_TEXT),
        status: res.headersSent ? res.statusCode : 0,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        merchantId: notes.merchantId ?? null,
        idempotencyKey: typeof key === 'string' ? key.slice(0, MAX_TEXT) : null,
      })
    })
  }

  /** The kept records that match, newest first, at most `limit`. */
  recent(filter: RequestFilter, limit: number): RequestLogEntry[] {
    return this.inspect((entry) => matchesFilter(entry, filter), 0, limit).rows.map(({ entry }) => entry)
  }

  /** The kept records that `matches` accepts, newest first, with their details: `limit` from `offset`, and how many match. */
  inspect(matches: (entry: RequestLogEntry, detail: RequestDetail) => boolean, offset: number, limit: number) {
    const rows: LoggedRequest[] = []
    let total = 0
    for (let i = 1; i <= this.#ring.length; i++) {
      const at = (this.#next - i + this.capacity) % this.capacity
      const [entry, detail] = [this.#ring[at]!, this.#details[at]!]
      if (!matches(entry, detail)) continue
      if (total >= offset && rows.length < limit) rows.push({ entry, detail })
      total++
    }
    return { rows, total }
  }

  /** One kept record by its request id, with its detail. */
  find(requestId: string): LoggedRequest | undefined {
    return this.inspect((entry) => entry.requestId === requestId, 0, 1).rows[0]
  }

  /** Calls `listener` with each record from now on; returns what stops it. */
  onRecord(listener: (entry: RequestLogEntry) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  #add(detail: RequestDetail, entry: RequestLogEntry): void {
    const replaced = this.#details[this.#next]
    if (replaced) this.#bodyChars -= sizeOf(replaced)
    this.#ring[this.#next] = entry
    this.#details[this.#next] = detail
    this.#bodyChars += sizeOf(detail)
    this.#next = (this.#next + 1) % this.capacity
    // Over budget: the oldest records give up their bodies first.
    for (let i = this.#ring.length; i > 1 && this.#bodyChars > LOG_BODY_BUDGET; i--) {
      const old = this.#details[(this.#next - i + this.capacity) % this.capacity]!
      this.#bodyChars -= sizeOf(old)
      Object.assign(old, {
        requestHeaders: {},
        requestBody: null,
        responseBody: null,
        signatureMismatch: old.signatureMismatch && { ...old.signatureMismatch, rawBody: undefined },
      })
    }
    for (const listener of this.#listeners) listener(entry)
  }
}
