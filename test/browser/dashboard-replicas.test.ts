// The dashboard on two replicas of one PostgreSQL sandbox, in a real headless Chromium (PostgreSQL
// only: SQLite has one process): journey 9, a payment created and paid through replica A appearing
// live on a page served by replica B; and a webhook delivery finished by the leader (A) refreshing
// the payment's page on the follower (B), from the leader's delivery announcements.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { startTestSandbox, testBackend, type TestSandbox } from '../../harness/sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/webhook-receiver.js'
import { chromiumAvailable, launchChromium } from './browser.js'

describe.runIf(testBackend === 'postgres' && chromiumAvailable())('the dashboard on two replicas in a browser', { timeout: 90_000 }, () => {
  let database: TestDatabase
  let a: TestSandbox
  let b: TestSandbox
  let browser: Browser
  let receiver: WebhookReceiver
  let context: BrowserContext
  let page: Page
  let cspViolations: string[]

  beforeAll(async () => {
    database = await createTestDatabase('paybox_dashboard_browser_replicas')
    // A starts first and leads: it sends the webhooks; B follows.
    a = await startTestSandbox({ db: database.url, webhookPollMs: 20 })
    ;[b, browser] = await Promise.all([startTestSandbox({ db: database.url, webhookPollMs: 20 }), launchChromium()])
    receiver = await startWebhookReceiver(a.merchants[0]!.apiSecret)
  }, 120_000)
  afterAll(async () => {
    await Promise.all([browser?.close(), receiver?.close()])
    await b?.stop()
    await a?.stop()
    await database?.drop()
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

  /** Signs in on replica B and opens `path` there, with its live stream connected. */
  async function openOnB(path: string): Promise<void> {
    await page.goto((await b.admin.sandbox.dashboardLink()).url)
    await page.waitForURL((url) => url.pathname === '/dashboard/overview')
    await page.goto(`${b.url}/dashboard${path}`)
    await page.waitForSelector('html[data-live="connected"]')
    await page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }))
  }

  const sameDocument = () => page.evaluate(() => (globalThis as { __sameDocument?: boolean }).__sameDocument)

  it('journey 9: a payment created and paid through replica A appears live on a page served by replica B', async () => {
    await openOnB('/payments')
    const payment = await a.direct.payments.create({ amount: { value: 1100, currency: 'EUR' }, description: 'Made through A' })
    const row = page.locator(`[data-payment-id="${payment.id}"]`)
    await row.waitFor()
    await a.direct.sandbox.pay(payment.id)
    await page.waitForSelector(`[data-payment-id="${payment.id}"] [data-testid="status"][data-status="paid"]`)
    expect(await sameDocument()).toBe(true)
  })

  it('a delivery finished by the leader refreshes the payment’s page on the follower', async () => {
    // The receiver holds the first delivery: the page on B shows it pending until A logs its outcome.
    receiver.answer = () => 'hang'
    const payment = await a.direct.payments.create({
      amount: { value: 1200, currency: 'EUR' },
      description: 'Webhook',
      webhookUrl: receiver.url,
    })
    await openOnB(`/payments/${payment.id}`)
    await page.waitForSelector('[data-testid="delivery-row"][data-status="pending"]')
    receiver.answer = () => ({ status: 200, body: 'ok' })
    receiver.releaseHanging()
    await page.waitForSelector('[data-testid="delivery-row"][data-status="success"]')
    expect(await sameDocument()).toBe(true)
  })
})
