// Token buckets keyed by who is asking (an API key, a client address), on an injected clock so
// tests need not wait. The keys kept are bounded: the least recently seen is forgotten first.
import type { Clock } from '../clock.js'
import type { RateLimit, SandboxLimits } from './sandbox-limits.js'

/** Buckets kept at most; a forgotten key starts again with a full bucket. */
const MAX_KEYS = 10_000

interface Bucket {
  tokens: number
  at: number
}

export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>()

  constructor(
    readonly rate: RateLimit,
    private readonly clock: Clock,
  ) {}

  /** Takes one request from `key`'s bucket; if it is empty, the whole seconds until it is not. */
  take(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const bucket = this.#refilled(key)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { allowed: true }
    }
    return { allowed: false, retryAfterSeconds: this.#secondsUntilToken(bucket) }
  }

  /** The seconds until `key` may try again if its bucket is empty now; undefined if it is not. */
  retryAfter(key: string): number | undefined {
    const bucket = this.#refilled(key)
    return bucket.tokens >= 1 ? undefined : this.#secondsUntilToken(bucket)
  }

  #secondsUntilToken(bucket: Bucket): number {
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate.perSecond))
  }

  #refilled(key: string): Bucket {
    const now = this.clock.now()
    const found = this.#buckets.get(key)
    const bucket = found ?? { tokens: this.rate.burst, at: now }
    bucket.tokens = Math.min(this.rate.burst, bucket.tokens + (Math.max(0, now - bucket.at) * this.rate.perSecond) / 1000)
    bucket.at = now
    // Most recently seen last, so the first is the one to forget.
    this.#buckets.delete(key)
    this.#buckets.set(key, bucket)
    if (!found && this.#buckets.size > MAX_KEYS) this.#buckets.delete(this.#buckets.keys().next().value!)
    return bucket
  }
}

/** The sandbox's rate limiters; one left out is not limited (the local default). */
export interface RateLimits {
  apiKey?: RateLimiter
  publicRoutes?: RateLimiter
  adminFailures?: RateLimiter
  tenantCreation?: RateLimiter
}

export function createRateLimits(limits: SandboxLimits, clock: Clock): RateLimits {
  const limiter = (rate: RateLimit | undefined) => (rate === undefined ? undefined : new RateLimiter(rate, clock))
  return {
    apiKey: limiter(limits.apiKeyRate),
    publicRoutes: limiter(limits.publicRate),
    adminFailures: limiter(limits.adminFailureRate),
    tenantCreation: limiter(limits.tenantCreationRate),
  }
}
