// Digest authentication (spec section 5) and the sandbox admin token.
//
// A request is signed with HMAC-SHA256(secret, path + timestamp + METHOD + body). Besides the
// exact form, two tolerated variants cover common clients: the path without its query string,
// and the body as compact JSON (JSON.stringify of the parsed body, "" for {}). Nothing else.
import type http from 'node:http'
import type { Request, RequestHandler } from 'express'
import { ADMIN_TOKEN_HEADER, DIGEST_HEADERS } from '../../src/api/headers.js'
import { DIGEST_TOLERANCE_SECONDS, secretsMatch, signDigest, signaturesMatch } from '../../src/signing.js'
import type { Clock } from '../clock.js'
import type { MerchantRow } from '../db/schema.js'
import type { RateLimiter } from '../limits/rate-limiter.js'
import { ApiError, unauthorized } from '../errors.js'
import type { ReplayGuard } from '../signatures/replay-guard.js'
import { clientAddressOf, refuseIfEmpty, takeOrRefuse, tooManyRequests } from './rate-limit.js'
import { attributeRequest, noteSignatureMismatch } from './request-notes.js'

declare module 'express-serve-static-core' {
  interface Request {
    merchant?: MerchantRow
  }
}

/** Spec 7: payment, refund and balance endpoints say "Unauthorized"; the others say this. */
export const SIGNATURE_FAILED = 'Signature verification failed'
export const UNAUTHORIZED = 'Unauthorized'

export interface DigestAuthDeps {
  wallClock: Clock
  findMerchantByApiKey(apiKey: string): Promise<MerchantRow | undefined>
  /** Requests per API key, counted once authenticated (--shared); none: not limited. */
  apiKeyLimiter?: RateLimiter
  /** Each signature accepted once on requests other than GET (--shared); none: replays accepted, as on the real service. */
  replayGuard?: ReplayGuard
}

/** What digest authentication reads of a request (an Express request, or a fast route's). */
export interface SignedRequest {
  method: string
  /** The path and query string as sent. */
  originalUrl: string
  headers: http.IncomingHttpHeaders
  rawBody?: string
  body?: unknown
  /** The request these are the parts of, when they were copied out of it (fast routes): its log record. */
  incoming?: http.IncomingMessage
}

/** The strings a valid signature may have been computed over, exact form first. */
export function signedPayloadVariants(req: Pick<SignedRequest, 'originalUrl' | 'rawBody' | 'body'>): { paths: string[]; bodies: string[] } {
  const path = req.originalUrl
  const queryAt = path.indexOf('?')
  const paths = queryAt === -1 ? [path] : [path, path.slice(0, queryAt)]
  const bodies = [req.rawBody ?? '']
  if (req.body !== undefined) {
    const compact = isEmptyObject(req.body) ? '' : JSON.stringify(req.body)
    if (!bodies.includes(compact)) bodies.push(compact)
  }
  return { paths, bodies }
}

const isEmptyObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0

