import http from 'node:http'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { signDigest } from '../../src/signing.js'
import { rawRequest, startTestSandbox, temporaryDir } from '../../harness/sandbox.js'

describe('sandbox server', () => {
  it('answers /health without auth and unknown routes with a JSON 404', async () => {
    const sandbox = await startTestSandbox()
    try {
      const health = await rawRequest(sandbox.url, { method: 'GET', path: '/health' })
      expect(health.status).toBe(200)
      expect(health.json).toMatchObject({ status: 'ok' })
      const unknown = await rawRequest(sandbox.url, { method: 'GET', path: '/nowhere' })
      expect(unknown.status).toBe(404)
      expect(unknown.json).toEqual({
        statusCode: 404,
        reason: 'Not Found',
        message: 'No route for GET /nowhere',
        requestId: unknown.headers.get('request-id'),
      })
      expect(unknown.headers.get('x-powered-by')).toBeNull()
    } finally {
      await sandbox.stop()
    }
  })

  it('answers requests with oversized headers with the JSON error body too', async () => {
    const sandbox = await startTestSandbox()
    try {
      const response = await new Promise<{ status: number; type: string | undefined; requestId: unknown; text: string }>(
        (resolve, reject) => {
          const request = http.get(`${sandbox.url}/health`, { headers: { 'x-padding': 'a'.repeat(20_000) } }, (res) => {
            let text = ''
            res.on('data', (chunk: Buffer) => (text += chunk.toString()))
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], requestId: res.headers['request-id'], text }),
            )
          })
          request.on('error', reject)
        },
      )
      expect(response.status).toBe(431)
      expect(response.type).toContain('application/json')
      expect(JSON.parse(response.text)).toEqual({
        statusCode: 431,
        reason: 'Request Header Fields Too Large',
        message: 'Request headers are too large',
        requestId: response.requestId,
      })
      expect(response.requestId).toMatch(/^req_[0-9a-f-]{36}$/)
    } finally {
      await sandbox.stop()
    }
  })

  it('keeps its merchants, keys and payments across a restart on the same file', async () => {
    const db = path.join(temporaryDir(), 'restart.db')
    const first = await startTestSandbox({ db })
    const payment = await first.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Survives' })
    await first.stop()

    const second = await startTestSandbox({ db })
    try {
      // The first made the genesis; the second joined the sandbox already in the file.
      expect([first.joined, second.joined]).toEqual([false, true])
      expect(second.merchants).toEqual(first.merchants)
      expect(second.identity).toEqual(first.identity)
      expect((await second.direct.payments.get(payment.id)).description).toBe('Survives')
    } finally {
      await second.stop()
    }
  })

  it('derives every key and ledger account from --seed on a new database', async () => {
    const a = await startTestSandbox({ seed: 'ci' })
    const b = await startTestSandbox({ seed: 'ci' })
    const c = await startTestSandbox({ seed: 'other' })
    try {
      expect(b.merchants).toEqual(a.merchants)
      expect(b.identity).toEqual(a.identity)
      expect(c.merchants[0]?.apiKey).not.toBe(a.merchants[0]?.apiKey)
      expect(c.identity.usdcIssuer).not.toBe(a.identity.usdcIssuer)
    } finally {
      await Promise.all([a.stop(), b.stop(), c.stop()])
    }
  })

  it('gives the default merchant fixed credentials when asked', async () => {
    const sandbox = await startTestSandbox({ defaultCredentials: { apiKey: 'pk_test_ci', apiSecret: 'sk_test_ci' } })
    try {
      expect(sandbox.merchants[0]).toMatchObject({ apiKey: 'pk_test_ci', apiSecret: 'sk_test_ci', settlement_mode: 'direct' })
      expect((await sandbox.direct.payments.list()).meta.totalItems).toBe(0)
    } finally {
      await sandbox.stop()
    }
  })

  it('lets a request in flight finish, then stops accepting connections', async () => {
    const sandbox = await startTestSandbox()
    const merchant = sandbox.merchants[0]!
    const body = JSON.stringify({ amount: { value: 100, currency: 'USD' }, description: 'In flight' })
    const timestamp = String(Math.floor(Date.now() / 1000))
    const signature = signDigest(merchant.apiSecret, { path: '/payments', timestamp, method: 'POST', body })
    const arrived = new Promise((resolve) => sandbox.server.once('request', resolve))
    const request = http.request(`${sandbox.url}/payments`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-digest-key': merchant.apiKey,
        'x-digest-timestamp': timestamp,
        'x-digest-signature': signature,
      },
    })
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let text = ''
        response.on('data', (chunk: Buffer) => (text += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }))
      })
      request.on('error', reject)
    })
    // Half the body now; the server has the request but cannot finish it yet.
    request.write(body.slice(0, 10))
    await arrived
    const stopped = sandbox.stop()
    request.end(body.slice(10))

    const response = await answered
    expect(response.status).toBe(200)
    expect(JSON.parse(response.text)).toMatchObject({ description: 'In flight', status: 'open' })
    await stopped
    await expect(fetch(`${sandbox.url}/health`)).rejects.toThrow()
  })
})
