// The Webhooks and Requests views over real HTTP: readable 4xx pages for bad filters, a bad resend
// id, resends over the 10-a-minute limit (saying when the next is allowed) and a bad test URL;
// resend, pause and resume through the API's services; one merchant kept from another's
// deliveries and requests (404); the request inspector's redaction and signature diagnosis.
import http from 'node:http'
import os from 'node:os'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { DashboardVisitor } from '../../harness/dashboard-visitor.js'
import { rawRequest, sendSignedAttempt, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { startWebhookReceiver } from '../../harness/webhook-receiver.js'

/** A loopback URL nothing listens on: a port taken, then given back. */
async function deadUrl(): Promise<string> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/hooks`
}

const field = DashboardVisitor.field

/** Text of a page with its character references decoded (what a browser shows). */
function decoded(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' }
  return text.replace(/&(?:#(\d+)|(\w+));/g, (ref, code: string | undefined, name: string | undefined) =>
    code !== undefined ? String.fromCodePoint(Number(code)) : (named[name!] ?? ref),
  )
}

/** The text of a <pre> on a page. */
function preText(page: string, testId: string): string {
  const match = new RegExp(`<pre[^>]*data-testid="${testId}"[^>]*>([^<]*)</pre>`).exec(page)
  if (!match) throw new Error(`no ${testId} on the page`)
  return decoded(match[1]!)
}

describe('the Webhooks and Requests views over HTTP', () => {
  let sandbox: TestSandbox
  const wallClock = new ManualClock(Date.now())

  beforeAll(async () => {
    sandbox = await startTestSandbox({ wallClock, webhookPollMs: 20 })
  })
  afterAll(() => sandbox.stop())

  const direct = () => sandbox.merchants[0]!
  const escrow = () => sandbox.merchants[1]!

  /** A failed delivery of the direct merchant (its receiver is dead). */
  async function failedDelivery(): Promise<string> {
    const payment = await sandbox.direct.payments.create({
      amount: { value: 500, currency: 'USD' },
      description: 'Hook',
      webhookUrl: await deadUrl(),
    })
    await expect.poll(async () => (await sandbox.direct.webhooks.list({ checkout_id: payment.id })).items[0]?.status).toBe('failed')
    return (await sandbox.direct.webhooks.list({ checkout_id: payment.id })).items[0]!.id
  }

  it('lists deliveries filtered by status, event and payment, with the filters in the URL', async () => {
    const id = await failedDelivery()
    const visitor = await DashboardVisitor.merchant(sandbox.url, direct())
    const failed = await visitor.request('/dashboard/webhooks?status=failed&event=transaction_created')
    expect(failed.status).toBe(200)
    expect(failed.text).toContain(`data-delivery-id="${id}"`)
    expect((await visitor.request('/dashboard/webhooks?status=success')).text).not.toContain(`data-delivery-id="${id}"`)
    expect((await visitor.request('/dashboard/webhooks?event=transaction_failed')).text).not.toContain(`data-delivery-id="${id}"`)
    // Paging: the next page's link keeps the filters.
    await failedDelivery()
    const first = await visitor.request('/dashboard/webhooks?status=failed&limit=1')
    expect(first.text).toMatch(/Page 1 of [2-9]/)
    expect(decoded(/<a href="([^"]*)" rel="next"/.exec(first.text)![1]!)).toBe('/dashboard/webhooks?status=failed&limit=1&page=2')
    const second = await visitor.request('/dashboard/webhooks?status=failed&limit=1&page=2')
    expect(second.text).toMatch(/Page 2 of/)
    expect(second.text.match(/data-testid="delivery-row"/g)).toHaveLength(1)
  })

  it('shows a delivery as sent: the stored payload byte for byte, its signature and headers, and the answer', async () => {
    const id = await failedDelivery()
    const { request_payload: payload } = (await sandbox.direct.webhooks.get(id)) as unknown as { request_payload: string }
    const visitor = await DashboardVisitor.merchant(sandbox.url, direct())
    const page = await visitor.request(`/dashboard/webhooks/deliveries/${id}`)
    expect(page.status).toBe(200)
    expect(preText(page.text, 'delivery-payload')).toBe(payload)
    expect(page.text).toContain('data-testid="header-x-webhook-auth"')
    expect(page.text).toContain('connection refused')
    expect(page.text).not.toContain(direct().apiSecret)
  })

  it('answers bad filters, a bad resend id, a missing key and a bad test URL with readable 4xx pages', async () => {
    const visitor = await DashboardVisitor.merchant(sandbox.url, direct())
    const page = await visitor.request('/dashboard/webhooks')
    const csrf = field(page.text, 'csrf_token')
    const cases: Array<[string, Parameters<DashboardVisitor['request']>[1], number, string]> = [
      ['/dashboard/webhooks?status=bogus', {}, 400, 'status'],
      ['/dashboard/webhooks?event=%3Cscript%3E', {}, 400, 'event'],
      ['/dashboard/webhooks?checkout_id=' + 'x'.repeat(100), {}, 400, 'checkout_id'],
      ['/dashboard/webhooks/deliveries/nope', {}, 404, 'No webhook delivery'],
      ['/dashboard/webhooks/deliveries/nope/resend', { form: { csrf_token: csrf, idempotency_key: 'k1' } }, 404, 'No webhook delivery'],
      ['/dashboard/webhooks/deliveries/nope/resend', { form: { csrf_token: csrf } }, 400, 'idempotency_key'],
      ['/dashboard/webhooks/test', { form: { csrf_token: csrf, url: '' } }, 400, 'give the URL'],
      ['/dashboard/webhooks/test', { form: { csrf_token: csrf, url: 'not a url' } }, 400, 'is not an http or https URL'],
      ['/dashboard/webhooks/test', { form: { csrf_token: csrf, url: 'ftp://127.0.0.1/x' } }, 400, 'is not an http or https URL'],
      ['/dashboard/webhooks/test', { form: { csrf_token: csrf, url: `http://127.0.0.1/${'a'.repeat(3000)}` } }, 400, 'longer than'],
      ['/dashboard/webhooks/pause', { form: { csrf_token: csrf } }, 400, 'confirmation'],
      ['/dashboard/requests?method=BREW', {}, 400, 'method'],
      ['/dashboard/requests?status=abc', {}, 400, 'status'],
      ['/dashboard/requests/req_nope', {}, 404, 'No request'],
    ]
    for (const [path, init, status, words] of cases) {
      const answer = await visitor.request(path, init)
      expect(answer.status, path).toBe(status)
      expect(answer.headers.get('content-type'), path).toMatch(/^text\/html/)
      expect(answer.text, path).toContain(words)
    }
  })

  it('resends through the API service: once per form, at most 10 a minute, saying when the next is allowed', async () => {
    const id = await failedDelivery()
    const visitor = await DashboardVisitor.merchant(sandbox.url, direct())
    const resendForm = async () => {
      const page = await visitor.request(`/dashboard/webhooks/deliveries/${id}`)
      return { csrf_token: field(page.text, 'csrf_token'), idempotency_key: field(page.text, 'idempotency_key') }
    }
    const form = await resendForm()
    const first = await visitor.request(`/dashboard/webhooks/deliveries/${id}/resend`, { form })
    expect(first.status).toBe(303)
    expect(first.location).toMatch(new RegExp(`resent_from=${id}$`))
    const resent = await visitor.request(first.location!)
    expect(resent.text).toContain('data-testid="done"')
    // The same form again sends nothing.
    const again = await visitor.request(`/dashboard/webhooks/deliveries/${id}/resend`, { form })
    expect(again.location).toContain('repeated=1')
    const resends = async () => (await sandbox.direct.webhooks.list({ limit: 100 })).items.filter((d) => d.resend_of === id).length
    expect(await resends()).toBe(1)

    for (let i = 1; i < 10; i++)
      expect((await visitor.request(`/dashboard/webhooks/deliveries/${id}/resend`, { form: await resendForm() })).status).toBe(303)
    const refused = await visitor.request(`/dashboard/webhooks/deliveries/${id}/resend`, { form: await resendForm() })
    expect(refused.status).toBe(429)
    expect(refused.text).toMatch(
      /At most 10 resends per minute; retry in \d+ s\. The next resend is allowed at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
    )
    expect(await resends()).toBe(10)
    wallClock.advance(60_000)
    expect((await visitor.request(`/dashboard/webhooks/deliveries/${id}/resend`, { form: await resendForm() })).status).toBe(303)
  })

  it('pauses and resumes webhooks once confirmed', async () => {
    const visitor = await DashboardVisitor.merchant(sandbox.url, direct())
    const csrf = field((await visitor.request('/dashboard/webhooks')).text, 'csrf_token')
    expect((await visitor.request('/dashboard/webhooks/pause', { form: { csrf_token: csrf, confirm: 'yes' } })).status).toBe(303)
    expect((await visitor.request('/dashboard/webhooks')).text).toContain('data-paused="true"')
    expect((await sandbox.direct.merchant.get()) as unknown).toMatchObject({ webhooks_paused: true })
    expect((await visitor.request('/dashboard/webhooks/resume', { form: { csrf_token: csrf, confirm: 'yes' } })).status).toBe(303)
    expect((await visitor.request('/dashboard/webhooks')).text).toContain('data-paused="false"')
  })

  it('grades a receiver with the battery of `webhooks test-receiver`, signed with the merchant secret', async () => {
    const receiver = await startWebhookReceiver(direct().apiSecret)
    try {
      receiver.answer = (request) => (request.verified ? { status: 200 } : { status: 401 })
      const visitor = await DashboardVisitor.merchant(sandbox.url, direct())
      const csrf = field((await visitor.request('/dashboard/webhooks/test')).text, 'csrf_token')
      const posted = await visitor.request('/dashboard/webhooks/test', { form: { csrf_token: csrf, url: receiver.url } })
      expect(posted.status).toBe(303)
      const report = await visitor.request(posted.location!)
      expect(report.text).toContain('data-case="signed" data-verdict="pass"')
      expect(report.text).toContain('data-case="bad-signature" data-verdict="pass"')
      expect(receiver.received.length).toBeGreaterThanOrEqual(9)
      // Another session cannot read the report by its link.
      const other = await DashboardVisitor.merchant(sandbox.url, direct())
      expect((await other.request(posted.location!)).text).not.toContain('data-testid="grades"')
    } finally {
      await receiver.close()
    }
  })

  it("keeps one merchant from another's deliveries and requests (404), and shows nothing without signing in", async () => {
    const id = await failedDelivery()
    const created = await sandbox.direct.payments.create({ amount: { value: 700, currency: 'USD' }, description: 'Mine' })
    await expect.poll(() => sandbox.requestLog.recent({ merchantId: direct().id, path: '/payments' }, 10).length).toBeGreaterThan(0)
    const requestId = sandbox.requestLog
      .recent({ merchantId: direct().id }, 100)
      .find((r) => r.method === 'POST' && r.path === '/payments')!.requestId
    const other = await DashboardVisitor.merchant(sandbox.url, escrow())
    const csrf = field((await other.request('/dashboard/webhooks')).text, 'csrf_token')
    expect((await other.request(`/dashboard/webhooks/deliveries/${id}`)).status).toBe(404)
    expect(
      (await other.request(`/dashboard/webhooks/deliveries/${id}/resend`, { form: { csrf_token: csrf, idempotency_key: 'x' } })).status,
    ).toBe(404)
    expect((await other.request(`/dashboard/requests/${requestId}`)).status).toBe(404)
    expect((await other.request(`/dashboard/requests/${requestId}?scope=all`)).status).toBe(404)
    expect((await other.request('/dashboard/requests')).text).not.toContain(requestId)
    expect((await other.request('/dashboard/webhooks')).text).not.toContain(id)
    expect(created.id).toBeTruthy()

    const owner = await DashboardVisitor.merchant(sandbox.url, direct())
    expect((await owner.request(`/dashboard/requests/${requestId}`)).status).toBe(200)
    const visitor = new DashboardVisitor(sandbox.url)
    for (const path of [`/dashboard/requests/${requestId}`, `/dashboard/webhooks/deliveries/${id}`, '/dashboard/requests']) {
      const answer = await visitor.request(path)
      expect(answer.status, path).toBe(303)
      expect(answer.location).toBe('/dashboard/sign-in')
    }
  })

  it("tells the key's merchant, and only it, what differed in a refused signature; never the secret", async () => {
    const timestamp = String(Math.floor(wallClock.now() / 1000))
    const body = JSON.stringify({ amount: { value: 100, currency: 'USD' }, description: 'sig' })
    const refused = await sendSignedAttempt(sandbox.url, {
      method: 'POST',
      path: '/payments',
      body,
      key: direct().apiKey,
      sign: { method: 'PUT', path: '/payments', body, timestamp, secret: direct().apiSecret },
    })
    expect(refused.status).toBe(401)
    const requestId = refused.headers.get('request-id')!
    await expect.poll(() => sandbox.requestLog.find(requestId) !== undefined).toBe(true)

    const owner = await DashboardVisitor.merchant(sandbox.url, direct())
    const listed = await owner.request('/dashboard/requests?status=401&method=POST&path=/payments')
    expect(listed.text).toContain(requestId)
    const page = await owner.request(`/dashboard/requests/${requestId}`)
    expect(page.status).toBe(200)
    expect(preText(page.text, 'string-to-sign')).toBe(`/payments${timestamp}POST${body}`)
    expect(preText(page.text, 'signed-instead')).toBe(`/payments${timestamp}PUT${body}`)
    expect(page.text).toContain('data-part="method"')
    expect(page.text).not.toContain(direct().apiSecret)
    // The signature itself is replayable for a while: it is not kept among the headers shown.
    expect(page.text).toMatch(/x-digest-signature<\/th><td class="mono">\[redacted\]/)

    const other = await DashboardVisitor.merchant(sandbox.url, escrow())
    expect((await other.request(`/dashboard/requests/${requestId}`)).status).toBe(404)
    const admin = await DashboardVisitor.admin(sandbox.url, sandbox.admin)
    expect((await admin.request(`/dashboard/requests/${requestId}?scope=all`)).text).toContain('data-part="method"')
  })

  it('keeps bodies with their secrets redacted: a new merchant’s apiSecret and the admin token never appear', async () => {
    const created = (await sandbox.admin.sandbox.createMerchant({ name: 'Redacted Co', settlement_mode: 'direct' })) as unknown as {
      apiSecret: string
    }
    expect(created.apiSecret).toBeTruthy()
    await expect.poll(() => sandbox.requestLog.recent({ path: '/sandbox/merchants' }, 10).some((r) => r.method === 'POST')).toBe(true)
    const { requestId } = sandbox.requestLog.recent({ path: '/sandbox/merchants' }, 10).find((r) => r.method === 'POST')!
    const admin = await DashboardVisitor.admin(sandbox.url, sandbox.admin)
    const page = await admin.request(`/dashboard/requests/${requestId}?scope=all`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('Redacted Co')
    expect(page.text).toContain('[redacted]')
    expect(page.text).not.toContain(created.apiSecret)
    expect(page.text).not.toContain(sandbox.identity.adminToken)
    // The one-time sign-in link's token is redacted from its answer too.
    const links = () => sandbox.requestLog.recent({ path: '/sandbox/dashboard/sign-in-links' }, 1000)
    const before = links().length
    const { url } = await sandbox.admin.sandbox.dashboardLink()
    const token = new URL(url).searchParams.get('token')!
    await expect.poll(() => links().length).toBe(before + 1)
    const [linkRequest] = links()
    expect(linkRequest!.status).toBe(201)
    const linkPage = await admin.request(`/dashboard/requests/${linkRequest!.requestId}?scope=all`)
    expect(preText(linkPage.text, 'response-body')).toContain('/dashboard/sign-in?token=[redacted]')
    expect(linkPage.text).not.toContain(token)
    // A raw, unsigned request leaves its body in the log too, bounded.
    const big = await rawRequest(sandbox.url, {
      method: 'POST',
      path: '/payments',
      body: JSON.stringify({ description: 'y'.repeat(10_000) }),
    })
    expect(big.status).toBe(401)
    const id = big.headers.get('request-id')!
    await expect.poll(() => sandbox.requestLog.find(id)?.detail.requestBody?.length ?? 0).toBeGreaterThan(4096)
    expect(sandbox.requestLog.find(id)!.detail.requestBody!.length).toBeLessThan(4200)
  })

  it('sends test events on a shared sandbox only where deliveries may go: no internal address, by name or number', async () => {
    let hits = 0
    const internal = http.createServer((_req, res) => {
      hits++
      res.writeHead(200).end('internal')
    })
    // Every interface, so the machine's own name reaches it.
    await new Promise<void>((resolve) => internal.listen(0, resolve))
    const shared = await startTestSandbox({ shared: true, webhookPollMs: 20 })
    try {
      const { port } = internal.address() as AddressInfo
      const visitor = await DashboardVisitor.merchant(shared.url, shared.merchants[0]!)
      const csrf = field((await visitor.request('/dashboard/webhooks/test')).text, 'csrf_token')
      const literal = await visitor.request('/dashboard/webhooks/test', { form: { csrf_token: csrf, url: `http://127.0.0.1:${port}/x` } })
      expect(literal.status).toBe(400)
      expect(literal.text).toContain('--allow-webhook-to')
      // The machine's name passes the URL check; the connection is refused once it resolves to this host.
      const named = await visitor.request('/dashboard/webhooks/test', {
        form: { csrf_token: csrf, url: `http://${os.hostname()}:${port}/x` },
      })
      expect(named.status).toBe(303)
      const report = await visitor.request(named.location!)
      expect(report.text).toContain('data-case="signed" data-verdict="fail"')
      expect(hits).toBe(0)
    } finally {
      await shared.stop()
      await new Promise<void>((resolve) => internal.close(() => resolve()))
    }
  })
})
