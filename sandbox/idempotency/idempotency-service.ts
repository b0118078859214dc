// Idempotency-Key semantics (spec 4.1), for every money-moving POST (payments, refunds,
// simulated pays, accept-underpayment, escrow release, deposits): a replay returns the original
// response byte for byte and moves nothing; a reuse with a different request (another body, or
// another endpoint) is 422; a key whose first request is still running is 409: in this process,
// or on any replica of a PostgreSQL sandbox, whose transaction claims the key as its first
// statement (an advisory lock, tried without waiting, that ends with the transaction).
//
// The lookup, the work and the stored response commit in one transaction, so across SQLite
// processes sharing a file a second request waits for the first and then replays it, and a crash
// can never leave a key that claims a response which was not stored. The key's row (primary key
// merchant and key) is the backstop: a twin that stored it first is replayed, never a 500. Keys
// are kept forever (the spec asks for at least 24 hours); a sandbox database is disposable.
import { createHash } from 'node:crypto'
import type http from 'node:http'
import type { Kysely } from 'kysely'
import { IDEMPOTENCY_KEY_HEADER } from '../../src/api/headers.js'
import type { Database, IdempotencyKeysTable } from '../db/schema.js'
import { ApiError, badRequest } from '../errors.js'
import { findIdempotencyRecord, idempotencyRecordLookup, insertIdempotencyRecord, storedByTwin } from './idempotency-repository.js'
import { ClaimTakenError, runTransaction } from '../db/database.js'

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255
export const IN_FLIGHT_REASON = 'A request with this Idempotency-Key is already being processed'
export const REUSED_REASON = 'Idempotency-Key reused for a different request'

export interface StoredResponse {
  status: number
  body: string
}

/**
 * JSON with object keys sorted (by UTF-16 code units, as Array.prototype.sort orders strings),
 * so that key order does not make two requests differ. Built by appending: it runs on every
 * request with an Idempotency-Key.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) {
    let text = '['
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ',') + canonicalJson(value[i])
    return `${text}]`
  }
  const object = value as Record<string, unknown>
  let text = ''
  for (const key of Object.keys(object).sort()) {
    const item = object[key]
    if (item !== undefined) text += `,${JSON.stringify(key)}:${canonicalJson(item)}`
  }
  return `{${text.slice(1)}}`
}

export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex')
}

/** The request's Idempotency-Key header, if it sent one; a malformed one is a 400. */
export function idempotencyKey(headers: http.IncomingHttpHeaders): string | undefined {
  const key = headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]
  if (key === undefined) return undefined
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw badRequest(`${IDEMPOTENCY_KEY_HEADER} must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`)
  }
  return key
}

/** A POST that may carry an Idempotency-Key, as the gate needs to know it. */
export interface IdempotentRequest {
  merchantId: string
  headers: http.IncomingHttpHeaders
  /** The path without its query string: part of what a replay must repeat. */
  path: string
  /** The parsed JSON body (undefined when none was sent). */
  body: unknown
}

const inFlight = () => new ApiError(409, IN_FLIGHT_REASON, 'Retry after the first request has finished')

/** The stored answer of the key's first request, for a request with `fingerprint`: its replay, or 422 if it differs. */
function replay(stored: IdempotencyKeysTable, fingerprint: string): StoredResponse {
  if (stored.request_hash !== fingerprint) {
    throw new ApiError(422, REUSED_REASON, 'This Idempotency-Key was first used with a different request body')
  }
  return { status: stored.response_status, body: stored.response_body }
}

/** The key's row was stored by a twin between this transaction's lookup and its insert: this one's work is undone. */
class StoredMeanwhile extends Error {}

