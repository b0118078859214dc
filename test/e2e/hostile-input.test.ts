// Hundreds of seeded malformed requests against every endpoint over real HTTP: each one must get
// a clean 4xx with the {statusCode, reason, message} error body (spec 2.10, 7), never a 5xx or a
// leaked stack, and none of them may create a payment or take the sandbox down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ENDPOINTS,
  PAYMENT_FIELDS,
  generateHostileCases,
  sendHostile,
  type HostileCase,
  type HostileCredentials,
} from '../helpers/hostile.js'
import { rawRequest, startTestSandbox, type RawResponse, type TestSandbox } from '../helpers/sandbox.js'

const SEED = 0x5eed_2026
const STACK_TRACE = /    at |\.ts:/

interface Outcome {
  case: HostileCase
  response: RawResponse
}

/** Everything wrong with one response, or [] when it is what the case expects. */
function problems({ case: c, response }: Outcome): string[] {
  const found: string[] = []
  const { status, text, json } = response
  if (STACK_TRACE.test(text)) found.push('body contains a stack trace')
  if (status >= 500) found.push(`status ${status} (server error)`)
  switch (c.expect.kind) {
    case 'health':
      if (status !== 200) found.push(`status ${status}, expected 200`)
      if ((json as { status?: unknown } | undefined)?.status !== 'ok') found.push('body is not {"status":"ok"}')
      break
    case 'page':
      if (status !== c.expect.status) found.push(`status ${status}, expected ${c.expect.status}`)
      if (!response.headers.get('content-type')?.startsWith('text/html')) found.push(`content-type ${response.headers.get('content-type')}, expected HTML`)
      break
    case 'error': {
      if (status < 400 || status >= 500) found.push(`status ${status} is not 4xx`)
      if (status !== c.expect.status) found.push(`status ${status}, expected ${c.expect.status}`)
      if (typeof json !== 'object' || json === null || Array.isArray(json)) {
        found.push('body is not a JSON object')
        break
      }
      const body = json as Record<string, unknown>
      if (typeof body.statusCode !== 'number' || body.statusCode !== status) found.push(`statusCode ${String(body.statusCode)} does not equal the HTTP status`)
      if (typeof body.reason !== 'string' || body.reason === '') found.push('reason is not a non-empty string')
      if (typeof body.message !== 'string') found.push('message is not a string')
      if (!response.headers.get('content-type')?.startsWith('application/json')) found.push(`content-type ${response.headers.get('content-type')}`)
      break
    }
  }
  return found
}