function header(req: Pick<SignedRequest, 'headers'>, name: string): string | undefined {
  const value = req.headers[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/**
 * The merchant whose key signed this request; throws 401 with `reason` and what is wrong
 * otherwise. With `optional`, a request carrying none of the three headers gets undefined.
 */
export async function authenticateMerchant(
  deps: DigestAuthDeps,
  reason: string,
  req: SignedRequest,
  options: { optional?: boolean } = {},
): Promise<MerchantRow | undefined> {
  const apiKey = header(req, DIGEST_HEADERS.key)
  const timestamp = header(req, DIGEST_HEADERS.timestamp)
  const signature = header(req, DIGEST_HEADERS.signature)
  if (options.optional && apiKey === undefined && timestamp === undefined && signature === undefined) return undefined
  const missing = [
    [DIGEST_HEADERS.key, apiKey],
    [DIGEST_HEADERS.timestamp, timestamp],
    [DIGEST_HEADERS.signature, signature],
  ].find(([, value]) => value === undefined)
  if (missing) throw unauthorized(reason, `Missing ${missing[0]} header`)

  if (!/^\d{1,12}$/.test(timestamp!)) throw unauthorized(reason, `${DIGEST_HEADERS.timestamp} must be Unix seconds`)
  const skew = Math.abs(deps.wallClock.now() / 1000 - Number(timestamp))
  if (skew > DIGEST_TOLERANCE_SECONDS) {
    throw unauthorized(reason, `${DIGEST_HEADERS.timestamp} is more than ${DIGEST_TOLERANCE_SECONDS} s from the server clock`)
  }

  const merchant = await deps.findMerchantByApiKey(apiKey!)
  if (!merchant) throw unauthorized(reason, `Unknown API key in ${DIGEST_HEADERS.key}`)

  const signs = (path: string, body: string) =>
    signaturesMatch(signDigest(merchant.api_secret, { path, timestamp: timestamp!, method: req.method, body }), signature!)
  if (!signedBy(signs, req)) {
    // Kept for the key's merchant's request inspector, which tells what differed; never the secret.
    noteSignatureMismatch(req.incoming ?? req, {
      merchantId: merchant.id,
      method: req.method,
      originalUrl: req.originalUrl,
      timestamp: timestamp!,
      signature: signature!,
      rawBody: req.rawBody ?? '',
      host: header(req, 'host'),
    })
    throw unauthorized(reason, `${DIGEST_HEADERS.signature} does not match the request`)
  }
  const what = 'requests for this API key'
  if (deps.replayGuard?.covers(req.method)) {
    // A replay is refused before it is counted, so a captured request cannot spend its merchant's
    // budget; a key out of budget records nothing, so the rate limit bounds the memory too.
    refuseIfEmpty(deps.apiKeyLimiter, apiKey!, what)
    await deps.replayGuard.spend(signature!, Number(timestamp))
  }
  // Counted once authenticated: nobody can spend another merchant's budget with bad signatures.
  takeOrRefuse(deps.apiKeyLimiter, apiKey!, what)
  return merchant
}

/** Whether one of the forms a request may be signed over matches. */
function signedBy(signs: (path: string, body: string) => boolean, req: SignedRequest): boolean {
  // The exact form first: what nearly every client signs, and the variants cost a re-serialized
  // body. Which form matched is no secret (the caller chose it); each comparison is constant-time.
  if (signs(req.originalUrl, req.rawBody ?? '')) return true
  const { paths, bodies } = signedPayloadVariants(req)
  return paths.some((path) => bodies.some((body) => signs(path, body)))
}

export function digestAuth(deps: DigestAuthDeps, reason: string, options: { optional?: boolean } = {}): RequestHandler {
  return (req, _res, next) => {
    authenticateMerchant(deps, reason, req, options).then((merchant) => {
      if (merchant) {
        req.merchant = merchant
        attributeRequest(req, merchant.id)
      }
      next()
    }, next)
  }
}

/**
 * Guards sandbox-wide controls with the admin token printed at start. With `failures` (--shared),
 * a client address that sent too many missing or wrong tokens is answered 429 until its bucket
 * refills, so the token cannot be guessed at speed.
 */
export function adminAuth(adminToken: string, failures?: RateLimiter): RequestHandler {
  return (req, _res, next) => {
    const address = clientAddressOf(req)
    const wait = failures?.retryAfter(address)
    if (wait !== undefined) return next(tooManyRequests(`Too many failed ${ADMIN_TOKEN_HEADER} attempts from your address`, wait))
    const given = header(req, ADMIN_TOKEN_HEADER)
    const refusal =
      given === undefined
        ? `Missing ${ADMIN_TOKEN_HEADER} header`
        : secretsMatch(adminToken, given)
          ? undefined
          : `Wrong ${ADMIN_TOKEN_HEADER}`
    if (refusal === undefined) return next()
    failures?.take(address)
    next(new ApiError(401, UNAUTHORIZED, refusal))
  }
}

/** The authenticated merchant; routes behind digestAuth always have one. */
export function currentMerchant(req: Request): MerchantRow {
  if (!req.merchant) throw new Error('Route is missing digest authentication')
  return req.merchant
}
