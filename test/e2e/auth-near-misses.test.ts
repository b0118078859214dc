// Authentication near misses on every route of the app (issue 9): each request is right but for
// one detail (body, method, path, timestamp, key, signature form, admin token) and must be a 401
// with the reason of its endpoint family, changing nothing. The routes come from the app's router
// stack: a new route is held to its family's authentication unless it is listed public here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { onTheWire, routeLabel, type RouteInfo } from '../../harness/hostile.js'
import {
  rawRequest,
  rewriteSignature,
  sendSignedAttempt,
  startTestSandbox,
  type SignedAttempt,
  type TestSandbox,
} from '../../harness/sandbox.js'
import { sandboxRoutes, stateFingerprint } from '../../harness/hostile-run.js'

// Authentication reads the injected wall clock, so timestamps just outside the 300 s window are
// exact rather than racing the real clock.
const NOW_SECONDS = Math.floor(Date.now() / 1000)
const NOW = String(NOW_SECONDS)

/** Routes anyone may call (docs/api.md): the probe, the API description, pages, Horizon. */
const PUBLIC = [/^\/health$/, /^\/openapi\.json$/, /^\/s\//, /^\/checkout\//, /^\/horizon(\/|$)/]
/** Routes where credentials are optional, but checked when sent (spec 5: the cross-chain quote). */
const OPTIONAL = [/^\/cross-chain\//, /^\/payments\/:id\/cross-chain\/quote$/]
/** Sandbox-wide controls: the admin token. */
const ADMIN = /^\/sandbox\/(merchants|clock|ledger|wallets|snapshots|reset|request-logs|dashboard|tenants)(\/|$)/
/** A merchant's own clock: the admin token, or that merchant's signature (docs/clocks.md); near misses of either are 401. */
const MERCHANT_CLOCK = /^\/sandbox\/merchants\/:id\/clock(\/|$)/
/** The dashboard's pages: a session cookie from its sign-in, never API credentials (docs/dashboard.md). */
const DASHBOARD = /^\/dashboard(\/|$)/
/** What anyone may load from the dashboard: its assets and its sign-in. */
const DASHBOARD_OPEN = /^\/dashboard\/(assets\/|sign-in$)/
/** Spec 7: these families say "Signature verification failed"; the other merchant endpoints "Unauthorized". */
const SIGNATURE_FAILED_FAMILY = /^\/(invoices|merchant|currencies|merchants)(\/|$)/

type Kind = 'public' | 'optional' | 'admin' | 'dashboard' | 'merchant'
const kindOf = (route: RouteInfo): Kind =>
  PUBLIC.some((p) => p.test(route.path))
    ? 'public'
    : OPTIONAL.some((p) => p.test(route.path))
      ? 'optional'
      : MERCHANT_CLOCK.test(route.path)
        ? 'merchant'
        : ADMIN.test(route.path)
          ? 'admin'
          : DASHBOARD.test(route.path)
            ? 'dashboard'
            : 'merchant'
const reasonOf = (route: RouteInfo) => (SIGNATURE_FAILED_FAMILY.test(route.path) ? 'Signature verification failed' : 'Unauthorized')

interface Credentials {
  id: string
  apiKey: string
  apiSecret: string
}

describe('authentication near misses on every route', () => {
  let sandbox: TestSandbox
  let routes: RouteInfo[]
  let merchantA: Credentials
  let merchantB: Credentials
  let before: Record<string, unknown>

  beforeAll(async () => {
    sandbox = await startTestSandbox({ wallClock: new ManualClock(NOW_SECONDS * 1000) })
    ;[merchantA, merchantB] = [sandbox.merchants[0]!, sandbox.merchants[1]!]
    routes = sandboxRoutes(sandbox)
    // Something to lose: a paid payment of A (refundable), so a bypass would show in the fingerprint.
    const paid = await sandbox.direct.payments.create({ amount: { value: 5000, currency: 'USD' }, description: 'near-miss target' })
    await sandbox.direct.request('POST', `/sandbox/payments/${paid.id}/pay`, { body: {} })
    before = await stateFingerprint(sandbox.url, sandbox.merchants, sandbox.identity.adminToken)
  })
  afterAll(() => sandbox?.stop())

  /** The route's path with plausible ids: A's own merchant id, payment-shaped ids elsewhere. */
  const pathOf = (route: RouteInfo) =>
    onTheWire(
      route.path
        .replace(/[{}]/g, '')
        .replace(/:merchantId/g, merchantA.id)
        .replace(/[:*][A-Za-z_$][\w$]*/g, (name) => (name === ':hash' ? 'a'.repeat(64) : `pt_${'0'.repeat(32)}`)),
    )

  const attempt = (a: SignedAttempt) => sendSignedAttempt(sandbox.url, a)

  /** A correctly signed request by A for the route: each near miss changes one thing of it. */
  const exact = (route: RouteInfo): SignedAttempt => {
    const path = pathOf(route)
    const body = route.method === 'GET' ? undefined : '{"note":"signed"}'
    return {
      method: route.method,
      path,
      body,
      sign: { method: route.method, path, body: body ?? '', timestamp: NOW, secret: merchantA.apiSecret },
      key: merchantA.apiKey,
    }
  }

  /** Another resource's path: another id, another merchant, or a sibling list. */
  const neighbourOf = (path: string) =>
    path.includes('pt_')
      ? path.replace(/pt_0{32}/, `pt_${'1'.repeat(32)}`)
      : path.includes(merchantA.id)
        ? path.replace(merchantA.id, merchantB.id)
        : `${path}/x`

  const nearMisses = (route: RouteInfo): Array<[string, SignedAttempt]> => {
    const a = exact(route)
    const misses: Array<[string, SignedAttempt]> = [
      ['no signature at all', { ...a, key: '', tweak: rewriteSignature(() => '') }],
      ['swapped method', { ...a, sign: { ...a.sign, method: a.method === 'GET' ? 'POST' : 'GET' } }],
      ['path swap (signed for another route)', { ...a, sign: { ...a.sign, path: a.path === '/currencies' ? '/payments' : '/currencies' } }],
      ['path swap (signed for a neighbour)', { ...a, sign: { ...a.sign, path: neighbourOf(a.path) } }],
      ['stale timestamp (301 s old)', { ...a, sign: { ...a.sign, timestamp: String(NOW_SECONDS - 301) } }],
      ['future timestamp (301 s ahead)', { ...a, sign: { ...a.sign, timestamp: String(NOW_SECONDS + 301) } }],
      ["another merchant's key", { ...a, key: merchantB.apiKey }],
      ["another merchant's secret", { ...a, sign: { ...a.sign, secret: merchantB.apiSecret } }],
      ['truncated signature', { ...a, tweak: rewriteSignature((s) => s.slice(0, 63)) }],
      ['uppercase hex', { ...a, tweak: rewriteSignature((s) => s.toUpperCase()) }],
      ['"sha256=" prefix', { ...a, tweak: rewriteSignature((s) => `sha256=${s}`) }],
      ['base64 instead of hex', { ...a, tweak: rewriteSignature((s) => Buffer.from(s, 'hex').toString('base64')) }],
    ]
    if (a.body !== undefined) misses.push(['tampered body', { ...a, body: '{"note":"tampered"}' }])
    else misses.push(['tampered query', { ...a, path: `${a.path}?limit=6`, sign: { ...a.sign, path: `${a.path}?limit=5` } }])
    return misses
  }

  it('classifies every route of the app, and knows the families of spec 7', () => {
    const labelsOf = (kind: Kind) => routes.filter((route) => kindOf(route) === kind).map(routeLabel)
    const kinds = { merchant: labelsOf('merchant'), admin: labelsOf('admin'), public: labelsOf('public') }
    expect(kinds.merchant).toEqual(
      expect.arrayContaining(['POST /payments', 'GET /invoices', 'GET /currencies', 'POST /payments/:id/refunds']),
    )
    expect(kinds.admin).toEqual(
      expect.arrayContaining(['GET /sandbox/merchants', 'POST /sandbox/clock/advance', 'GET /sandbox/ledger/accounts']),
    )
    expect(kinds.public).toEqual(expect.arrayContaining(['GET /health', 'GET /checkout/:id']))
    expect(routes.filter((r) => kindOf(r) === 'merchant').length).toBeGreaterThanOrEqual(25)
  })

  it('refuses every near miss on every merchant route with 401 and the reason of its family', async () => {
    const wrong: string[] = []
    let sent = 0
    for (const route of routes.filter((r) => kindOf(r) === 'merchant')) {
      for (const [miss, a] of nearMisses(route)) {
        const response = await attempt(a)
        sent++
        const body = response.json as { statusCode?: unknown; reason?: unknown; message?: unknown } | undefined
        if (response.status !== 401 || body?.statusCode !== 401 || body.reason !== reasonOf(route) || typeof body.message !== 'string') {
          wrong.push(`${routeLabel(route)}, ${miss}: ${response.status} ${response.text.slice(0, 160)}`)
        }
      }
    }
    expect(wrong).toEqual([])
    expect(sent).toBeGreaterThan(300)
  })

  it('lets the unmodified requests through (control: the near misses fail for their one change)', async () => {
    for (const route of routes.filter((r) => kindOf(r) === 'merchant' && r.method === 'GET' && !r.path.includes(':'))) {
      if (/stream/.test(route.path)) continue
      const response = await attempt(exact(route))
      expect(response.status, `${routeLabel(route)}: ${response.text.slice(0, 200)}`).toBe(200)
    }
    // A write too: the same body, signed exactly, creates the payment the near misses could not.
    const path = '/payments'
    const body = JSON.stringify({ amount: { value: 100, currency: 'USD' }, description: 'control' })
    const created = await attempt({
      method: 'POST',
      path,
      body,
      sign: { method: 'POST', path, body, timestamp: NOW, secret: merchantA.apiSecret },
      key: merchantA.apiKey,
    })
    expect(created.status, created.text).toBe(200)
    const tampered = await attempt({
      method: 'POST',
      path,
      body: body.replace('100', '1'),
      sign: { method: 'POST', path, body, timestamp: NOW, secret: merchantA.apiSecret },
      key: merchantA.apiKey,
    })
    expect(tampered.status).toBe(401)
  })

  it('keeps every dashboard page shut to API credentials: a signed request with the admin token is sent to sign in', async () => {
    const wrong: string[] = []
    const shut = routes.filter((r) => kindOf(r) === 'dashboard' && !DASHBOARD_OPEN.test(r.path))
    expect(shut.map(routeLabel)).toEqual(expect.arrayContaining(['GET /dashboard/payments', 'GET /dashboard/events']))
    for (const route of shut) {
      const path = pathOf(route)
      const body = route.method === 'GET' ? undefined : 'csrf_token=x'
      const headers = { 'x-sandbox-admin-token': sandbox.identity.adminToken, 'content-type': 'application/x-www-form-urlencoded' }
      const response = await rawRequest(sandbox.url, { method: route.method, path, body, headers, as: merchantA, sign: { timestamp: NOW } })
      // A page sends the visitor to sign in; a form post is a 401.
      const expected = route.method === 'GET' ? 303 : 401
      if (response.status !== expected) wrong.push(`${routeLabel(route)}: ${response.status}, expected ${expected}`)
    }
    expect(wrong).toEqual([])
  })

  it('refuses admin routes without the exact admin token, a merchant signature included', async () => {
    const token = sandbox.identity.adminToken
    const wrong: string[] = []
    for (const route of routes.filter((r) => kindOf(r) === 'admin')) {
      const path = pathOf(route)
      const body = route.method === 'GET' ? undefined : '{}'
      const tokens: Array<[string, Record<string, string>]> = [
        ['no token', {}],
        ['token one character short', { 'x-sandbox-admin-token': token.slice(0, -1) }],
        ['token uppercased', { 'x-sandbox-admin-token': token.toUpperCase() }],
        ['token with one character more', { 'x-sandbox-admin-token': `${token}x` }],
        ['token as a bearer', { authorization: `Bearer ${token}` }],
        ["a merchant's secret as token", { 'x-sandbox-admin-token': merchantA.apiSecret }],
      ]
      for (const [miss, headers] of tokens) {
        const response = await rawRequest(sandbox.url, { method: route.method, path, body, headers })
        if (response.status !== 401 || (response.json as { reason?: string } | undefined)?.reason !== 'Unauthorized')
          wrong.push(`${routeLabel(route)}, ${miss}: ${response.status}`)
      }
      const signed = await rawRequest(sandbox.url, { method: route.method, path, body, as: merchantA, sign: { timestamp: NOW } })
      if (signed.status !== 401) wrong.push(`${routeLabel(route)}, merchant signature: ${signed.status}`)
    }
    expect(wrong).toEqual([])
  })

  it('checks credentials on optional-auth routes when they are sent', async () => {
    const optional = routes.filter((r) => kindOf(r) === 'optional')
    expect(optional.length).toBeGreaterThanOrEqual(2)
    for (const route of optional) {
      for (const [miss, a] of nearMisses(route).filter(([name]) => name !== 'no signature at all')) {
        const response = await attempt(a)
        expect(response.status, `${routeLabel(route)}, ${miss}: ${response.text.slice(0, 160)}`).toBe(401)
      }
    }
  })

  it('changed nothing but the control payment', async () => {
    const after = await stateFingerprint(sandbox.url, sandbox.merchants, sandbox.identity.adminToken)
    const payments = (state: Record<string, unknown>) => (state[merchantA.id] as { payments: number }).payments
    expect(payments(after)).toBe(payments(before) + 1)
    const withoutControl = { ...after, [merchantA.id]: { ...(after[merchantA.id] as object), payments: payments(before) } }
    expect(withoutControl).toEqual(before)
  })
})
