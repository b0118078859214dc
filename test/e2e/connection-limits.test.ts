// The sandbox's bounds on what clients hold open (sandbox/limits/sandbox-limits.ts): slow requests
// are cut off in seconds, idle connections make room for new ones within a bound in total and per
// client address, event streams are bounded the same way (429 past it), and every Horizon stream
// is fed by one change feed instead of polling the database itself. Clients on other loopback
// addresses (127.0.0.2, …) stand for other machines.
import net from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LOCAL_LIMITS } from '../../sandbox/limits/sandbox-limits.js'
import { idleConnections as openIdle, openStream as open, type OpenedStream } from '../../harness/connections.js'
import { rawRequest, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

const started: TestSandbox[] = []
const sockets: net.Socket[] = []
const streams: OpenedStream[] = []

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const stream of streams.splice(0)) stream.close()
  await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()))
})

async function sandboxWith(options: Parameters<typeof startTestSandbox>[0]): Promise<TestSandbox> {
  const sandbox = await startTestSandbox(options)
  started.push(sandbox)
  return sandbox
}

const idleConnections = (sandbox: TestSandbox, count: number, from?: string) => openIdle(sandbox, count, from, sockets)
const openStream = (sandbox: TestSandbox, path: string, from?: string) => open(sandbox, path, from, streams)

/** The bound a test gives a connection to close: far above the limits under test, far below Node's old 300 s. */
const stillOpenAfter = (ms: number) => new Promise((resolve) => setTimeout(() => resolve('still open'), ms).unref())

const health = async (sandbox: TestSandbox) => (await fetch(`${sandbox.url}/health`)).status