export class IdempotencyGate {
  readonly #inFlight = new Set<string>()

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Answers a POST once per key: without an Idempotency-Key, `work` simply runs in a
   * transaction; with one, as `run` says. Validate the body before: a refused request stores nothing.
   * `writesOnly`: `work` reads nothing in the database, only writes (creating a payment), so that a
   * stored answer is rare enough to be found at COMMIT instead of looked up first (`run`).
   */
  answer(
    request: IdempotentRequest,
    now: number,
    work: (trx: Kysely<Database>) => Promise<StoredResponse>,
    options: { writesOnly?: boolean } = {},
  ): Promise<StoredResponse> {
    const key = idempotencyKey(request.headers)
    if (key === undefined) return runTransaction(this.db, work)
    return this.run(request.merchantId, key, requestFingerprint('POST', request.path, request.body), now, work, options)
  }

  /**
   * Runs `work` once per (merchant, key): the first call's response is stored in the same
   * transaction as whatever `work` wrote, and later calls with the same fingerprint get it back.
   * `writesOnly` (PostgreSQL): the claim goes with the writes and the COMMIT, one round trip in
   * all, and the lookup is skipped: a stored answer fails the COMMIT on the key's primary key,
   * undoing the work, and is replayed from there (at the cost of work done and undone).
   */
  async run(
    merchantId: string,
    key: string,
    fingerprint: string,
    now: number,
    work: (trx: Kysely<Database>) => Promise<StoredResponse>,
    options: { writesOnly?: boolean } = {},
  ): Promise<StoredResponse> {
    const slot = `${merchantId}:${key}`
    if (this.#inFlight.has(slot)) throw inFlight()
    this.#inFlight.add(slot)
    try {
      // The claim: a twin in flight on another replica of a shared database is a 409 too.
      return await runTransaction(
        this.db,
        async (trx) => {
          const existing = await findIdempotencyRecord(trx, merchantId, key)
          if (existing) return replay(existing, fingerprint)
          const response = await work(trx)
          const stored = await insertIdempotencyRecord(trx, {
            merchant_id: merchantId,
            key,
            request_hash: fingerprint,
            response_status: response.status,
            response_body: response.body,
            created_at: now,
          })
          if (!stored) throw new StoredMeanwhile()
          return response
        },
        // The lookup goes with the claim; a twin that stored its row just before the claim was
        // granted is caught by the row's primary key (storedByTwin), as a writer without a claim is.
        {
          claim: `idempotency:${slot}`,
          prefetch: idempotencyRecordLookup(this.db, merchantId, key),
          writesOnly: options.writesOnly === true,
        },
      )
    } catch (error) {
      if (error instanceof ClaimTakenError) throw inFlight()
      if (options.writesOnly === true && error instanceof ApiError && error.statusCode < 500) {
        // The work ran before the key was looked up: a stored answer still wins over its refusal.
        const stored = await findIdempotencyRecord(this.db, merchantId, key)
        if (stored === undefined) throw error
        return replay(stored, fingerprint)
      }
      if (!(error instanceof StoredMeanwhile) && !storedByTwin(error)) throw error
      // A writer that took no claim stored the key after this transaction looked: that was the
      // key's first request, and this one is answered as its replay.
      const stored = await findIdempotencyRecord(this.db, merchantId, key)
      if (stored === undefined) throw inFlight()
      return replay(stored, fingerprint)
    } finally {
      this.#inFlight.delete(slot)
    }
  }
}

const gates = new WeakMap<Kysely<Database>, IdempotencyGate>()

/** The one gate of a database: a key in flight on any endpoint is in flight for all of them. */
export function idempotencyGate(db: Kysely<Database>): IdempotencyGate {
  let gate = gates.get(db)
  if (gate === undefined) gates.set(db, (gate = new IdempotencyGate(db)))
  return gate
}

/** Runs a money-moving POST through the database's gate and answers its result as JSON (200). */
export function answerOnce(
  db: Kysely<Database>,
  request: IdempotentRequest,
  now: number,
  work: (trx: Kysely<Database>) => Promise<unknown>,
): Promise<StoredResponse> {
  return idempotencyGate(db).answer(request, now, async (trx) => ({ status: 200, body: JSON.stringify(await work(trx)) }))
}
