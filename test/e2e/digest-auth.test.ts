// Digest authentication end to end (spec 5 and 7), over real HTTP: exactly which signatures the
// sandbox accepts, that every near miss is a 401 with the reason of its endpoint family, that
// one merchant can never see another's payments, and that the admin API wants its token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import {
  rawRequest,
  rewriteSignature,
  sendSignedAttempt,
  startTestSandbox,
  type RawRequest,
  type RawResponse,
  type SignedAttempt,
  type TestSandbox,
} from '../../harness/sandbox.js'

type Credentials = { apiKey: string; apiSecret: string }

interface Payment {
  id: string
  description: string
}
interface PaymentList {
  items: Payment[]
  meta: { totalItems: number; itemsPerPage: number; currentPage: number }
}

// Authentication reads the injected wall clock, so timestamps at the edge of the 300 s window
// are exact rather than racing the real clock.
const NOW_SECONDS = Math.floor(Date.now() / 1000)
const NOW = String(NOW_SECONDS)

const errorBody = (response: RawResponse) => response.json as { statusCode: unknown; reason: unknown; message: unknown }

function expect401(response: RawResponse, reason: string, message?: RegExp): void {
  expect(response.status, response.text).toBe(401)
  const body = errorBody(response)
  expect(body.statusCode).toBe(401)
  expect(body.reason).toBe(reason)
  expect(typeof body.message).toBe('string')
  if (message) expect(body.message).toMatch(message)
}

