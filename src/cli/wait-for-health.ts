// `paybox sandbox wait`: polls GET /health until every part is ok or the time is up. This polling is
// the product (a readiness probe), not a test waiting on a sleep.
import { setTimeout as delay } from 'node:timers/promises'
import { PayboxApiError, PayboxConnectionError } from '../client/errors.js'
import { PayboxClient } from '../client/paybox-client.js'
import type { SandboxHealth } from '../client/types.js'
import { UserError } from '../user-error.js'

const FIRST_RETRY_MS = 50
const LONGEST_RETRY_MS = 500

/** `baseUrlOf` is asked on every try: a sandbox still starting may not have written its URL yet. */
export async function waitForHealthy(baseUrlOf: () => string, timeoutMs: number): Promise<SandboxHealth & { baseUrl: string }> {
  const deadline = Date.now() + timeoutMs
  let retryMs = FIRST_RETRY_MS
  for (;;) {
    const baseUrl = baseUrlOf()
    let problem: string
    try {
      // One try may not outlast the deadline, even against a server that never answers.
      const signal = AbortSignal.timeout(Math.max(deadline - Date.now(), 100))
      const client = new PayboxClient({ baseUrl, fetch: (url, init) => fetch(url, { ...init, signal }) })
      const health = await client.sandbox.health()
      if (health.status === 'ok') return { baseUrl: client.baseUrl, ...health }
      problem = `it reports ${health.status}`
    } catch (error) {
      problem = describeProblem(error)
    }
    if (Date.now() + retryMs > deadline) {
      throw new UserError(`The sandbox at ${baseUrl} was not healthy within ${formatSeconds(timeoutMs)}: ${problem}`)
    }
    await delay(retryMs)
    retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS)
  }
}

function describeProblem(error: unknown): string {
  if (error instanceof PayboxApiError) return `${error.statusCode} ${error.message}`
  if (error instanceof PayboxConnectionError) return `no answer (${error.message.replace(`Could not reach ${error.baseUrl}: `, '')})`
  return error instanceof Error ? error.message : String(error)
}

const formatSeconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`
