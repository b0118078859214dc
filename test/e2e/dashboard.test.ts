// The dashboard over real HTTP: one-time sign-in links, sessions that expire by the injected wall
// clock, merchant sign-in, CSRF refusal, and readable 4xx pages for malformed input.
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { SESSION_TTL_MS, SIGN_IN_TOKEN_TTL_MS } from '../../sandbox/dashboard/dashboard-sessions.js'
import { DashboardVisitor } from '../../harness/dashboard-visitor.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

describe('the dashboard over HTTP', () => {
  let sandbox: TestSandbox
  const wallClock = new ManualClock(Date.now())

  beforeAll(async () => {
    sandbox = await startTestSandbox({ wallClock })
  })
  afterAll(() => sandbox.stop())
  // Tests move the wall clock; merchant clients sign with the real one, which it must stay near.
  beforeEach(() => wallClock.set(Date.now()))

  const signedInAdmin = () => DashboardVisitor.admin(sandbox.url, sandbox.admin)

  it('redeems a sign-in link once, into an HttpOnly SameSite=Strict cookie, and redirects to a URL without the token', async () => {
    const { url } = await sandbox.admin.sandbox.dashboardLink()
    const visitor = new DashboardVisitor(sandbox.url)
    const first = await visitor.request(url)
    expect(first.status).toBe(303)
    expect(first.location).toBe('/dashboard')
    const cookie = first.headers.getSetCookie().find((line) => line.startsWith('paybox_dashboard_'))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    expect(cookie).toMatch(/Path=\/dashboard/)
    expect((await visitor.request('/dashboard/payments')).status).toBe(200)

    const reused = await new DashboardVisitor(sandbox.url).request(url)
    expect(reused.status).toBe(401)
    expect(reused.text).toContain('already used or has expired')
    expect(reused.headers.getSetCookie().some((line) => /^paybox_dashboard_\d+=[^;]/.test(line))).toBe(false)
  })

  it('stores only digests of tokens and session ids', async () => {
    const { url } = await sandbox.admin.sandbox.dashboardLink()
    const token = new URL(url).searchParams.get('token')!
    const tokens = await sandbox.context.db.selectFrom('dashboard_sign_in_tokens').select('token_hash').execute()
    expect(tokens.map((row) => row.token_hash)).not.toContain(token)
    const visitor = new DashboardVisitor(sandbox.url)
    await visitor.request(url)
    const sessionId = [...visitor.cookies.values()][0]!
    const sessions = await sandbox.context.db.selectFrom('dashboard_sessions').select('id_hash').execute()
    expect(sessions.length).toBeGreaterThan(0)
    expect(sessions.map((row) => row.id_hash)).not.toContain(sessionId)
  })

  it('refuses a link past its lifetime', async () => {
    const { url } = await sandbox.admin.sandbox.dashboardLink()
    wallClock.advance(SIGN_IN_TOKEN_TTL_MS)
    expect((await new DashboardVisitor(sandbox.url).request(url)).status).toBe(401)
  })

  it('ends a session when it expires: pages send the visitor to sign in again', async () => {
    const visitor = await signedInAdmin()
    expect((await visitor.request('/dashboard/payments')).status).toBe(200)
    wallClock.advance(SESSION_TTL_MS - 1)
    expect((await visitor.request('/dashboard/payments')).status).toBe(200)
    wallClock.advance(1)
    const expired = await visitor.request('/dashboard/payments')
    expect(expired.status).toBe(303)
    expect(expired.location).toBe('/dashboard/sign-in')
  })

  it('shows nothing without signing in: pages redirect to sign-in, posts and the stream are 401', async () => {
    const visitor = new DashboardVisitor(sandbox.url)
    for (const path of ['/dashboard', '/dashboard/payments', '/dashboard/payments/anything']) {
      const answer = await visitor.request(path)
      expect(answer.status, path).toBe(303)
      expect(answer.location).toBe('/dashboard/sign-in')
    }
    expect((await visitor.request('/dashboard/events', { headers: { accept: 'text/event-stream' } })).status).toBe(401)
    expect((await visitor.request('/dashboard/sign-out', { form: {} })).status).toBe(401)
  })

  it('signs a merchant in with its API key and secret, behind the form token', async () => {
    const [direct] = sandbox.merchants
    const visitor = new DashboardVisitor(sandbox.url)
    const form = await visitor.request('/dashboard/sign-in')
    expect(form.status).toBe(200)
    const formToken = DashboardVisitor.field(form.text, 'form_token')

    const wrong = await visitor.request('/dashboard/sign-in', {
      form: { form_token: formToken, api_key: direct!.apiKey, api_secret: 'nope' },
    })
    expect(wrong.status).toBe(401)
    expect(wrong.text).toContain('No merchant has this API key and secret')

    const retry = DashboardVisitor.field(wrong.text, 'form_token')
    const forged = await new DashboardVisitor(sandbox.url).request('/dashboard/sign-in', {
      form: { form_token: retry, api_key: direct!.apiKey, api_secret: direct!.apiSecret },
    })
    expect(forged.status).toBe(403)

    const signedIn = await visitor.request('/dashboard/sign-in', {
      form: { form_token: retry, api_key: direct!.apiKey, api_secret: direct!.apiSecret },
    })
    expect(signedIn.status).toBe(303)
    const page = await visitor.request('/dashboard/payments')
    expect(page.status).toBe(200)
    expect(page.text).toContain(direct!.name)
    // A merchant session has no selector and cannot switch.
    expect(page.text).not.toContain('merchant-select')
    const csrf = DashboardVisitor.field(page.text, 'csrf_token')
    const [, escrow] = sandbox.merchants
    const switched = await visitor.request('/dashboard/merchant', { form: { csrf_token: csrf, merchant_id: escrow!.id } })
    expect(switched.status).toBe(403)
  })

  it('refuses a POST without the session CSRF token, or with another session’s, and changes nothing', async () => {
    const visitor = await signedInAdmin()
    const other = await signedInAdmin()
    const page = await visitor.request('/dashboard/payments')
    const [, escrow] = sandbox.merchants
    const othersToken = DashboardVisitor.field((await other.request('/dashboard/payments')).text, 'csrf_token')

    const forms: Array<Record<string, string>> = [
      { merchant_id: escrow!.id },
      { merchant_id: escrow!.id, csrf_token: othersToken },
      { merchant_id: escrow!.id, csrf_token: '' },
    ]
    for (const form of forms) {
      const refused = await visitor.request('/dashboard/merchant', { form })
      expect(refused.status).toBe(403)
      expect(refused.text).toContain('CSRF')
    }
    // Still looking at the first merchant: nothing changed.
    expect((await visitor.request('/dashboard/payments')).text).toMatch(/<option value="[^"]+" selected>Acme Store/)

    const switched = await visitor.request('/dashboard/merchant', {
      form: { merchant_id: escrow!.id, csrf_token: DashboardVisitor.field(page.text, 'csrf_token') },
    })
    expect(switched.status).toBe(303)
    expect((await visitor.request('/dashboard/payments')).text).toMatch(new RegExp(`<option value="${escrow!.id}" selected>`))
  })

  it('answers malformed input with a readable 4xx page, never a 500', async () => {
    const visitor = await signedInAdmin()
    const csrf = DashboardVisitor.field((await visitor.request('/dashboard/payments')).text, 'csrf_token')
    const cases: Array<[string, Parameters<DashboardVisitor['request']>[1], number]> = [
      ['/dashboard/payments?status=bogus', {}, 400],
      ['/dashboard/payments?startDate=yesterday', {}, 400],
      ['/dashboard/payments?limit=100000', {}, 400],
      ['/dashboard/payments?page=0', {}, 400],
      ['/dashboard/payments?unknown=1', {}, 400],
      ['/dashboard/no-such-page', {}, 404],
      ['/dashboard/merchant', { form: { csrf_token: csrf, merchant_id: 'nobody' } }, 400],
      ['/dashboard/merchant', { form: { csrf_token: csrf } }, 400],
      ['/dashboard/merchant', { form: { csrf_token: csrf, merchant_id: 'x'.repeat(20_000) } }, 413],
      ['/dashboard/sign-in?token=', {}, 401],
      ['/dashboard/sign-in?token=a&token=b', {}, 401],
    ]
    for (const [path, init, status] of cases) {
      const answer = await visitor.request(path, init)
      expect(answer.status, path).toBe(status)
      expect(answer.headers.get('content-type'), path).toMatch(/^text\/html/)
      expect(answer.headers.get('content-security-policy'), path).toMatch(/default-src 'self'/)
    }
  })

  it("serves a payment's QR code as an image of its own: the wallet link, and only to its merchant", async () => {
    const payment = await sandbox.direct.payments.create({ amount: { value: 1250, currency: 'USD' }, description: 'QR' })
    const admin = await signedInAdmin()
    const page = await admin.request(`/dashboard/payments/${payment.id}`)
    const src = /<img[^>]*data-testid="qr"[^>]*src="([^"]+)"/.exec(page.text)?.[1]
    expect(src).toBe(`/dashboard/payments/${payment.id}/qr.png`)
    const cookie = [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const image = await fetch(`${sandbox.url}${src}`, { headers: { cookie } })
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    const png = PNG.sync.read(Buffer.from(await image.arrayBuffer()))
    // jsqr is CommonJS with its function on `default` as well, which is what NodeNext types see.
    expect(jsQR.default(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(payment.qrCode)

    const escrowMerchant = await DashboardVisitor.merchant(sandbox.url, sandbox.merchants[1]!)
    expect((await escrowMerchant.request(src!)).status).toBe(404)
    expect((await new DashboardVisitor(sandbox.url).request(src!)).status).toBe(303)
  })

  it('pages the payments list with its filters kept in the previous and next links', async () => {
    for (const n of [1, 2, 3])
      await sandbox.direct.payments.create({ amount: { value: 100 * n, currency: 'EUR' }, description: `Paged ${n}`, storeId: 'paged' })
    const visitor = await DashboardVisitor.merchant(sandbox.url, sandbox.merchants[0]!)
    const second = await visitor.request('/dashboard/payments?storeId=paged&limit=1&page=2')
    expect(second.status).toBe(200)
    expect(second.text).toContain('Page 2 of 3 · 3 payments')
    const link = (rel: string) =>
      new RegExp(`href="([^"]+)" rel="${rel}"`)
        .exec(second.text)![1]!
        .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    expect(link('prev')).toBe('/dashboard/payments?storeId=paged&limit=1&page=1')
    expect(link('next')).toBe('/dashboard/payments?storeId=paged&limit=1&page=3')
  })

  it('answers every malformed action form with a readable 4xx page and changes nothing', async () => {
    const payment = await sandbox.direct.payments.create({ amount: { value: 1250, currency: 'EUR' }, description: 'Malformed forms' })
    const visitor = await signedInAdmin()
    const detail = await visitor.request(`/dashboard/payments/${payment.id}`)
    expect(detail.status).toBe(200)
    const csrf_token = DashboardVisitor.field(detail.text, 'csrf_token')
    const action = (name: string) => `/dashboard/payments/${payment.id}/actions/${name}`
    const key = (suffix: string) => ({ csrf_token, idempotency_key: `malformed-${suffix}` })
    const cases: Array<[string, Record<string, string>, number, string]> = [
      [action('teleport'), key('1'), 404, 'No payment action teleport'],
      [action('underpay'), { csrf_token }, 400, 'idempotency_key'],
      [action('underpay'), { csrf_token, idempotency_key: 'k'.repeat(300) }, 400, 'idempotency_key'],
      [action('expire'), key('2'), 400, 'Tick the confirmation box'],
      [action('refund'), { ...key('3'), confirm: 'yes' }, 409, 'has received nothing to refund'],
      [action('wrong-memo'), { ...key('4'), memo: 'm'.repeat(40) }, 400, 'memo'],
      [action('fail'), { ...key('5'), confirm: 'yes', reason: 'r'.repeat(300) }, 400, 'reason'],
      [action('accept-underpayment'), key('6'), 400, 'only an underpaid payment'],
      [action('escrow-release'), key('7'), 409, 'direct merchant'],
      [`/dashboard/payments/pt_${'0'.repeat(32)}/actions/pay`, key('8'), 404, 'No payment'],
      [action('pay'), { ...key('9'), padding: 'x'.repeat(20_000) }, 413, 'exceeds'],
    ]
    for (const [path, form, status, says] of cases) {
      const answer = await visitor.request(path, { form })
      expect(answer.status, `${path} ${JSON.stringify(form).slice(0, 80)}`).toBe(status)
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/)
      expect(answer.text).toContain(says)
    }
    // A refund amount that is not an amount, once the payment has something to refund.
    const paid = await visitor.request(action('pay'), { form: key('10') })
    expect(paid.status).toBe(303)
    const refund = await visitor.request(action('refund'), { form: { ...key('11'), confirm: 'yes', amount: '12,50€' } })
    expect(refund.status).toBe(400)
    expect(refund.text).toContain('is not an amount in EUR')
    expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'paid', refunded: false })
  })

  it('funds, releases and fails escrow orders through the escrow services', async () => {
    const [, escrowMerchant] = sandbox.merchants
    const visitor = await DashboardVisitor.merchant(sandbox.url, escrowMerchant!)
    const act = async (paymentId: string, action: string, fields: Record<string, string> = {}) => {
      const page = await visitor.request(`/dashboard/payments/${paymentId}`)
      expect(page.text, action).toContain(`data-testid="action-${action}"`)
      const form = {
        csrf_token: DashboardVisitor.field(page.text, 'csrf_token'),
        idempotency_key: `escrow-${paymentId}-${action}`,
        ...fields,
      }
      const answer = await visitor.request(`/dashboard/payments/${paymentId}/actions/${action}`, { form })
      expect(answer.status, answer.text).toBe(303)
    }

    const funded = await sandbox.escrow.payments.create({ amount: { value: 5000, currency: 'USD' }, description: 'Escrow via dashboard' })
    expect((await visitor.request(`/dashboard/payments/${funded.id}`)).text).toContain('Fund the escrow (pay)')
    await act(funded.id, 'pay')
    expect(await sandbox.escrow.escrow.status(funded.id)).toMatchObject({ escrow_status: 'funded' })
    await act(funded.id, 'escrow-release')
    expect((await sandbox.escrow.payments.get(funded.id)).settlement_status).toBe('paid')

    const unfunded = await sandbox.escrow.payments.create({ amount: { value: 5000, currency: 'USD' }, description: 'Never funded' })
    await act(unfunded.id, 'escrow-fail', { confirm: 'yes', reason: 'buyer vanished' })
    expect(await sandbox.escrow.payments.get(unfunded.id)).toMatchObject({ status: 'failed', escrow_status: 'failed' })
  })

  it('limits merchant sign-in attempts per address under --shared (429 page), like the API’s other POSTs without credentials', async () => {
    const shared = await startTestSandbox({ shared: true, limits: { publicRate: { burst: 2, perSecond: 0.001 } } })
    try {
      const visitor = new DashboardVisitor(shared.url)
      const statuses: number[] = []
      for (let attempt = 0; attempt < 3; attempt++) {
        const form = await visitor.request('/dashboard/sign-in')
        const answer = await visitor.request('/dashboard/sign-in', {
          form: { form_token: DashboardVisitor.field(form.text, 'form_token'), api_key: 'guess', api_secret: 'guess' },
        })
        statuses.push(answer.status)
        if (answer.status === 429) expect(answer.text).toContain('Too many requests without credentials')
      }
      expect(statuses).toEqual([401, 401, 429])
    } finally {
      await shared.stop()
    }
  })
})
