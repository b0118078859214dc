// What both controls (SQLite: control-server.ts, PostgreSQL: postgres-control-server.ts) do the
// same way: the digest check, the item a POST makes, the answer's size and shape.
import type http from 'node:http'
import { v7 as uuidv7 } from 'uuid'
import { DIGEST_HEADERS, DIGEST_TOLERANCE_SECONDS, signDigest, signaturesMatch } from '../../src/signing.js'

/** What a payment and its event take in SQLite (row text measured on a sandbox database). */
export const CONTROL_ROW_BYTES = 760
/** The size of a created payment's JSON in the bench's POST /payments. */
export const CONTROL_RESPONSE_BYTES = 2048

const filler = 'x'.repeat(CONTROL_RESPONSE_BYTES)

export function answer(res: http.ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

/** The merchant whose key signed the request, if its digest signature is valid and current. */
export function authenticate<M extends { api_secret: string }>(
  req: http.IncomingMessage,
  body: string,
  findMerchant: (apiKey: string) => M | undefined,
): M | undefined {
  const key = req.headers[DIGEST_HEADERS.key]
  const timestamp = req.headers[DIGEST_HEADERS.timestamp]
  const signature = req.headers[DIGEST_HEADERS.signature]
  if (typeof key !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') return undefined
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > DIGEST_TOLERANCE_SECONDS) return undefined
  const merchant = findMerchant(key)
  if (!merchant) return undefined
  const expected = signDigest(merchant.api_secret, { path: req.url ?? '', timestamp, method: req.method ?? '', body })
  return signaturesMatch(expected, signature) ? merchant : undefined
}

/** A body of CONTROL_RESPONSE_BYTES: the item's fields and padding. */
export function resource(id: string, createdAt: number, data: string) {
  const base = { id, createdAt: new Date(createdAt).toISOString(), data: data.slice(0, 64), padding: '' }
  const room = CONTROL_RESPONSE_BYTES - JSON.stringify(base).length
  return { ...base, padding: filler.slice(0, Math.max(0, room)) }
}

/** The row a POST /control/items writes, or a 400 answered and undefined for a body that is not JSON. */
export function newItem(res: http.ServerResponse, body: string): { id: string; now: number; data: string } | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    answer(res, 400, { statusCode: 400, reason: 'Bad Request', message: 'Malformed JSON' })
    return undefined
  }
  const now = Date.now()
  return { id: uuidv7({ msecs: now }), now, data: JSON.stringify(parsed).padEnd(CONTROL_ROW_BYTES, ' ') }
}
