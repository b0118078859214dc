// Rate limits under --shared (sandbox/limits/): per API key once authenticated (the fast
// POST /payments route included), per client address for what needs no credentials (quotes,
// checkout actions, Horizon submissions), and on admin-token failures. Each refusal is a 429 with
// the standard error body and Retry-After; time is the injected wall clock, so nothing sleeps.
// Clients on other loopback addresses (127.0.0.2) stand for other machines.
import http from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import type { SandboxLimits } from '../../sandbox/limits/sandbox-limits.js'
import { rawRequest, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

const started: TestSandbox[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()))
})

async function sharedSandbox(limits: Partial<SandboxLimits>): Promise<{ sandbox: TestSandbox; clock: ManualClock }> {
  const clock = new ManualClock(Date.now())
  const sandbox = await startTestSandbox({ shared: true, wallClock: clock, limits })
  started.push(sandbox)
  return { sandbox, clock }
}

interface Answer {
  status: number
  retryAfter: string | undefined
  json: unknown
}

/** One request over its own connection from `from`. */
function send(
  sandbox: TestSandbox,
  method: string,
  path: string,
  options: { from?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${sandbox.url}${path}`,
      { method, agent: false, localAddress: options.from ?? '127.0.0.1', headers: options.headers },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () => {
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            json = undefined
          }
          resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] as string | undefined, json })
        })
      },
    )
    request.on('error', reject)
    request.end(options.body)
  })
}

const statuses = async (count: number, request: () => Promise<{ status: number }>) => {
  const seen: number[] = []
  for (let i = 0; i < count; i++) seen.push((await request()).status)
  return seen
}

describe('rate limits under --shared', () => {
  it('limits each API key once authenticated, fast routes included, and refills with time', async () => {
    const { sandbox, clock } = await sharedSandbox({ apiKeyRate: { burst: 4, perSecond: 1 } })
    const direct = sandbox.merchants[0]!
    const list = () => rawRequest(sandbox.url, { method: 'GET', path: '/payments', as: direct })
    // Each its own body: two identical requests signed in the same second share their signature,
    // which a shared sandbox accepts once (test/e2e/signature-replays.test.ts).
    let created = 0
    const create = () =>
      rawRequest(sandbox.url, {
        method: 'POST',
        path: '/payments',
        as: direct,
        body: JSON.stringify({ amount: { value: 100, currency: 'USD' }, description: `Limited ${++created}` }),
      })
    expect([(await create()).status, (await list()).status, (await create()).status, (await list()).status]).toEqual([200, 200, 200, 200])

    const refused = await create()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(refused.json).toEqual({
      statusCode: 429,
      reason: 'Too Many Requests',
      message: 'Too many requests for this API key (at most 4 at once, then 1 per second); retry in 1 s',
      requestId: expect.stringMatching(/^req_/),
    })
    expect((await list()).status).toBe(429)
    // Wrong signatures with that key are refused as such and spend nothing of anyone's budget.
    const forged = await rawRequest(sandbox.url, {
      method: 'GET',
      path: '/payments',
      as: { apiKey: direct.apiKey, apiSecret: 'sk_test_wrong' },
    })
    expect(forged.status).toBe(401)
    // Another merchant's key has its own budget.
    expect((await rawRequest(sandbox.url, { method: 'GET', path: '/payments', as: sandbox.merchants[1]! })).status).toBe(200)

    clock.advance(1_000)
    expect([(await list()).status, (await list()).status]).toEqual([200, 429])
  })

  it('limits quotes, checkout actions and Horizon submissions without credentials per client address', async () => {
    const { sandbox, clock } = await sharedSandbox({ publicRate: { burst: 3, perSecond: 1 } })
    const payment = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Quoted' })
    const quote = (from?: string) =>
      send(sandbox, 'POST', `/payments/${payment.id}/cross-chain/quote`, {
        from,
        headers: { 'content-type': 'application/json' },
        body: '{"originChain":"nowhere"}',
      })
    const action = (from?: string) =>
      send(sandbox, 'POST', `/checkout/${payment.id}/actions/cancel`, {
        from,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'auth_token=wrong',
      })
    const submit = (from?: string) =>
      send(sandbox, 'POST', '/horizon/transactions', {
        from,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'tx=AAAA',
      })

    // One budget per address, whatever the route; refused requests spend it too.
    const first = [await quote(), await action(), await submit()]
    expect(first.map((answer) => answer.status)).not.toContain(429)
    for (const refused of [await quote(), await action(), await submit()]) {
      expect(refused.status).toBe(429)
      expect(refused.retryAfter).toBe('1')
      expect(refused.json).toMatchObject({
        statusCode: 429,
        reason: 'Too Many Requests',
        message: expect.stringContaining('without credentials'),
      })
    }
    expect((await quote('127.0.0.2')).status).not.toBe(429)
    // With credentials, a quote counts against the merchant's key instead (not limited here).
    expect(
      (
        await rawRequest(sandbox.url, {
          method: 'POST',
          path: `/payments/${payment.id}/cross-chain/quote`,
          as: sandbox.merchants[0]!,
          body: '{"originChain":"nowhere"}',
        })
      ).status,
    ).not.toBe(429)

    clock.advance(1_000)
    expect((await action()).status).not.toBe(429)
    expect((await action()).status).toBe(429)
  })

  it('answers an address that keeps sending wrong admin tokens 429, even with the right one, until it refills', async () => {
    const { sandbox, clock } = await sharedSandbox({ adminFailureRate: { burst: 3, perSecond: 0.1 } })
    const token = sandbox.identity.adminToken
    const clockRead = (adminToken: string | undefined, from?: string) =>
      send(sandbox, 'GET', '/sandbox/clock', { from, headers: adminToken === undefined ? {} : { 'x-sandbox-admin-token': adminToken } })

    expect((await clockRead(token)).status).toBe(200)
    expect(await statuses(3, () => clockRead('adm_guess'))).toEqual([401, 401, 401])
    const refused = await clockRead(token)
    expect(refused.status).toBe(429)
    expect(refused.retryAfter).toBe('10')
    expect(refused.json).toEqual({
      statusCode: 429,
      reason: 'Too Many Requests',
      message: 'Too many failed x-sandbox-admin-token attempts from your address; retry in 10 s',
      requestId: expect.stringMatching(/^req_/),
    })
    expect((await clockRead(undefined)).status).toBe(429)
    // Successes spend nothing, and other addresses are not held back.
    expect((await clockRead(token, '127.0.0.2')).status).toBe(200)

    clock.advance(10_000)
    expect((await clockRead(token)).status).toBe(200)
    expect((await clockRead('adm_guess')).status).toBe(401)
    expect((await clockRead(token)).status).toBe(429)
  })

  it('stays off by default on a local sandbox', async () => {
    const sandbox = await startTestSandbox({})
    started.push(sandbox)
    expect(sandbox.shared).toBe(false)
    expect(await statuses(30, () => send(sandbox, 'GET', '/sandbox/clock', { headers: { 'x-sandbox-admin-token': 'adm_guess' } }))).toEqual(
      Array(30).fill(401),
    )
    expect(
      await statuses(40, () =>
        send(sandbox, 'POST', '/horizon/transactions', {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'tx=AAAA',
        }),
      ),
    ).not.toContain(429)
  })
})
