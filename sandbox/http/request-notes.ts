// What the kit notes of a request for the request log (sandbox/request-log/): its id, the merchant
// that signed it, what a refused signature was sent with, and a body read outside Express. The
// log reads them once the response closes; the kit knows nothing of the log.
import { randomUUID } from 'node:crypto'
import type http from 'node:http'
import { REQUEST_ID_HEADER } from '../../src/api/headers.js'

/** The body a refused signature is checked against later, at most (longer ones are not kept for it). */
export const SIGNED_BODY_LIMIT = 16 * 1024

/** A digest signature that matched no form of its request: the inputs, to tell later what differed. */
export interface SignatureMismatch {
  /** The merchant whose API key the request named. */
  merchantId: string
  method: string
  /** Path and query string as sent. */
  originalUrl: string
  timestamp: string
  signature: string
  /** The body as received; undefined when longer than SIGNED_BODY_LIMIT. */
  rawBody: string | undefined
  host: string | undefined
}

/** The merchant each authenticated request was signed by, set by authentication. */
const merchantOf = new WeakMap<http.IncomingMessage, string>()
/** What a refused digest signature was sent with, set by authentication. */
const mismatchOf = new WeakMap<object, SignatureMismatch>()
/** Bodies read outside Express (the fast routes). */
const rawBodyOf = new WeakMap<http.IncomingMessage, string>()

/** Authentication saw a signature that matched no form of `req` (the request or its parts). */
export function noteSignatureMismatch(req: object, mismatch: Omit<SignatureMismatch, 'rawBody'> & { rawBody: string }): void {
  mismatchOf.set(req, { ...mismatch, rawBody: mismatch.rawBody.length <= SIGNED_BODY_LIMIT ? mismatch.rawBody : undefined })
}

/** The body of a request read outside Express, for its record. */
export function noteRequestBody(req: http.IncomingMessage, rawBody: string): void {
  rawBodyOf.set(req, rawBody)
}

/** Records that `req` was signed by `merchantId` (its log record names the merchant). */
export function attributeRequest(req: http.IncomingMessage, merchantId: string): void {
  merchantOf.set(req, merchantId)
}

/** What was noted of `req`: the merchant that signed it, a refused signature, a body read outside Express. */
export function notesOf(req: http.IncomingMessage): { merchantId?: string; signatureMismatch?: SignatureMismatch; rawBody?: string } {
  return { merchantId: merchantOf.get(req), signatureMismatch: mismatchOf.get(req), rawBody: rawBodyOf.get(req) }
}

export const newRequestId = (): string => `req_${randomUUID()}`

/** The id the request log gave the request this response answers, if any. */
export function requestIdOf(res: http.ServerResponse): string | undefined {
  const id = res.getHeader(REQUEST_ID_HEADER)
  return typeof id === 'string' ? id : undefined
}
