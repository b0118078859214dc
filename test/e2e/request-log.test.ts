// Every request gets an id (Request-Id, and requestId in error bodies) and a record in the
// request log: each merchant reads its own requests, recent or live; the admin token reads all.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { RequestLogEntry } from '../../src/client/types.js'
import { PayboxApiError } from '../../src/client/errors.js'
import { RequestLog } from '../../sandbox/request-log/request-log.js'
import { rawRequest, sandboxForSuite } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

const REQUEST_ID = /^req_[0-9a-f-]{36}$/
const order = (n: number) => JSON.stringify({ amount: { value: 100 + n, currency: 'USD' }, description: `Secret order ${n}` })

describe('the request log', () => {
  const sandbox = sandboxForSuite()
  const me = () => sandbox.merchants[0]!
  const other = () => sandbox.merchants[1]!
  const admin = () => ({ 'x-sandbox-admin-token': sandbox.identity.adminToken })
  const streams: AbortController[] = []
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.abort()
  })

  /** The admin's view of one request, by id: it is recorded once its response has closed. */
  const recorded = (requestId: string) =>
    waitFor(`request ${requestId} in the log`, async () =>
      (await sandbox.admin.requestLogs.listAll({})).items.find((e) => e.requestId === requestId),
    )

  it('gives every answer a Request-Id, which an error body repeats: fast route, Express, public and admin routes', async () => {
    const created = await rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: order(1), as: me() })
    const id = (created.json as { id: string }).id
    const answers = [
      created,
      await rawRequest(sandbox.url, { method: 'GET', path: `/payments/${id}`, as: me() }),
      await rawRequest(sandbox.url, { method: 'GET', path: '/payments?limit=1', as: me() }),
      await rawRequest(sandbox.url, { method: 'GET', path: '/health' }),
      await rawRequest(sandbox.url, { method: 'GET', path: '/sandbox/clock', headers: admin() }),
    ]
    const errors = [
      await rawRequest(sandbox.url, { method: 'GET', path: '/payments/pt_unknown', as: me() }),
      await rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: order(2) }),
      await rawRequest(sandbox.url, { method: 'GET', path: '/payments?limit=abc', as: me() }),
      await rawRequest(sandbox.url, { method: 'GET', path: '/no/such/route' }),
      await rawRequest(sandbox.url, { method: 'GET', path: '/sandbox/clock' }),
    ]
    const ids = [...answers, ...errors].map((answer) => answer.headers.get('request-id'))
    for (const requestId of ids) expect(requestId).toMatch(REQUEST_ID)
    expect(new Set(ids).size).toBe(ids.length)
    for (const error of errors) {
      expect(error.status).toBeGreaterThanOrEqual(400)
      expect(error.json).toMatchObject({ statusCode: error.status, requestId: error.headers.get('request-id') })
    }
  })

  it('records each request once it is answered: method, path, status, duration, merchant, idempotency key; no query, body or credential', async () => {
    const created = await rawRequest(sandbox.url, {
      method: 'POST',
      path: '/payments',
      body: order(3),
      as: me(),
      headers: { 'idempotency-key': 'order-3' },
    })
    const listed = await rawRequest(sandbox.url, { method: 'GET', path: '/payments?limit=1&status=open', as: me() })
    const refused = await rawRequest(sandbox.url, { method: 'GET', path: '/payments/pt_nope', as: me() })

    const post = await recorded(created.headers.get('request-id')!)
    expect(post).toMatchObject({
      method: 'POST',
      path: '/payments',
      status: 200,
      merchantId: expect.stringMatching(/\S/),
      idempotencyKey: 'order-3',
    })
    expect(Date.parse(post.time)).not.toBeNaN()
    expect(post.durationMs).toBeGreaterThanOrEqual(0)
    expect(await recorded(listed.headers.get('request-id')!)).toMatchObject({
      method: 'GET',
      path: '/payments',
      status: 200,
      merchantId: post.merchantId,
      idempotencyKey: null,
    })
    expect(await recorded(refused.headers.get('request-id')!)).toMatchObject({
      path: '/payments/pt_nope',
      status: 404,
      merchantId: post.merchantId,
    })

    const everything = JSON.stringify((await sandbox.admin.requestLogs.listAll({})).items)
    for (const secret of [me().apiSecret, sandbox.identity.adminToken, 'Secret order', 'status=open'])
      expect(everything).not.toContain(secret)
  })

  it('shows a merchant only its own requests; the admin token sees every one, unauthenticated ones too', async () => {
    const mine = await rawRequest(sandbox.url, { method: 'GET', path: '/payments?limit=1', as: me() })
    const theirs = await rawRequest(sandbox.url, { method: 'GET', path: '/payments?limit=1', as: other() })
    const anonymous = await rawRequest(sandbox.url, { method: 'GET', path: '/health' })
    const [myId, theirId, anonymousId] = [mine, theirs, anonymous].map((r) => r.headers.get('request-id')!)
    await recorded(anonymousId!)

    const myView = (await sandbox.direct.requestLogs.list()).items
    expect(myView.map((e) => e.requestId)).toContain(myId)
    expect(myView.map((e) => e.requestId)).not.toContain(theirId)
    expect(myView.every((e) => e.merchantId === myView[0]!.merchantId)).toBe(true)
    const theirView = (await sandbox.escrow.requestLogs.list()).items.map((e) => e.requestId)
    expect(theirView).toContain(theirId)
    expect(theirView).not.toContain(myId)
    const all = (await sandbox.admin.requestLogs.listAll({})).items
    expect(all.map((e) => e.requestId)).toEqual(expect.arrayContaining([myId, theirId, anonymousId]))
    expect(all.find((e) => e.requestId === anonymousId)!.merchantId).toBeNull()

    // Another merchant's log is not there at all; the admin log needs the admin token.
    const merchantId = (await sandbox.direct.merchant.get()).id
    const peek = await rawRequest(sandbox.url, { method: 'GET', path: `/merchants/${merchantId}/request-logs`, as: other() })
    expect(peek.status).toBe(404)
    expect((await rawRequest(sandbox.url, { method: 'GET', path: '/sandbox/request-logs', as: me() })).status).toBe(401)
  })

  it('filters by status class or status and by path prefix, newest first, and refuses a bad filter with a 400', async () => {
    await rawRequest(sandbox.url, { method: 'GET', path: '/payments/pt_filtered', as: me() })
    await rawRequest(sandbox.url, { method: 'GET', path: '/refunds', as: me() })
    const failed = (await sandbox.direct.requestLogs.list({ status: '4xx', path: '/payments' })).items
    expect(failed.length).toBeGreaterThan(0)
    expect(failed.every((e) => e.status >= 400 && e.status < 500 && e.path.startsWith('/payments'))).toBe(true)
    expect((await sandbox.direct.requestLogs.list({ status: '404', limit: 1 })).items[0]!.path).toBe('/payments/pt_filtered')
    expect((await sandbox.direct.requestLogs.list({ path: '/pay' })).items).toEqual([])
    const times = (await sandbox.direct.requestLogs.list()).items.map((e) => e.time)
    expect(times).toEqual([...times].sort().reverse())

    for (const query of [{ status: 'abc' }, { status: '4x' }, { path: 'payments' }] as const) {
      const refused = await sandbox.direct.requestLogs.list(query).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(PayboxApiError)
      expect((refused as PayboxApiError).statusCode).toBe(400)
      expect((refused as PayboxApiError).requestId).toMatch(REQUEST_ID)
    }
  })

  it('streams the requests that match as they finish, to their merchant only', async () => {
    const seen: RequestLogEntry[] = []
    const theirSeen: RequestLogEntry[] = []
    const follow = (client: typeof sandbox.direct, into: RequestLogEntry[], query = {}) =>
      new Promise<void>((opened, failed) => {
        const controller = new AbortController()
        streams.push(controller)
        void (async () => {
          try {
            for await (const entry of client.requestLogs.stream({ signal: controller.signal, onOpen: opened, query })) into.push(entry)
          } catch (error) {
            if (!controller.signal.aborted) failed(error)
          }
        })()
      })
    await follow(sandbox.direct, seen, { status: '4xx' })
    await follow(sandbox.escrow, theirSeen)
    await rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: order(5), as: me() })
    const missing = await rawRequest(sandbox.url, { method: 'GET', path: '/payments/pt_streamed', as: me() })
    await waitFor('the 404 on the stream', () => seen.some((e) => e.requestId === missing.headers.get('request-id')))
    expect(seen.every((e) => e.status >= 400)).toBe(true)
    expect(theirSeen.map((e) => e.requestId)).not.toContain(missing.headers.get('request-id'))
  })
})

describe('RequestLog', () => {
  it('keeps only the newest records, up to its capacity', async () => {
    const log = new RequestLog({ now: () => Date.now() }, 3)
    let records = 0
    log.onRecord(() => records++)
    const server = http.createServer((req, res) => {
      log.track(req, res)
      res.end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      for (const path of ['/a', '/b', '/c', '/d', '/e']) await (await fetch(`http://127.0.0.1:${port}${path}`)).text()
      await waitFor('five records', () => records === 5)
      expect(log.recent({}, 10).map((e) => e.path)).toEqual(['/e', '/d', '/c'])
      expect(log.recent({}, 2).map((e) => e.path)).toEqual(['/e', '/d'])
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
