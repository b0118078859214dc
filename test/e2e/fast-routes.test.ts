// The fast routes (sandbox/app/fast-routes.ts) answer POST /payments and GET /payments/{id}
// without Express. These tests send the same requests to the sandbox and to its Express app
// alone, served on the same context (one database), and require the same answers; and they
// check which requests the fast routes take and which they leave to Express.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../sandbox/app/app.js'
import { withFastRoutes } from '../../sandbox/app/fast-routes.js'
import { paymentAnswers } from '../../sandbox/payments/payment-routes.js'
import { RequestLog } from '../../sandbox/request-log/request-log.js'
import { rawRequest, sandboxForSuite, type RawRequest, type RawResponse } from '../../harness/sandbox.js'

async function serve(listener: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

/**
 * What must be equal between two answers: status, type and body; Retry-After when there is one;
 * a Request-Id, whose value differs but is the one an error body repeats.
 */
const comparable = (r: RawResponse) => {
  const requestId = r.headers.get('request-id')
  return {
    status: r.status,
    type: r.headers.get('content-type'),
    length: r.headers.get('content-length'),
    retryAfter: r.headers.get('retry-after'),
    requestId: requestId?.replace(/^req_[0-9a-f-]{36}$/, 'req_<uuid>'),
    body: requestId === null ? r.text : r.text.replaceAll(requestId, 'req_<uuid>'),
  }
}

const order = (n: number) => JSON.stringify({ amount: { value: 1000 + n, currency: 'USD' }, description: `Order ${n}`, metadata: { n } })

describe('fast routes', () => {
  const sandbox = sandboxForSuite()
  let expressOnly: Awaited<ReturnType<typeof serve>>
  beforeAll(async () => {
    // Express alone, with the request ids the server gives every request.
    const app = createApp(sandbox.context)
    const requestLog = new RequestLog(sandbox.context.wallClock)
    expressOnly = await serve((req, res) => {
      requestLog.track(req, res)
      app(req, res)
    })
  })
  afterAll(() => expressOnly.close())

  const me = () => sandbox.merchants[0]!
  const other = () => sandbox.merchants[1]!
  const both = async (request: RawRequest) => {
    const fast = await rawRequest(sandbox.url, request)
    const plain = await rawRequest(expressOnly.url, request)
    return { fast, plain }
  }

  it('answer reads exactly as Express does: a payment, an unknown id, another merchant’s payment', async () => {
    const created = await rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: order(1), as: me() })
    expect(created.status).toBe(200)
    const id = (created.json as { id: string }).id
    for (const request of [
      { method: 'GET', path: `/payments/${id}`, as: me() },
      { method: 'GET', path: '/payments/pt_unknown', as: me() },
      { method: 'GET', path: `/payments/${id}`, as: other() },
      { method: 'GET', path: `/payments/${id}` },
      { method: 'GET', path: `/payments/${id}`, as: me(), sign: { path: '/payments/pt_other' } },
      { method: 'GET', path: `/payments/${id}`, as: me(), sign: { method: 'POST' } },
    ] satisfies RawRequest[]) {
      const { fast, plain } = await both(request)
      expect(comparable(fast), `${request.method} ${request.path}`).toEqual(comparable(plain))
    }
    const { fast } = await both({ method: 'GET', path: `/payments/${id}`, as: me() })
    expect(fast.text).toBe(created.text)
  })

  it('answer refused creations exactly as Express does, and create nothing', async () => {
    const before = (await sandbox.direct.payments.list({ limit: 1 })).meta.totalItems
    const bad: RawRequest[] = [
      { method: 'POST', path: '/payments', body: '{"amount":', as: me() },
      { method: 'POST', path: '/payments', body: order(2), as: me(), headers: { 'content-type': 'text/plain' } },
      { method: 'POST', path: '/payments', body: JSON.stringify({ description: 'no amount' }), as: me() },
      { method: 'POST', path: '/payments', body: JSON.stringify({ ...JSON.parse(order(3)), surprise: true }), as: me() },
      { method: 'POST', path: '/payments', body: order(4), as: me(), sign: { body: order(5) } },
      { method: 'POST', path: '/payments', body: order(4), as: me(), sign: { timestamp: '1000' } },
      { method: 'POST', path: '/payments', body: order(4) },
      { method: 'POST', path: '/payments', body: order(6), as: me(), headers: { 'idempotency-key': 'k'.repeat(256) } },
      { method: 'POST', path: '/payments', body: `${'['.repeat(40)}${']'.repeat(40)}`, as: me() },
      { method: 'POST', path: '/payments', body: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }), as: me() },
    ]
    for (const request of bad) {
      const { fast, plain } = await both(request)
      expect(fast.status, request.body?.slice(0, 40)).toBeGreaterThanOrEqual(400)
      expect(fast.status).toBeLessThan(500)
      expect(comparable(fast), request.body?.slice(0, 40)).toEqual(comparable(plain))
    }
    expect((await sandbox.direct.payments.list({ limit: 1 })).meta.totalItems).toBe(before)
  })

  it('share one Idempotency-Key store with Express: a replay either way returns the same bytes, a changed body 422', async () => {
    const headers = { 'idempotency-key': 'fast-and-plain' }
    const first = await rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: order(7), as: me(), headers })
    const replayed = await rawRequest(expressOnly.url, { method: 'POST', path: '/payments', body: order(7), as: me(), headers })
    expect(first.status).toBe(200)
    expect(replayed.text).toBe(first.text)
    const { fast, plain } = await both({ method: 'POST', path: '/payments', body: order(8), as: me(), headers })
    expect(fast.status).toBe(422)
    expect(comparable(fast)).toEqual(comparable(plain))
  })

  it('take only the plainest form of the two requests and leave everything else to Express', async () => {
    const seen: string[] = []
    const fastOnly = await serve(
      withFastRoutes(sandbox.context, paymentAnswers(sandbox.context), (req, res) => {
        seen.push(`${req.method} ${req.url}`)
        res.writeHead(599).end()
      }),
    )
    try {
      const created = await rawRequest(fastOnly.url, { method: 'POST', path: '/payments', body: order(9), as: me() })
      expect(created.status).toBe(200)
      const id = (created.json as { id: string }).id
      expect((await rawRequest(fastOnly.url, { method: 'GET', path: `/payments/${id}`, as: me() })).status).toBe(200)
      expect((await rawRequest(fastOnly.url, { method: 'GET', path: '/payments/pt_missing', as: me() })).status).toBe(404)
      expect(seen).toEqual([])

      const elsewhere: RawRequest[] = [
        { method: 'GET', path: '/payments', as: me() },
        { method: 'GET', path: `/payments/${id}?expand=1`, as: me() },
        { method: 'GET', path: `/payments/${id}/`, as: me() },
        { method: 'GET', path: `/Payments/${id}`, as: me() },
        { method: 'GET', path: `/payments/${id.slice(0, 3)}%5F${id.slice(4)}`, as: me() },
        { method: 'HEAD', path: `/payments/${id}`, as: me() },
        { method: 'POST', path: '/payments/', body: order(10), as: me() },
        { method: 'POST', path: '/payments?x=1', body: order(10), as: me() },
        { method: 'POST', path: '/payments', body: order(10), as: me(), headers: { 'content-encoding': 'gzip' } },
        { method: 'PUT', path: '/payments', body: order(10), as: me() },
      ]
      for (const request of elsewhere)
        expect((await rawRequest(fastOnly.url, request)).status, `${request.method} ${request.path}`).toBe(599)
      expect(seen).toHaveLength(elsewhere.length)
    } finally {
      await fastOnly.close()
    }
  })
})
