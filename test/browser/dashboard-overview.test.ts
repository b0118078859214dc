// The Overview in a real headless Chromium, on both backends: /dashboard lands on it, its charts
// (payments by status, webhook outcomes of the last hour) follow API changes live, the last
// failed requests are listed, a merchant sees only its own figures, hostile names and paths
// render inert, and axe-core finds nothing serious.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/webhook-receiver.js'
import { chromiumAvailable, launchChromium } from './browser.js'

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const HOSTILE_NAME = `<img src=x onerror="window.__pwned=1"><b id="injected">Evil</b>`

describe.runIf(chromiumAvailable())('the Overview in a browser', { timeout: 90_000 }, () => {
  let sandbox: TestSandbox
  let browser: Browser
  let receiver: WebhookReceiver
  let context: BrowserContext
  let page: Page
  let cspViolations: string[]

  beforeAll(async () => {
    ;[sandbox, browser] = await Promise.all([startTestSandbox(), launchChromium()])
    receiver = await startWebhookReceiver(sandbox.merchants[0]!.apiSecret)
  }, 120_000)
  afterAll(async () => {
    await Promise.all([browser?.close(), receiver?.close(), sandbox?.stop()])
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

  const barCount = (selector: string) => page.locator(selector).getAttribute('data-count').then(Number)

  it('lands on /dashboard, and its charts follow payments and webhook outcomes live, without a reload', async () => {
    await page.goto((await sandbox.admin.sandbox.dashboardLink()).url)
    await page.waitForURL((url) => url.pathname === '/dashboard/overview')
    expect(await page.getByTestId('nav-overview').getAttribute('aria-current')).toBe('page')
    await page.waitForSelector('html[data-live="connected"]')
    await page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }))
    const openBefore = await barCount('[data-testid="payment-bar"][data-status="open"]')
    const chart = page.getByTestId('webhooks-chart')
    const failuresBefore = Number(await chart.getAttribute('data-failures'))
    const successesBefore = Number(await chart.getAttribute('data-successes'))

    receiver.answer = () => ({ status: 500, body: 'down' })
    await sandbox.direct.payments.create({
      amount: { value: 700, currency: 'EUR' },
      description: 'Fails its webhook',
      webhookUrl: receiver.url,
    })
    await page.waitForSelector(`[data-testid="payment-bar"][data-status="open"][data-count="${openBefore + 1}"]`)
    await page.waitForSelector(`[data-testid="webhooks-chart"][data-failures="${failuresBefore + 1}"]`)
    receiver.answer = () => ({ status: 200, body: 'ok' })
    await sandbox.direct.payments.create({ amount: { value: 800, currency: 'EUR' }, description: 'Delivered', webhookUrl: receiver.url })
    await page.waitForSelector(`[data-testid="webhooks-chart"][data-successes="${successesBefore + 1}"]`)
    expect(await page.evaluate(() => (globalThis as { __sameDocument?: boolean }).__sameDocument)).toBe(true)

    // The figures behind the pictures are there for screen readers too.
    expect(await page.getByTestId('payments-chart').getAttribute('role')).toBe('img')
    expect(await page.locator('#payments-chart-title').textContent()).toContain(`${openBefore + 2} open`)
    expect(await page.getByTestId('webhooks-figures').locator('td').allTextContents()).toContain('1')
    await expectAccessible('overview')
  })

  it('lists the last failed requests, and renders hostile names and paths as inert text', async () => {
    const hostile = await sandbox.admin.sandbox.createMerchant({ name: HOSTILE_NAME, settlement_mode: 'direct' })
    const missing = await fetch(`${sandbox.url}/v1/payments/${encodeURIComponent('<b id="injected">x</b>')}`, {
      headers: { authorization: 'Bearer nothing' },
    })
    expect(missing.status).toBeGreaterThanOrEqual(400)
    await page.goto((await sandbox.admin.sandbox.dashboardLink()).url)
    await page.waitForURL((url) => url.pathname === '/dashboard/overview')
    const row = page.locator(`[data-testid="overview-merchant-row"][data-merchant-id="${hostile.id}"] td`).first()
    expect(await row.textContent()).toBe(HOSTILE_NAME)
    expect(await page.getByTestId('error-row').count()).toBeGreaterThan(0)
    expect(await page.getByTestId('overview-errors').textContent()).toContain('/v1/payments/')
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined()
    expect(await page.locator('#injected').count()).toBe(0)
    await expectAccessible('overview with errors')
  })

  it('shows a merchant its own figures only, and no merchants list', async () => {
    const other = sandbox.merchants[1]!
    await sandbox.escrow.payments.create({ amount: { value: 900, currency: 'EUR' }, description: 'Escrow merchant’s' })
    await page.goto(`${sandbox.url}/dashboard/sign-in`)
    await page.getByLabel('API key').fill(other.apiKey)
    await page.getByLabel('API secret').fill(other.apiSecret)
    await page.getByTestId('sign-in').click()
    await page.waitForURL((url) => url.pathname === '/dashboard/overview')
    expect(await page.getByTestId('overview-merchants').count()).toBe(0)
    expect(await page.getByTestId('overview-merchant').textContent()).toContain(other.id)
    const shown = await page
      .getByTestId('payment-bar')
      .evaluateAll((bars) => bars.reduce((sum, bar) => sum + Number(bar.getAttribute('data-count')), 0))
    // The escrow merchant's one payment, not the other merchant's.
    expect(shown).toBe(1)
    await expectAccessible('a merchant’s overview')
  })
})
