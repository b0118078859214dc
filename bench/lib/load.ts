// Load generation with autocannon, every request signed afresh (digest auth needs a current
// timestamp, and each POST /payments its own idempotency key), through the client's signer.
import autocannon, { type AutocannonRequest, type Result } from 'autocannon'
import { DIGEST_HEADERS, signDigest } from '../../src/signing.js'

export interface Credentials {
  apiKey: string
  apiSecret: string
}

export interface LoadResult {
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  requests: number
  /** Non-2xx answers, errors and timeouts: a figure with any of these is not valid. */
  failures: number
  /** How long the load ran, in seconds. */
  seconds: number
  /** Every answer's latency as autocannon timed it, in ms, sorted (p50Ms and p99Ms are its percentiles). */
  latenciesMs: Float64Array
}

export interface LoadOptions {
  url: string
  connections: number
  durationSeconds: number
  method: 'GET' | 'POST'
  /** Each request's path, given its sequence number. */
  path: (n: number) => string
  /** Each request's JSON body, given its sequence number. */
  body?: (n: number) => string
  /** Extra headers, given the sequence number. */
  headers?: (n: number) => Record<string, string>
  credentials: Credentials
}

export function signedHeaders(credentials: Credentials, method: string, path: string, body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000))
  return {
    [DIGEST_HEADERS.key]: credentials.apiKey,
    [DIGEST_HEADERS.timestamp]: timestamp,
    [DIGEST_HEADERS.signature]: signDigest(credentials.apiSecret, { path, timestamp, method, body }),
  }
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let n = 0
  const setupRequest = (request: AutocannonRequest): AutocannonRequest => {
    const i = n++
    const path = options.path(i)
    const body = options.body?.(i) ?? ''
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...options.headers?.(i),
      ...signedHeaders(options.credentials, options.method, path, body),
    }
    if (body !== '') headers['content-type'] = 'application/json'
    return { ...request, method: options.method, path, headers, ...(body !== '' ? { body } : {}) }
  }
  const latencies: number[] = []
  const instance = autocannon(
    {
      url: options.url,
      connections: options.connections,
      duration: options.durationSeconds,
      timeout: 30,
      requests: [{ method: options.method, setupRequest }],
    },
    () => {},
  )
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTimeMs: number) => latencies.push(responseTimeMs))
  const result = await new Promise<Result>((resolve) => instance.once('done', resolve))
  const latenciesMs = Float64Array.from(latencies).sort()
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: quantile(latenciesMs, 0.5),
    p99Ms: quantile(latenciesMs, 0.99),
    requests: result.requests.total,
    // No answer at all within the run is a failure too.
    failures: result.non2xx + result.errors + result.timeouts + (result.requests.total === 0 ? 1 : 0),
    seconds: result.duration,
    latenciesMs,
  }
}

/** The `q` quantile (0 to 1) of sorted samples, nearest rank. */
export function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
}

/** Several runs of one load as one: requests over the time they all ran, percentiles of all their answers. */
export function pooled(runs: LoadResult[]): LoadResult {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0)
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0)
  const latenciesMs = new Float64Array(runs.reduce((sum, run) => sum + run.latenciesMs.length, 0))
  let at = 0
  for (const run of runs) {
    latenciesMs.set(run.latenciesMs, at)
    at += run.latenciesMs.length
  }
  latenciesMs.sort()
  return {
    requestsPerSecond: requests / seconds,
    p50Ms: quantile(latenciesMs, 0.5),
    p99Ms: quantile(latenciesMs, 0.99),
    requests,
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    seconds,
    latenciesMs,
  }
}

/**
 * One load spread over several servers (replicas of one sandbox) at once: the connections split
 * evenly among the URLs, each request signed and numbered as runLoad does. The result is all
 * requests over the time they ran together, percentiles over all answers.
 */
export async function runLoadSpread(options: Omit<LoadOptions, 'url'>, urls: string[]): Promise<LoadResult> {
  const runs = await Promise.all(
    urls.map((url, i) => {
      const connections = Math.floor(options.connections / urls.length) + (i < options.connections % urls.length ? 1 : 0)
      // Each server's requests numbered apart, so bodies and headers stay distinct across them.
      const offset = (n: number) => n * urls.length + i
      return runLoad({
        ...options,
        url,
        connections,
        path: (n) => options.path(offset(n)),
        body: options.body && ((n) => options.body!(offset(n))),
        headers: options.headers && ((n) => options.headers!(offset(n))),
      })
    }),
  )
  const together = pooled(runs)
  const seconds = Math.max(...runs.map((run) => run.seconds))
  return { ...together, seconds, requestsPerSecond: together.requests / seconds }
}
