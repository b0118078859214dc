// Load generation with autocannon, every request signed afresh (digest auth needs a current
// timestamp, and each POST /payments its own idempotency key), through the client's signer.
import autocannon, { type AutocannonRequest } from 'autocannon'
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
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 30,
    requests: [{ method: options.method, setupRequest }],
  })
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    // No answer at all within the run is a failure too.
    failures: result.non2xx + result.errors + result.timeouts + (result.requests.total === 0 ? 1 : 0),
  }
}
