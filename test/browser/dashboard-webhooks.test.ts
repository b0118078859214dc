// The Webhooks and Requests views in a real headless Chromium, on both backends: a delivery that
// failed against a dead receiver, resent from the dashboard once the receiver is up, shown as a
// success (journey 3); the delivery list updating live; a wrong signature shown with the string the
// sandbox signed (journey 4); hostile receiver bodies and metadata inert; axe-core on every page.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { sendSignedAttempt } from '../../harness/sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/webhook-receiver.js'
import { chromiumAvailable } from './browser.js'
import { HOSTILE, useDashboardBrowser } from './dashboard-browser.js'

/** A loopback port nothing listens on: taken, then given back. */
async function freePort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe.runIf(chromiumAvailable())('the Webhooks and Requests views in a browser', { timeout: 90_000 }, () => {
  const dash = useDashboardBrowser({ sandbox: { webhookPollMs: 20 }, adminSignIn: 'api' })
  const { signInAsAdmin, expectAccessible, expectInert } = dash
  const receivers: WebhookReceiver[] = []
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()))
  })

  const secret = () => dash.sandbox.merchants[0]!.apiSecret
  async function receiverOn(port = 0): Promise<WebhookReceiver> {
    const receiver = await startWebhookReceiver(secret(), undefined, port)
    receivers.push(receiver)
    return receiver
  }

  it('journey 3: a delivery to a dead receiver, resent from the dashboard once the receiver is up, is shown as a success', async () => {
    const port = await freePort()
    const payment = await dash.sandbox.direct.payments.create({
      amount: { value: 900, currency: 'USD' },
      description: 'Journey three',
      webhookUrl: `http://127.0.0.1:${port}/webhooks`,
    })
    await signInAsAdmin()
    await dash.page.goto(`${dash.sandbox.url}/dashboard/webhooks?checkout_id=${payment.id}`)
    const row = dash.page.locator('[data-testid="delivery-row"][data-status="failed"]')
    // The list refreshes live as the delivery finishes: no reload.
    await dash.page.waitForSelector('html[data-live="connected"]')
    await row.waitFor()
    await expectAccessible('webhooks list')
    await row.getByRole('link').first().click()
    await dash.page.waitForURL((u) => u.pathname.startsWith('/dashboard/webhooks/deliveries/'))
    expect(await dash.page.getByTestId('receiver-error').textContent()).toContain('connection refused')
    await expectAccessible('delivery detail')

    const receiver = await receiverOn(port)
    await dash.page.getByTestId('submit-resend').click()
    await dash.page.waitForURL((u) => u.searchParams.has('resent_from'))
    expect(await dash.page.getByTestId('delivery-status').first().getAttribute('data-status')).toBe('success')
    expect(await dash.page.getByTestId('receiver-status').textContent()).toBe('200')
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0]!.verified).toBe(true)
    // What the page shows as the payload is the exact bytes the receiver got.
    expect(await dash.page.getByTestId('delivery-payload').textContent()).toBe(receiver.received[0]!.raw.toString('utf8'))
    expect(await dash.page.getByTestId('header-x-webhook-auth').textContent()).toBe(receiver.received[0]!.headers['x-webhook-auth'])
  })

  it('updates the delivery list live as deliveries finish, without a reload', async () => {
    const receiver = await receiverOn()
    await signInAsAdmin()
    await dash.page.goto(`${dash.sandbox.url}/dashboard/webhooks?status=success`)
    await dash.page.waitForSelector('html[data-live="connected"]')
    await dash.page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }))
    const payment = await dash.sandbox.direct.payments.create({
      amount: { value: 300, currency: 'USD' },
      description: 'Live delivery',
      webhookUrl: receiver.url,
    })
    await dash.page.locator(`[data-testid="delivery-row"][data-status="success"]`, { hasText: payment.id }).waitFor()
    expect(await dash.page.evaluate(() => (globalThis as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
  })

  it('renders hostile receiver bodies, descriptions and metadata as inert text', async () => {
    const receiver = await receiverOn()
    receiver.answer = () => ({ status: 500, body: HOSTILE })
    const payment = await dash.sandbox.direct.payments.create({
      amount: { value: 900, currency: 'USD' },
      description: HOSTILE,
      metadata: { note: HOSTILE },
      webhookUrl: receiver.url,
    })
    await expect.poll(async () => (await dash.sandbox.direct.webhooks.list({ checkout_id: payment.id })).items[0]?.status).toBe('failed')
    const [delivery] = (await dash.sandbox.direct.webhooks.list({ checkout_id: payment.id })).items
    await signInAsAdmin()
    await dash.page.goto(`${dash.sandbox.url}/dashboard/webhooks/deliveries/${delivery!.id}`)
    expect(await dash.page.getByTestId('receiver-body').textContent()).toBe(HOSTILE)
    expect(JSON.parse((await dash.page.getByTestId('delivery-payload').textContent())!).data.metadata).toEqual({ note: HOSTILE })
    await expectInert()

    // The request that created it, in the inspector: its hostile body shown as text.
    await dash.page.goto(`${dash.sandbox.url}/dashboard/requests?method=POST&path=/payments&status=2xx`)
    await dash.page.getByTestId('request-row').first().getByRole('link').click()
    expect(await dash.page.getByTestId('request-body').textContent()).toContain(HOSTILE.replaceAll('"', '\\"'))
    await expectInert()
  })

  it('journey 4: a request with a wrong signature shows the string the sandbox signed and what differed', async () => {
    const merchant = dash.sandbox.merchants[0]!
    const timestamp = String(Math.floor(Date.now() / 1000))
    const body = JSON.stringify({ amount: { value: 100, currency: 'USD' }, description: 'Signed wrong' })
    const refused = await sendSignedAttempt(dash.sandbox.url, {
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
    await dash.page.goto(`${dash.sandbox.url}/dashboard/requests?status=401`)
    await expectAccessible('requests list')
    await dash.page.locator(`[data-request-id="${requestId}"]`).getByRole('link').click()
    await dash.page.waitForURL((u) => u.pathname === `/dashboard/requests/${requestId}`)
    expect(await dash.page.getByTestId('string-to-sign').textContent()).toBe(`/payments${timestamp}POST${body}`)
    expect(await dash.page.getByTestId('signature-finding').getAttribute('data-part')).toBe('timestamp')
    expect(await dash.page.getByTestId('signed-instead').textContent()).toBe(`/payments${Number(timestamp) - 2}POST${body}`)
    expect(await dash.page.content()).not.toContain(merchant.apiSecret)
    await expectAccessible('request detail')
  })

  it('grades a receiver from the "send a test event" form, accessibly', async () => {
    const receiver = await receiverOn()
    receiver.answer = (request) => (request.verified ? { status: 200 } : { status: 401 })
    await signInAsAdmin()
    await dash.page.goto(`${dash.sandbox.url}/dashboard/webhooks`)
    await dash.page.getByTestId('test-receiver-link').click()
    await dash.page.getByLabel('Receiver URL (http or https)').fill(receiver.url)
    await dash.page.getByTestId('submit-test').click()
    await dash.page.waitForURL((u) => u.searchParams.has('report'))
    expect(await dash.page.getByTestId('grades').getAttribute('data-passed')).toBe('true')
    await expectAccessible('test receiver report')
  })
})
