// Rate limits as HTTP answers: 429 with the standard error body and Retry-After. Which requests
// count against which limiter (sandbox/limits/rate-limiter.ts) is decided where they are
// authenticated (auth.ts) and, for routes without credentials, in app.ts.
import type { Request, RequestHandler } from 'express'
import type { RateLimiter } from '../limits/rate-limiter.js'
import { clientAddress } from './connection-guard.js'
import { ApiError } from '../errors.js'

export function tooManyRequests(what: string, retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'Too Many Requests', `${what}; retry in ${retryAfterSeconds} s`, { 'Retry-After': String(retryAfterSeconds) })
}

const rateOf = (limiter: RateLimiter) => `at most ${limiter.rate.burst} at once, then ${limiter.rate.perSecond} per second`

/** Takes one request of `key` from `limiter` (none: not limited), or throws 429. */
export function takeOrRefuse(limiter: RateLimiter | undefined, key: string, what: string): void {
  if (!limiter) return
  const taken = limiter.take(key)
  if (!taken.allowed) throw tooManyRequests(`Too many ${what} (${rateOf(limiter)})`, taken.retryAfterSeconds)
}

/** Throws 429 if `key`'s bucket is empty now, without taking from it. */
export function refuseIfEmpty(limiter: RateLimiter | undefined, key: string, what: string): void {
  const wait = limiter?.retryAfter(key)
  if (wait !== undefined) throw tooManyRequests(`Too many ${what} (${rateOf(limiter!)})`, wait)
}

export const clientAddressOf = (req: Request): string => clientAddress(req.socket)

/**
 * Limits POSTs to `paths` made without credentials (quotes, checkout actions, submissions) per
 * client address; an authenticated one counts against its key instead. A middleware rather than
 * routes, so the app's route table stays the API's.
 */
export function publicRouteLimit(limiter: RateLimiter | undefined, paths: RegExp): RequestHandler {
  return (req, _res, next) => {
    if (limiter && req.method === 'POST' && req.merchant === undefined && paths.test(req.path)) {
      takeOrRefuse(limiter, clientAddressOf(req), 'requests without credentials from your address')
    }
    next()
  }
}