describe('connection bounds', () => {
  it('gives up on a request in seconds, not minutes, by default', async () => {
    const sandbox = await sandboxWith({})
    expect(sandbox.server.headersTimeout).toBe(LOCAL_LIMITS.headersTimeoutMs)
    expect(sandbox.server.requestTimeout).toBe(LOCAL_LIMITS.requestTimeoutMs)
    expect(LOCAL_LIMITS.headersTimeoutMs).toBeLessThanOrEqual(10_000)
    expect(LOCAL_LIMITS.requestTimeoutMs).toBeLessThanOrEqual(30_000)
  })

  it('answers a body that never finishes 408 with the JSON error body, and closes a silent connection', async () => {
    const sandbox = await sandboxWith({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } })
    const [silent] = await idleConnections(sandbox, 1)
    const silentClosed = new Promise((resolve) => silent!.once('close', () => resolve('closed')))

    const slow = net.connect({ host: '127.0.0.1', port: sandbox.port })
    sockets.push(slow)
    let answer = ''
    slow.setEncoding('utf8')
    slow.on('data', (chunk: string) => (answer += chunk))
    const slowClosed = new Promise((resolve) => slow.once('close', () => resolve('closed')))
    slow.write('POST /payments HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"amount"')
    // Generous bounds: the point is seconds, not Node's old 300 s.
    expect(await Promise.race([slowClosed, stillOpenAfter(10_000)])).toBe('closed')
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      statusCode: 408,
      reason: 'Request Timeout',
      message: 'The request was not received in time',
      requestId: expect.stringMatching(/^req_/),
    })
    expect(await Promise.race([silentClosed, stillOpenAfter(10_000)])).toBe('closed')
  })

  it('keeps /health answering when idle connections reach the bound: the longest idle makes room', async () => {
    const sandbox = await sandboxWith({ limits: { maxConnections: 40 } })
    await idleConnections(sandbox, 120)
    expect(await health(sandbox)).toBe(200)
    const held = await new Promise<number>((resolve, reject) =>
      sandbox.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    )
    expect(held).toBeLessThanOrEqual(40)
  })

  it('bounds each client address on its own: one client at its bound leaves room for the others', async () => {
    const sandbox = await sandboxWith({ limits: { maxConnections: 100, maxConnectionsPerClient: 10 } })
    const greedy = await idleConnections(sandbox, 30, '127.0.0.2')
    // Each of the greedy client's new connections closed one of its own older ones.
    await waitFor(
      'the greedy client to be held to 10 connections',
      () => greedy.filter((socket) => !socket.destroyed && !socket.closed).length <= 10,
    )
    const others = await idleConnections(sandbox, 10, '127.0.0.3')
    expect(others.every((socket) => !socket.destroyed)).toBe(true)
    expect(await health(sandbox)).toBe(200)
  })

  it('refuses event streams past the bound per client and in all with 429 and Retry-After, and counts closed ones out', async () => {
    const sandbox = await sandboxWith({ limits: { maxStreams: 3, maxStreamsPerClient: 2 } })
    const path = '/horizon/payments?cursor=now'
    const first = await openStream(sandbox, path, '127.0.0.2')
    await openStream(sandbox, path, '127.0.0.2')
    const third = await openStream(sandbox, path, '127.0.0.2')
    expect(first.status).toBe(200)
    expect(third.status).toBe(429)
    expect(third.headers['retry-after']).toBe('5')
    expect(JSON.parse(await third.body)).toMatchObject({
      statusCode: 429,
      reason: 'Too Many Requests',
      message: 'Too many open event streams (at most 2 per client): close one, or retry later',
    })

    expect((await openStream(sandbox, path, '127.0.0.3')).status).toBe(200)
    const overall = await openStream(sandbox, path, '127.0.0.4')
    expect(overall.status).toBe(429)
    expect(JSON.parse(await overall.body)).toMatchObject({ statusCode: 429, message: expect.stringContaining('at most 3 in all') })

    first.close()
    await waitFor('a stream slot to free up', async () => (await openStream(sandbox, path, '127.0.0.4')).status === 200)
  })

  it('counts the webhook log and payment event streams (webhooks tail, listen) against the same bound', async () => {
    const sandbox = await sandboxWith({ limits: { maxStreams: 1 } })
    expect((await openStream(sandbox, '/horizon/payments?cursor=now')).status).toBe(200)
    const merchant = sandbox.merchants[0]!
    for (const stream of ['webhook-logs/stream', 'events/stream']) {
      const refused = await rawRequest(sandbox.url, { method: 'GET', path: `/merchants/${merchant.id}/${stream}`, as: merchant })
      expect(refused.status, stream).toBe(429)
      expect(refused.json).toMatchObject({
        statusCode: 429,
        reason: 'Too Many Requests',
        message: expect.stringContaining('Too many open event streams (at most 1'),
      })
    }
  })
})

describe('stream feeding', () => {
  it('feeds every Horizon stream from one change feed: open streams read nothing until the ledger moves', async () => {
    const sandbox = await sandboxWith({})
    const ledger = sandbox.context.ledger
    const reads = vi.spyOn(ledger, 'listPayments')
    const looks = vi.spyOn(ledger, 'lastPosition')
    const opened = await Promise.all(Array.from({ length: 20 }, () => openStream(sandbox, '/horizon/payments?cursor=now')))
    expect(opened.every((stream) => stream.status === 200)).toBe(true)
    await waitFor('every stream to open', () => opened.every((stream) => stream.events.includes('open')))
    await waitFor('every stream to have made its first read', () => reads.mock.calls.length >= 20)

    reads.mockClear()
    looks.mockClear()
    // Half a second of nothing happening: five polls of one query for all, or (per-stream polling) a hundred reads.
    await waitFor('five polls, or many reads', () => looks.mock.calls.length >= 5 || reads.mock.calls.length >= 100)
    expect(reads.mock.calls.length).toBe(0)

    const payment = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Streamed to all' })
    await sandbox.direct.sandbox.pay(payment.id)
    await waitFor('every stream to see the payment', () => opened.every((stream) => stream.events.includes('message')))
  })
})
