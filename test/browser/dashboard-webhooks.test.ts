// The Webhooks and Requests views in a real headless Chromium, on both backends: a delivery that
// failed against a dead receiver, resent from the dashboard once the receiver is up, shown as a
// success (journey 3); the delivery list updating live; a wrong signature shown with the string the
// sandbox signed (journey 4); hostile receiver bodies and metadata inert; axe-core on every page.
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sendSignedAttempt, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/webhook-receiver.js'
import { chromiumAvailable, launchChromium } from './browser.js'

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script><b id="injected">bold</b>`

/** A loopback port nothing listens on: taken, then given back. */
async function freePort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe.runIf(chromiumAvailable())('the Webhooks and Requests views in a browser', { timeout: 90_000 }, () => {
  let sandbox: TestSandbox
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let cspViolations: string[]
  const receivers: WebhookReceiver[] = []

  beforeAll(async () => {
    ;[sandbox, browser] = await Promise.all([startTestSandbox({ webhookPollMs: 20 }), launchChromium()])
  }, 120_000)
  afterAll(async () => {
    await Promise.all([browser?.close(), ...receivers.map((r) => r.close()), sandbox?.stop()])
  })

  beforeEach(async () => {
    cspViolations = []
    context = await browser.newContext()
    page = await context.newPage()
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text())
    })
  })
  afterEach(async () => {
    await context.close()
    expect(cspViolations).toEqual([])
  })

  const secret = () => sandbox.merchants[0]!.apiSecret
  async function receiverOn(port = 0): Promise<WebhookReceiver> {
    const receiver = await startWebhookReceiver(secret(), undefined, port)
    receivers.push(receiver)
    return receiver
  }

  async function signInAsAdmin(): Promise<void> {
    const { url } = await sandbox.admin.sandbox.dashboardLink()
    await page.goto(url)
    await page.waitForURL((u) => u.pathname === '/dashboard/payments')
  }

  async function expectAccessible(what: string): Promise<void> {
    await page.evaluate(AXE_SOURCE)
    const violations = await page.evaluate(async () => {
      const axe = (
        globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; help: string }> }> } }
      ).axe
      return (await axe.run()).violations.map(({ id, impact, help }) => ({ id, impact, help }))
    })
    expect(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
      what,
    ).toEqual([])
  }

  const expectInert = async () => {
    for (const selector of ['#injected', 'main img[src="x"]', 'main script']) expect(await page.locator(selector).count(), selector).toBe(0)
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
  }

  it('journey 3: a delivery to a dead receiver, resent from the dashboard once the receiver is up, is shown as a success', async () => {
    const port = await freePort()
    const payment = await sandbox.direct.payments.create({
      amount: { value: 900, currency: 'USD' },
      description: 'Journey three',
      webhookUrl: `http://127.0.0.1:${port}/webhooks`,
    })
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/webhooks?checkout_id=${payment.id}`)
    const row = page.locator('[data-testid="delivery-row"][data-status="failed"]')
    // The list refreshes live as the delivery finishes: no reload.
    await page.waitForSelector('html[data-live="connected"]')
    await row.waitFor()
    await expectAccessible('webhooks list')
    await row.getByRole('link').first().click()
    await page.waitForURL((u) => u.pathname.startsWith('/dashboard/webhooks/deliveries/'))
    expect(await page.getByTestId('receiver-error').textContent()).toContain('connection refused')
    await expectAccessible('delivery detail')

    const receiver = await receiverOn(port)
    await page.getByTestId('submit-resend').click()
    await page.waitForURL((u) => u.searchParams.has('resent_from'))
    expect(await page.getByTestId('delivery-status').first().getAttribute('data-status')).toBe('success')
    expect(await page.getByTestId('receiver-status').textContent()).toBe('200')
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0]!.verified).toBe(true)
    // What the page shows as the payload is the exact bytes the receiver got.
    expect(await page.getByTestId('delivery-payload').textContent()).toBe(receiver.received[0]!.raw.toString('utf8'))
    expect(await page.getByTestId('header-x-webhook-auth').textContent()).toBe(receiver.received[0]!.headers['x-webhook-auth'])
  })

  it('updates the delivery list live as deliveries finish, without a reload', async () => {
    const receiver = await receiverOn()
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/webhooks?status=success`)
    await page.waitForSelector('html[data-live="connected"]')
    await page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }))
    const payment = await sandbox.direct.payments.create({
      amount: { value: 300, currency: 'USD' },
      description: 'Live delivery',
      webhookUrl: receiver.url,
    })
    await page.locator(`[data-testid="delivery-row"][data-status="success"]`, { hasText: payment.id }).waitFor()
    expect(await page.evaluate(() => (globalThis as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
  })

  it('renders hostile receiver bodies, descriptions and metadata as inert text', async () => {
    const receiver = await receiverOn()
    receiver.answer = () => ({ status: 500, body: HOSTILE })
    const payment = await sandbox.direct.payments.create({
      amount: { value: 900, currency: 'USD' },
      description: HOSTILE,
      metadata: { note: HOSTILE },
      webhookUrl: receiver.url,
    })
    await expect.poll(async () => (await sandbox.direct.webhooks.list({ checkout_id: payment.id })).items[0]?.status).toBe('failed')
    const [delivery] = (await sandbox.direct.webhooks.list({ checkout_id: payment.id })).items
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/webhooks/deliveries/${delivery!.id}`)
    expect(await page.getByTestId('receiver-body').textContent()).toBe(HOSTILE)
    expect(JSON.parse((await page.getByTestId('delivery-payload').textContent())!).data.metadata).toEqual({ note: HOSTILE })
    await expectInert()

    // The request that created it, in the inspector: its hostile body shown as text.
    await page.goto(`${sandbox.url}/dashboard/requests?method=POST&path=/payments&status=2xx`)
    await page.getByTestId('request-row').first().getByRole('link').click()
    expect(await page.getByTestId('request-body').textContent()).toContain(HOSTILE.replaceAll('"', '\\"'))
    await expectInert()
  })

  it('journey 4: a request with a wrong signature shows the string the sandbox signed and what differed', async () => {
    const merchant = sandbox.merchants[0]!
    const timestamp = String(Math.floor(Date.now() / 1000))
    const body = JSON.stringify({ amount: { value: 100, currency: 'USD' }, description: 'Signed wrong' })
    const refused = await sendSignedAttempt(sandbox.url, {
      method: 'POST',
      path: '/payments',
      body,
      key: merchant.apiKey,
      sign: { method: 'POST', path: '/payments', body, timestamp: String(Number(timestamp) - 2), secret: merchant.apiSecret },
      // Sent with another timestamp than the one signed: a client reading the clock twice.
      tweak: (headers) => {
        headers['x-digest-timestamp'] = timestamp
      },
    })
    expect(refused.status).toBe(401)
    const requestId = refused.headers.get('request-id')!
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/requests?status=401`)
    await expectAccessible('requests list')
    await page.locator(`[data-request-id="${requestId}"]`).getByRole('link').click()
    await page.waitForURL((u) => u.pathname === `/dashboard/requests/${requestId}`)
    expect(await page.getByTestId('string-to-sign').textContent()).toBe(`/payments${timestamp}POST${body}`)
    expect(await page.getByTestId('signature-finding').getAttribute('data-part')).toBe('timestamp')
    expect(await page.getByTestId('signed-instead').textContent()).toBe(`/payments${Number(timestamp) - 2}POST${body}`)
    expect(await page.content()).not.toContain(merchant.apiSecret)
    await expectAccessible('request detail')
  })

  it('grades a receiver from the "send a test event" form, accessibly', async () => {
    const receiver = await receiverOn()
    receiver.answer = (request) => (request.verified ? { status: 200 } : { status: 401 })
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/webhooks`)
    await page.getByTestId('test-receiver-link').click()
    await page.getByLabel('Receiver URL (http or https)').fill(receiver.url)
    await page.getByTestId('submit-test').click()
    await page.waitForURL((u) => u.searchParams.has('report'))
    expect(await page.getByTestId('grades').getAttribute('data-passed')).toBe('true')
    await expectAccessible('test receiver report')
  })
})
