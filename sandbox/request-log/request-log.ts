// The sandbox's request log: every HTTP request gets an id (the Request-Id header) and, once its
// response closes, one record (time, method, path, status, duration, merchant, idempotency key),
// kept in a bounded ring of recent records and told to listeners (the log streams, the stderr
// lines of `sandbox start`). Records hold no body, query string or credential. Beside each record,
// for the dashboard's request inspector only: its headers and JSON bodies, redacted and bounded
// (redaction.ts) when the inspector first reads them, and for a signature that did not match, what
// it was sent with. Redacting every request as it closed cost about a tenth of a GET's CPU; few
// are ever inspected, and nothing leaves the process unredacted.
import type http from 'node:http'
import { IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER } from '../../src/api/headers.js'
import type { RequestLogEntry, RequestLogQuery } from '../../src/client/types.js'
import type { Clock } from '../clock.js'
import { REQUEST_LOG_CAPACITY } from '../../src/api/contract/request-logs.js'
import { newRequestId, notesOf, type SignatureMismatch } from '../http/request-notes.js'
import { bounded, redactHeaders, redactText } from './redaction.js'

/** Longer paths and idempotency keys are cut to this many characters in a record. */
const MAX_TEXT = 256

/** Each body shown of a request or response, in characters (after redaction). */
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

/** A request's detail as it was captured: headers and bodies as received and sent, not yet redacted. */
interface Captured {
  headers: http.IncomingHttpHeaders
  requestBody: string | null
  /** The first RESPONSE_CAPTURE_BYTES of a JSON response. */
  responseBody: string | null
  signatureMismatch: SignatureMismatch | undefined
}

/** A record's detail: captured, then redacted and bounded once, when first read. */
class KeptDetail {
  #captured: Captured | undefined
  #shown: RequestDetail | undefined
  #size: number

  constructor(captured: Captured) {
    this.#captured = captured
    let size =
      (captured.requestBody?.length ?? 0) + (captured.responseBody?.length ?? 0) + (captured.signatureMismatch?.rawBody?.length ?? 0)
    for (const [name, value] of Object.entries(captured.headers)) size += name.length + String(value ?? '').length
    this.#size = size
  }

  /** Characters held as captured, counted against LOG_BODY_BUDGET (none once dropped). */
  get size(): number {
    return this.#size
  }

  get signatureMismatch(): SignatureMismatch | undefined {
    return this.#shown?.signatureMismatch ?? this.#captured?.signatureMismatch
  }

  /** What the inspector shows. */
  shown(): RequestDetail {
    if (this.#shown === undefined) {
      const { headers, requestBody, responseBody, signatureMismatch } = this.#captured!
      this.#shown = {
        requestHeaders: redactHeaders(headers, HEADER_LIMITS),
        requestBody: requestBody === null ? null : bounded(redactText(requestBody), BODY_LIMIT),
        responseBody: responseBody === null ? null : bounded(redactText(responseBody), BODY_LIMIT),
        signatureMismatch,
      }
      this.#captured = undefined
    }
    return this.#shown
  }

  /** Over the log's budget: only the record stays. */
  drop(): void {
    const mismatch = this.signatureMismatch
    this.#size = 0
    this.#captured = undefined
    this.#shown = {
      requestHeaders: {},
      requestBody: null,
      responseBody: null,
      signatureMismatch: mismatch && { ...mismatch, rawBody: undefined },
    }
  }
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
    return Buffer.concat(chunks).toString('utf8')
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

/** Which records a look at the log keeps: by their record, and their signature mismatch if any. */
type Matcher = (entry: RequestLogEntry, detail: Pick<RequestDetail, 'signatureMismatch'>) => boolean

export class RequestLog {
  readonly #ring: RequestLogEntry[] = []
  readonly #details: KeptDetail[] = []
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
      const detail = new KeptDetail({
        headers: req.headers,
        requestBody: kept && typeof rawBody === 'string' && rawBody !== '' ? rawBody : null,
        responseBody: responseBody(),
        signatureMismatch: notes.signatureMismatch,
      })
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

  /** The kept records that match, newest first, at most `limit` (their details left unredacted: not read). */
  recent(filter: RequestFilter, limit: number): RequestLogEntry[] {
    return this.#select((entry) => matchesFilter(entry, filter), 0, limit).rows.map(({ entry }) => entry)
  }

  /**
   * The kept records that `matches` accepts (told of their signature mismatch, if any), newest
   * first, with their details: `limit` from `offset`, and how many match.
   */
  inspect(matches: Matcher, offset: number, limit: number): { rows: LoggedRequest[]; total: number } {
    const { rows, total } = this.#select(matches, offset, limit)
    return { rows: rows.map(({ entry, detail }) => ({ entry, detail: detail.shown() })), total }
  }

  #select(matches: Matcher, offset: number, limit: number): { rows: Array<{ entry: RequestLogEntry; detail: KeptDetail }>; total: number } {
    const rows: Array<{ entry: RequestLogEntry; detail: KeptDetail }> = []
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

  #add(detail: KeptDetail, entry: RequestLogEntry): void {
    const replaced = this.#details[this.#next]
    if (replaced) this.#bodyChars -= replaced.size
    this.#ring[this.#next] = entry
    this.#details[this.#next] = detail
    this.#bodyChars += detail.size
    this.#next = (this.#next + 1) % this.capacity
    // Over budget: the oldest records give up their bodies first.
    for (let i = this.#ring.length; i > 1 && this.#bodyChars > LOG_BODY_BUDGET; i--) {
      const old = this.#details[(this.#next - i + this.capacity) % this.capacity]!
      this.#bodyChars -= old.size
      old.drop()
    }
    for (const listener of this.#listeners) listener(entry)
  }
}