describe('digest authentication over real HTTP', () => {
  let sandbox: TestSandbox
  let merchantA: Credentials
  let merchantB: Credentials

  /** rawRequest signed at the sandbox's wall-clock time (unless the case overrides it). */
  const signed = (request: RawRequest & { as: Credentials }) =>
    rawRequest(sandbox.url, { ...request, sign: { timestamp: NOW, ...request.sign } })

  beforeAll(async () => {
    sandbox = await startTestSandbox({ wallClock: new ManualClock(NOW_SECONDS * 1000) })
    ;[merchantA, merchantB] = [sandbox.merchants[0]!, sandbox.merchants[1]!]
  })
  afterAll(() => sandbox?.stop())

  const paymentBody = (description: string) => ({ amount: { value: 2500, currency: 'USD' }, description })

  async function createPayment(as: Credentials, description: string): Promise<Payment> {
    const response = await signed({ method: 'POST', path: '/payments', body: JSON.stringify(paymentBody(description)), as })
    expect(response.status, response.text).toBe(200)
    return response.json as Payment
  }

  async function listAll(as: Credentials): Promise<PaymentList> {
    const response = await signed({ method: 'GET', path: '/payments?limit=100', as })
    expect(response.status, response.text).toBe(200)
    return response.json as PaymentList
  }

  describe('accepted signatures', () => {
    it('accepts the exact signature on GET and POST', async () => {
      const list = await signed({ method: 'GET', path: '/payments', as: merchantA })
      expect(list.status).toBe(200)
      expect(list.json).toMatchObject({ items: expect.any(Array), meta: { currentPage: 1, itemsPerPage: 20 } })

      const currencies = await signed({ method: 'GET', path: '/currencies', as: merchantA })
      expect(currencies.status).toBe(200)
      expect((currencies.json as { items: Array<{ code: string }> }).items.map((c) => c.code)).toContain('USD')

      const payment = await createPayment(merchantA, 'exact signature')
      expect(payment.id).toMatch(/^pt_[0-9a-f]{32}$/)
      expect(payment.description).toBe('exact signature')
    })

    it('accepts a signature over the path without its query string, and applies the query', async () => {
      const response = await signed({ method: 'GET', path: '/payments?page=1&limit=5', sign: { path: '/payments' }, as: merchantA })
      expect(response.status, response.text).toBe(200)
      expect((response.json as PaymentList).meta).toMatchObject({ currentPage: 1, itemsPerPage: 5 })

      // Only the query-less form is tolerated: a signature over another query is not.
      const otherQuery = await signed({
        method: 'GET',
        path: '/payments?page=1&limit=5',
        sign: { path: '/payments?page=2&limit=5' },
        as: merchantA,
      })
      expect401(otherQuery, 'Unauthorized')
    })

    it('accepts a signature over compact JSON when the body was sent pretty-printed', async () => {
      const body = paymentBody('pretty-printed body')
      const response = await signed({
        method: 'POST',
        path: '/payments',
        body: JSON.stringify(body, null, 2),
        sign: { body: JSON.stringify(body) },
        as: merchantA,
      })
      expect(response.status, response.text).toBe(200)
      expect((response.json as Payment).description).toBe('pretty-printed body')

      // Compact JSON means JSON.stringify of the parsed body; other re-serialisations fail.
      const reordered = await signed({
        method: 'POST',
        path: '/payments',
        body: JSON.stringify(body, null, 2),
        sign: { body: JSON.stringify({ description: body.description, amount: body.amount }) },
        as: merchantA,
      })
      expect401(reordered, 'Unauthorized')
    })

    it('accepts an empty-object body signed as "" (it then fails validation, not authentication)', async () => {
      for (const sent of ['{}', '{ }', '{\n}']) {
        const response = await signed({ method: 'POST', path: '/payments', body: sent, sign: { body: '' }, as: merchantA })
        expect(response.status, `${JSON.stringify(sent)}: ${response.text}`).toBe(400)
        expect(errorBody(response)).toMatchObject({ statusCode: 400, reason: 'Bad Request', message: expect.stringContaining('amount') })
      }
      // The same on a "Signature verification failed" endpoint: past auth, there is no POST route.
      const currencies = await signed({ method: 'POST', path: '/currencies', body: '{}', sign: { body: '' }, as: merchantA })
      expect(currencies.status, currencies.text).toBe(404)

      const wrong = await signed({ method: 'POST', path: '/payments', body: '{}', sign: { body: '{"a":1}' }, as: merchantA })
      expect401(wrong, 'Unauthorized')
    })

    it('accepts timestamps up to 300 s from the server clock, either way', async () => {
      for (const timestamp of [NOW_SECONDS - 300, NOW_SECONDS + 300]) {
        const response = await signed({ method: 'GET', path: '/currencies', sign: { timestamp: String(timestamp) }, as: merchantA })
        expect(response.status, `${timestamp - NOW_SECONDS} s: ${response.text}`).toBe(200)
      }
    })
  })

  describe('refused signatures', () => {
    const attempt = (a: SignedAttempt) => sendSignedAttempt(sandbox.url, a)

    /** A correct GET of `path` as merchant A; each case changes exactly one thing. */
    const base = (path: string): SignedAttempt => ({
      method: 'GET',
      path,
      sign: { method: 'GET', path, body: '', timestamp: NOW, secret: merchantA.apiSecret },
      key: merchantA.apiKey,
    })

    const endpoints = [
      { path: '/payments', other: '/currencies', reason: 'Unauthorized' },
      { path: '/currencies', other: '/payments', reason: 'Signature verification failed' },
    ] as const

    for (const { path, other, reason } of endpoints) {
      describe(`${path} answers 401 "${reason}"`, () => {
        it('but accepts the unmodified request (control)', async () => {
          expect((await attempt(base(path))).status).toBe(200)
        })

        it('for a tampered body', async () => {
          const signedBody = JSON.stringify(paymentBody('signed body'))
          const sentBody = JSON.stringify(paymentBody('tampered body'))
          const a = base(path)
          const response = await attempt({ ...a, method: 'POST', body: sentBody, sign: { ...a.sign, method: 'POST', body: signedBody } })
          expect401(response, reason, /x-digest-signature does not match/)
          const descriptions = (await listAll(merchantA)).items.map((p) => p.description)
          expect(descriptions).not.toContain('tampered body')
        })

        it('for a GET signature sent as POST', async () => {
          expect401(await attempt({ ...base(path), method: 'POST' }), reason, /does not match/)
        })

        it(`for a signature over ${other}`, async () => {
          const a = base(path)
          expect401(await attempt({ ...a, sign: { ...a.sign, path: other } }), reason, /does not match/)
        })

        it('for a timestamp 301 s in the past or the future', async () => {
          for (const timestamp of [NOW_SECONDS - 301, NOW_SECONDS + 301]) {
            const a = base(path)
            expect401(await attempt({ ...a, sign: { ...a.sign, timestamp: String(timestamp) } }), reason, /more than 300 s/)
          }
        })

        it('for a timestamp that is not Unix seconds', async () => {
          for (const timestamp of ['abc', `${NOW}.0`, `${NOW}000`, `-${NOW}`, ` ${NOW}x`]) {
            const a = base(path)
            expect401(await attempt({ ...a, sign: { ...a.sign, timestamp } }), reason, /must be Unix seconds/)
          }
        })

        it("for another merchant's key with this merchant's secret", async () => {
          expect401(await attempt({ ...base(path), key: merchantB.apiKey }), reason, /does not match/)
        })

        it('for an unknown key', async () => {
          expect401(await attempt({ ...base(path), key: `pk_test_${'0'.repeat(32)}` }), reason, /Unknown API key/)
        })

        it('for a truncated signature', async () => {
          expect401(await attempt({ ...base(path), tweak: rewriteSignature((s) => s.slice(0, 63)) }), reason, /does not match/)
        })

        it('for the correct signature in UPPERCASE hex', async () => {
          expect401(await attempt({ ...base(path), tweak: rewriteSignature((s) => s.toUpperCase()) }), reason, /does not match/)
        })

        for (const header of ['x-digest-key', 'x-digest-timestamp', 'x-digest-signature']) {
          it(`without ${header}`, async () => {
            const tweak = (h: Record<string, string>) => {
              delete h[header]
            }
            expect401(await attempt({ ...base(path), tweak }), reason, new RegExp(`^Missing ${header} header$`))
          })
        }
      })
    }
  })

  describe('merchant isolation', () => {
    it("gives merchant B a 404 for merchant A's payment, with the same body as for an unknown id", async () => {
      const payment = await createPayment(merchantA, 'only for A')
      const own = await signed({ method: 'GET', path: `/payments/${payment.id}`, as: merchantA })
      expect(own.status).toBe(200)
      expect((own.json as Payment).id).toBe(payment.id)

      const unknownId = `pt_${'0'.repeat(32)}`
      const foreign = await signed({ method: 'GET', path: `/payments/${payment.id}`, as: merchantB })
      const unknown = await signed({ method: 'GET', path: `/payments/${unknownId}`, as: merchantB })
      expect(foreign.status).toBe(404)
      expect(unknown.status).toBe(404)
      expect(foreign.json).toEqual({
        statusCode: 404,
        reason: 'Not Found',
        message: `No payment ${payment.id}`,
        requestId: foreign.headers.get('request-id'),
      })
      expect(unknown.json).toEqual({
        statusCode: 404,
        reason: 'Not Found',
        message: `No payment ${unknownId}`,
        requestId: unknown.headers.get('request-id'),
      })
      const masked = (r: typeof foreign, id: string) => r.text.replace(id, '<id>').replace(r.headers.get('request-id')!, '<request id>')
      expect(masked(foreign, payment.id)).toBe(masked(unknown, unknownId))
      expect(foreign.text).not.toContain('only for A')
    })

    it("leaves A's payments out of B's list", async () => {
      const payment = await createPayment(merchantA, 'listed for A only')
      const ofB = await createPayment(merchantB, 'listed for B only')

      const listA = await listAll(merchantA)
      const listB = await listAll(merchantB)
      expect(listA.items.map((p) => p.id)).toContain(payment.id)
      expect(listA.items.map((p) => p.id)).not.toContain(ofB.id)
      expect(listB.items.map((p) => p.id)).toEqual([ofB.id])
      expect(listB.meta.totalItems).toBe(1)
      expect(listB.items.map((p) => p.description)).not.toContain('listed for A only')
    })
  })

  describe('admin token', () => {
    it('refuses /sandbox/merchants without or with a wrong x-sandbox-admin-token, and answers with the right one', async () => {
      const token = sandbox.identity.adminToken
      const missing = await rawRequest(sandbox.url, { method: 'GET', path: '/sandbox/merchants' })
      expect401(missing, 'Unauthorized', /^Missing x-sandbox-admin-token header$/)

      for (const wrong of [`${token}x`, token.slice(0, -1), 'admin']) {
        const response = await rawRequest(sandbox.url, {
          method: 'GET',
          path: '/sandbox/merchants',
          headers: { 'x-sandbox-admin-token': wrong },
        })
        expect401(response, 'Unauthorized', /^Wrong x-sandbox-admin-token$/)
      }

      // A merchant's digest signature is not the admin token.
      const merchant = await signed({ method: 'GET', path: '/sandbox/merchants', as: merchantA })
      expect401(merchant, 'Unauthorized', /^Missing x-sandbox-admin-token header$/)

      const right = await rawRequest(sandbox.url, {
        method: 'GET',
        path: '/sandbox/merchants',
        headers: { 'x-sandbox-admin-token': token },
      })
      expect(right.status, right.text).toBe(200)
      const keys = (right.json as { items: Array<{ apiKey: string }> }).items.map((m) => m.apiKey)
      expect(keys).toEqual(expect.arrayContaining([merchantA.apiKey, merchantB.apiKey]))
    })
  })
})