describe('hostile input: every malformed request gets a clean 4xx JSON error and changes nothing', () => {
  let sandbox: TestSandbox
  let creds: HostileCredentials
  let cases: HostileCase[]
  const outcomes: Outcome[] = []

  beforeAll(async () => {
    sandbox = await startTestSandbox()
    const [direct, escrow] = sandbox.merchants
    creds = { direct: direct!, escrow: escrow!, adminToken: sandbox.identity.adminToken }
    cases = generateHostileCases(SEED, creds)
    // One at a time, in generated order: the run is the same every time.
    for (const c of cases) outcomes.push({ case: c, response: await sendHostile(sandbox.url, c, creds) })
  })
  afterAll(() => sandbox?.stop())

  it('generates the same 400+ cases from the same seed, spread over every endpoint and POST /payments field', () => {
    expect(cases.length).toBeGreaterThanOrEqual(400)
    const serialize = (list: HostileCase[]) =>
      JSON.stringify(list, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value))
    expect(serialize(generateHostileCases(SEED, creds))).toBe(serialize(cases))
    expect(serialize(generateHostileCases(SEED + 1, creds))).not.toBe(serialize(cases))
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length)

    const perEndpoint = Object.fromEntries(ENDPOINTS.map((e) => [e, cases.filter((c) => c.endpoint === e).length]))
    for (const endpoint of ENDPOINTS) expect(perEndpoint[endpoint], endpoint).toBeGreaterThanOrEqual(10)
    for (const field of PAYMENT_FIELDS) {
      expect(cases.filter((c) => c.family === 'wrong-type' && c.field === field).length, field).toBeGreaterThanOrEqual(3)
      expect(cases.filter((c) => c.family === 'bad-value' && c.field === field).length, field).toBeGreaterThanOrEqual(3)
    }
    const families = new Set(cases.map((c) => c.family))
    for (const family of ['malformed-json', 'missing', 'unknown-field', 'huge-string', 'deep-nesting', 'invalid-utf8', 'oversized', 'content-type', 'not-an-object', 'query', 'idempotency-key', 'digest-headers', 'junk-header']) {
      expect(families, family).toContain(family)
    }
    // Most body cases are signed so that they get past authentication to validation.
    const postCases = cases.filter((c) => c.endpoint === 'POST /payments')
    expect(postCases.filter((c) => c.signAs !== undefined).length / postCases.length).toBeGreaterThan(0.9)
    expect(cases.some((c) => typeof c.body === 'string' && c.body.length >= 3 * 1024 * 1024)).toBe(true)
    expect(cases.some((c) => typeof c.body === 'string' && c.body.startsWith('['.repeat(10_000)))).toBe(true)
  })

  it('answers each malformed request with its 4xx and a {statusCode, reason, message} JSON body, never a 5xx or a stack trace', () => {
    expect(outcomes).toHaveLength(cases.length)
    const failures = outcomes
      .map((outcome) => ({ outcome, found: problems(outcome) }))
      .filter(({ found }) => found.length > 0)
      .map(({ outcome, found }) => `${outcome.case.name}: ${found.join('; ')} — ${outcome.response.text.slice(0, 200)}`)
    expect(failures).toEqual([])
    const statuses = new Set(outcomes.map((o) => o.response.status))
    for (const status of [400, 401, 404, 413, 415]) expect(statuses).toContain(status)
  })

  it('refuses signed bad bodies at validation, naming the field, not at authentication', () => {
    const signedWrongTypes = outcomes.filter((o) => o.case.family === 'wrong-type')
    expect(signedWrongTypes.length).toBeGreaterThanOrEqual(PAYMENT_FIELDS.length * 3)
    for (const { case: c, response } of signedWrongTypes) {
      const message = (response.json as { message?: string } | undefined)?.message ?? ''
      expect(response.status, c.name).toBe(400)
      expect(message, c.name).toContain(c.field!.split('.').pop()!)
    }
  })

  it('is still healthy afterwards and no invalid request created a payment', async () => {
    const health = await rawRequest(sandbox.url, { method: 'GET', path: '/health' })
    expect(health.status).toBe(200)
    expect(health.json).toEqual({ status: 'ok' })

    for (const merchant of [creds.direct, creds.escrow]) {
      for (const path of ['/payments', '/refunds', '/invoices']) {
        const list = await rawRequest(sandbox.url, { method: 'GET', path, as: merchant })
        expect(list.status).toBe(200)
        expect((list.json as { meta: { totalItems: number } }).meta.totalItems, path).toBe(0)
      }
    }
    expect((await sandbox.admin.sandbox.merchants()).items).toHaveLength(2)
    // Nothing moved on the ledger either: only genesis transactions are there.
    const { items } = await sandbox.admin.request<{ items: Array<{ memo: string | null }> }>('GET', '/sandbox/ledger/transactions', {
      auth: 'admin',
      query: { limit: 200 },
    })
    expect(items.every((tx) => tx.memo === null)).toBe(true)

    // The check above can see a payment: a valid request made now shows up in the same list.
    const created = await rawRequest(sandbox.url, {
      method: 'POST',
      path: '/payments',
      body: JSON.stringify({ amount: { value: 1234, currency: 'EUR' }, description: 'after the storm' }),
      as: creds.direct,
    })
    expect(created.status).toBe(200)
    const list = await rawRequest(sandbox.url, { method: 'GET', path: '/payments', as: creds.direct })
    expect((list.json as { meta: { totalItems: number } }).meta.totalItems).toBe(1)
    expect((list.json as { items: Array<{ description: string }> }).items[0]!.description).toBe('after the storm')
  })
})
