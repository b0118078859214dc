// The Overview in a real headless Chromium, on both backends: /dashboard lands on it, its charts
// (payments by status, webhook outcomes of the last hour) follow API changes live, the last
// failed requests are listed, a merchant sees only its own figures, hostile names and paths
// render inert, and axe-core finds nothing serious.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/webhook-receiver.js'
import { chromiumAvailable } from './browser.js'
import { useDashboardBrowser } from './dashboard-browser.js'

const HOSTILE_NAME = `<img src=x onerror="window.__pwned=1"><b id="injected">Evil</b>`

describe.runIf(chromiumAvailable())('the Overview in a browser', { timeout: 90_000 }, () => {
  const dash = useDashboardBrowser({ adminSignIn: 'api' })
  const { signInAsAdmin, signInAsMerchant, expectAccessible, expectInert } = dash
  let receiver: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver(dash.sandbox.merchants[0]!.apiSecret)
  })
  afterAll(async () => {
    await receiver?.close()
  })

  const barCount = (selector: string) => dash.page.locator(selector).getAttribute('data-count').then(Number)

  it('lands on /dashboard, and its charts follow payments and webhook outcomes live, without a reload', async () => {
    await signInAsAdmin()
    expect(await dash.page.getByTestId('nav-overview').getAttribute('aria-current')).toBe('page')
    await dash.page.waitForSelector('html[data-live="connected"]')
    await dash.page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }))
    const openBefore = await barCount('[data-testid="payment-bar"][data-status="open"]')
    const chart = dash.page.getByTestId('webhooks-chart')
    const failuresBefore = Number(await chart.getAttribute('data-failures'))
    const successesBefore = Number(await chart.getAttribute('data-successes'))

    receiver.answer = () => ({ status: 500, body: 'down' })
    await dash.sandbox.direct.payments.create({
      amount: { value: 700, currency: 'EUR' },
      description: 'Fails its webhook',
      webhookUrl: receiver.url,
    })
    await dash.page.waitForSelector(`[data-testid="payment-bar"][data-status="open"][data-count="${openBefore + 1}"]`)
    await dash.page.waitForSelector(`[data-testid="webhooks-chart"][data-failures="${failuresBefore + 1}"]`)
    receiver.answer = () => ({ status: 200, body: 'ok' })
    await dash.sandbox.direct.payments.create({
      amount: { value: 800, currency: 'EUR' },
      description: 'Delivered',
      webhookUrl: receiver.url,
    })
    await dash.page.waitForSelector(`[data-testid="webhooks-chart"][data-successes="${successesBefore + 1}"]`)
    expect(await dash.page.evaluate(() => (globalThis as { __sameDocument?: boolean }).__sameDocument)).toBe(true)

    // The figures behind the pictures are there for screen readers too.
    expect(await dash.page.getByTestId('payments-chart').getAttribute('role')).toBe('img')
    expect(await dash.page.locator('#payments-chart-title').textContent()).toContain(`${openBefore + 2} open`)
    expect(await dash.page.getByTestId('webhooks-figures').locator('td').allTextContents()).toContain('1')
    await expectAccessible('overview')
  })

  it('lists the last failed requests, and renders hostile names and paths as inert text', async () => {
    const hostile = await dash.sandbox.admin.sandbox.createMerchant({ name: HOSTILE_NAME, settlement_mode: 'direct' })
    const missing = await fetch(`${dash.sandbox.url}/v1/payments/${encodeURIComponent('<b id="injected">x</b>')}`, {
      headers: { authorization: 'Bearer nothing' },
    })
    expect(missing.status).toBeGreaterThanOrEqual(400)
    await signInAsAdmin()
    const row = dash.page.locator(`[data-testid="overview-merchant-row"][data-merchant-id="${hostile.id}"] td`).first()
    expect(await row.textContent()).toBe(HOSTILE_NAME)
    expect(await dash.page.getByTestId('error-row').count()).toBeGreaterThan(0)
    expect(await dash.page.getByTestId('overview-errors').textContent()).toContain('/v1/payments/')
    await expectInert('overview with errors')
    await expectAccessible('overview with errors')
  })

  it('shows a merchant its own figures only, and no merchants list', async () => {
    const other = dash.sandbox.merchants[1]!
    await dash.sandbox.escrow.payments.create({ amount: { value: 900, currency: 'EUR' }, description: 'Escrow merchant’s' })
    await signInAsMerchant(other)
    expect(await dash.page.getByTestId('overview-merchants').count()).toBe(0)
    expect(await dash.page.getByTestId('overview-merchant').textContent()).toContain(other.id)
    const shown = await dash.page
      .getByTestId('payment-bar')
      .evaluateAll((bars) => bars.reduce((sum, bar) => sum + Number(bar.getAttribute('data-count')), 0))
    // The escrow merchant's one payment, not the other merchant's.
    expect(shown).toBe(1)
    await expectAccessible('a merchant’s overview')
  })
})
