// The sandbox's request log: every HTTP request gets an id (the Request-Id header) and, once its
// response closes, one record (time, method, path, status, duration, merchant, idempotency key),
// kept in a bounded ring of recent records and told to listeners (the log streams, the stderr
// lines of `sandbox start`). Records hold no body, query string or credential.
import { randomUUID } from 'node:crypto'
import type http from 'node:http'
import type { RequestLogEntry, RequestLogQuery } from '../../src/client/types.js'
import type { Clock } from '../clock.js'
import { REQUEST_LOG_CAPACITY } from '../../src/api/requests.js'

export const REQUEST_ID_HEADER = 'Request-Id'
/** Longer paths and idempotency keys are cut to this many characters in a record. */
const MAX_TEXT = 256

/** The merchant each authenticated request was signed by, set by authentication. */
const merchantOf = new WeakMap<http.IncomingMessage, string>()

/** Records that `req` was signed by `merchantId` (its log record names the merchant). */
export function attributeRequest(req: http.IncomingMessage, merchantId: string): void {
  merchantOf.set(req, merchantId)
}

export const newRequestId = (): string => `req_${randomUUID()}`

/** The id track() gave the request this response answers, if any. */
export function requestIdOf(res: http.ServerResponse): string | undefined {
  const id = res.getHeader(REQUEST_ID_HEADER)
  return typeof id === 'string' ? id : undefined
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
    res.once('close', () => {
      const url = req.url ?? ''
      const queryAt = url.indexOf('?')
      const key = req.headers['idempotency-key']
      this.#add({
        requestId,
        time: new Date(arrived).toISOString(),
        method: req.method ?? '',
        path: (queryAt === -1 ? url : url.slice(0, queryAt)).slice(0, MAX_TEXT),
        status: res.headersSent ? res.statusCode : 0,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        merchantId: merchantOf.get(req) ?? null,
        idempotencyKey: typeof key === 'string' ? key.slice(0, MAX_TEXT) : null,
      })
    })
  }

  /** The kept records that match, newest first, at most `limit`. */
  recent(filter: RequestFilter, limit: number): RequestLogEntry[] {
    const found: RequestLogEntry[] = []
    for (let i = 1; i <= this.#ring.length && found.length < limit; i++) {
      const entry = this.#ring[(this.#next - i + this.capacity) % this.capacity]!
      if (matchesFilter(entry, filter)) found.push(entry)
    }
    return found
  }

  /** Calls `listener` with each record from now on; returns what stops it. */
  onRecord(listener: (entry: RequestLogEntry) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  #add(entry: RequestLogEntry): void {
    this.#ring[this.#next] = entry
    this.#next = (this.#next + 1) % this.capacity
    for (const listener of this.#listeners) listener(entry)
  }
}
