// The dashboard in a real headless Chromium, on both backends: signing in through `paybox
// dashboard`'s link, a payment appearing live and acted on from its page, one merchant's session
// kept from another's payment, CSRF refusal, hostile text rendered inert, and axe-core on every view.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CreatePaymentRequest, Payment } from '../../src/client/types.js'
import { linesOf, merchantEnv, runCli } from '../../harness/cli.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { receivedFor, startWebhookReceiver, webhookData, type WebhookReceiver } from '../../harness/webhook-receiver.js'
import { chromiumAvailable, launchChromium } from './browser.js'

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script><b id="injected">bold</b>`

describe.runIf(chromiumAvailable())('the dashboard in a browser', { timeout: 90_000 }, () => {
  let sandbox: TestSandbox
  let browser: Browser
  let receiver: WebhookReceiver
  let context: BrowserContext
  let page: Page
  let cspViolations: string[]

  beforeAll(async () => {
    ;[sandbox, browser] = await Promise.all([startTestSandbox({ webhookPollMs: 20 }), launchChromium()])
    receiver = await startWebhookReceiver(sandbox.merchants[0]!.apiSecret)
  }, 120_000)
  afterAll(async () => {
    await Promise.all([browser?.close(), receiver?.close(), sandbox?.stop()])
  })

  async function newPage(): Promise<Page> {
    context = await browser.newContext()
    const opened = await context.newPage()
    opened.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text())
    })
    return opened
  }

  beforeEach(async () => {
    cspViolations = []
    page = await newPage()
  })
  afterEach(async () => {
    await context.close()
    expect(cspViolations).toEqual([])
  })

  /** The link `paybox dashboard --no-open` prints. */
  async function dashboardLink(): Promise<string> {
    const { stdout, stderr, exitCode } = await runCli(['dashboard', '--no-open'], merchantEnv(sandbox))
    expect(exitCode, stderr).toBe(0)
    expect(stderr).toContain('--no-open')
    return linesOf(stdout).at(-1)!
  }

  async function signInAsAdmin(target: Page = page): Promise<void> {
    await target.goto(await dashboardLink())
    await target.waitForURL((url) => url.pathname === '/dashboard/overview')
  }

  async function signInAsMerchant(merchant: { apiKey: string; apiSecret: string }): Promise<void> {
    await page.goto(`${sandbox.url}/dashboard/sign-in`)
    await page.getByLabel('API key').fill(merchant.apiKey)
    await page.getByLabel('API secret').fill(merchant.apiSecret)
    await page.getByTestId('sign-in').click()
    await page.waitForURL((url) => url.pathname === '/dashboard/overview')
  }

  /** Runs axe-core in the page (evaluated over the DevTools protocol, which the page's CSP does not govern). */
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

  const createPayment = (overrides: Partial<CreatePaymentRequest> = {}): Promise<Payment> =>
    sandbox.direct.payments.create({ amount: { value: 1250, currency: 'EUR' }, description: 'Dashboard order', ...overrides })

  const liveConnected = () => page.waitForSelector('html[data-live="connected"]')
  const shownStatus = (testId = 'status') => page.locator('#payment-summary').getByTestId(testId).getAttribute('data-status')

  it('journey 1: signs in through the link of `paybox dashboard`; the token leaves the address bar and works once', async () => {
    const link = await dashboardLink()
    expect(new URL(link).searchParams.get('token')).toBeTruthy()
    await page.goto(link)
    await page.waitForURL((url) => url.pathname === '/dashboard/overview')
    expect(new URL(page.url()).search).toBe('')
    expect(await page.getByTestId('nav-overview').getAttribute('aria-current')).toBe('page')
    const cookies = await context.cookies()
    expect(cookies.find((cookie) => cookie.name.startsWith('paybox_dashboard_'))).toMatchObject({ httpOnly: true, sameSite: 'Strict' })
    await expectAccessible('payments list')

    const other = await browser.newContext()
    try {
      const reused = await other.newPage()
      const answer = await reused.goto(link)
      expect(answer?.status()).toBe(401)
      expect(await reused.getByTestId('sign-in-error').textContent()).toContain('already used or has expired')
      await page.bringToFront()
    } finally {
      await other.close()
    }
    await page.goto(`${sandbox.url}/dashboard/sign-in`)
    await expectAccessible('sign-in page')
  })

  it('journey 2: a payment made in the CLI appears live; underpaid from the dashboard, then accepted, it is paid and settled', async () => {
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/payments`)
    await liveConnected()
    await page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }))
    const payment = await createPayment({ webhookUrl: receiver.url, description: 'Journey two' })
    const row = page.locator(`[data-payment-id="${payment.id}"]`)
    await row.waitFor()
    // Live, not reloaded: the document is the one that was open.
    expect(await page.evaluate(() => (globalThis as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
    expect(await row.getByTestId('status').getAttribute('data-status')).toBe('open')

    await row.getByRole('link').click()
    await page.waitForURL((url) => url.pathname === `/dashboard/payments/${payment.id}`)
    expect(await page.getByTestId('amount-asked').textContent()).toBe('€12.50 (13.5 USDC)')
    expect(await page.getByTestId('qr').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(100)
    await expectAccessible('payment detail')

    await page.getByTestId('submit-underpay').click()
    await page.waitForURL((url) => url.searchParams.get('done') === 'underpay')
    expect(await shownStatus()).toBe('underpaid')
    expect(await page.getByTestId('amount-paid').textContent()).toBe('€6.25 (6.75 USDC)')
    expect(await page.getByTestId('amount-remaining').textContent()).toBe('€6.25 (6.75 USDC)')
    // Its webhook reached the receiver, and its delivery shows up live on the page.
    await expect.poll(() => receivedFor(receiver, payment.id).some((r) => webhookData(r.raw).status === 'underpaid')).toBe(true)
    await liveConnected()
    await expect
      .poll(() => page.locator('[data-testid="delivery-row"][data-event="transaction_updated"][data-status="success"]').count())
      .toBeGreaterThanOrEqual(1)

    await page.getByTestId('submit-accept-underpayment').click()
    await page.waitForURL((url) => url.searchParams.get('done') === 'accept-underpayment')
    expect(await shownStatus()).toBe('paid')
    await liveConnected()
    await expect.poll(() => shownStatus('settlement-status')).toBe('paid')
    expect(await page.getByTestId('amount-settled').textContent()).toMatch(/USDC$/)
    expect(await page.locator('[data-testid="history-entry"][data-status="paid"]').count()).toBe(1)
    expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'paid', settlement_status: 'paid' })
  })

  it('acts once per rendered form: submitting the same underpay form twice pays once', async () => {
    const payment = await createPayment()
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/payments/${payment.id}`)
    const form = page.getByTestId('action-underpay')
    const hidden = (name: string) => form.locator(`input[name="${name}"]`).inputValue()
    const fields = { csrf_token: await hidden('csrf_token'), idempotency_key: await hidden('idempotency_key') }
    const action = await form.getAttribute('action')
    const post = () => page.request.post(`${sandbox.url}${action}`, { form: fields, maxRedirects: 0 })
    expect((await post()).status()).toBe(303)
    expect((await post()).status()).toBe(303)
    expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'underpaid', amount_paid: 625 })
  })

  it('journey 7: a merchant session cannot see another merchant’s payment by its URL (404)', async () => {
    const payment = await createPayment({ description: 'Acme only' })
    await signInAsMerchant(sandbox.merchants[1]!)
    const answer = await page.goto(`${sandbox.url}/dashboard/payments/${payment.id}`)
    expect(answer?.status()).toBe(404)
    expect(await page.getByTestId('error').textContent()).toContain(`No payment ${payment.id}`)
    expect(await page.content()).not.toContain('Acme only')
    expect(await page.getByTestId('merchant-select').count()).toBe(0)
    await expectAccessible('error page')
  })

  /** Posts a form of the page as the browser would, with the session's cookie, minus the fields left out. */
  async function postForm(testId: string, leaveOut: string[], extra: Record<string, string> = {}) {
    const form = page.getByTestId(testId)
    const names = await form.locator('input[type="hidden"]').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('name')!))
    const fields: Record<string, string> = { ...extra }
    for (const name of names.filter((n) => !leaveOut.includes(n))) fields[name] = await form.locator(`input[name="${name}"]`).inputValue()
    return page.request.post(`${sandbox.url}${await form.getAttribute('action')}`, { form: fields, maxRedirects: 0 })
  }

  it('journey 8: an action posted without its CSRF token is refused, and nothing changes', async () => {
    const payment = await createPayment()
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/payments/${payment.id}`)
    const refused = await postForm('action-expire', ['csrf_token'], { confirm: 'yes' })
    expect(refused.status()).toBe(403)
    expect(refused.headers()['content-type']).toMatch(/^text\/html/)
    expect(await refused.text()).toContain('missing its security (CSRF) token')
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
    // The same form with its token goes through.
    expect((await postForm('action-expire', [], { confirm: 'yes' })).status()).toBe(303)
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('expired')
  })

  it('asks for the confirmation of a destructive action, with a readable error and no change', async () => {
    const payment = await createPayment()
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/payments/${payment.id}`)
    // The browser asks for the box itself (required); a request without it is refused by the server too.
    expect(await page.getByTestId('action-fail').locator('input[name="confirm"]').getAttribute('required')).not.toBeNull()
    const unconfirmed = await postForm('action-fail', [])
    expect(unconfirmed.status()).toBe(400)
    expect(await unconfirmed.text()).toContain('Tick the confirmation box to fail this payment')
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')

    await page.getByTestId('action-fail').getByLabel('Reason (optional)').fill('card declined')
    await page
      .getByTestId('action-fail')
      .getByLabel(/I am sure/)
      .check()
    await page.getByTestId('submit-fail').click()
    await page.waitForURL((url) => url.searchParams.get('done') === 'fail')
    expect(await shownStatus()).toBe('failed')
    expect(await page.locator('[data-testid="history-entry"][data-status="failed"]').textContent()).toContain('card declined')
  })

  it('renders HTML and script in descriptions, metadata and merchant names as inert text', async () => {
    const payment = await createPayment({ description: HOSTILE, metadata: { note: HOSTILE } })
    await sandbox.admin.sandbox.createMerchant({ name: HOSTILE, settlement_mode: 'direct' })
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/payments`)
    const row = page.locator(`[data-payment-id="${payment.id}"]`)
    expect(await row.getByTestId('payment-description').textContent()).toBe(HOSTILE)
    await page.goto(`${sandbox.url}/dashboard/payments/${payment.id}`)
    expect(await page.getByTestId('description').textContent()).toBe(HOSTILE)
    expect(JSON.parse((await page.getByTestId('metadata').textContent())!)).toEqual({ note: HOSTILE })
    expect(await page.locator('#merchant-select option', { hasText: 'bold' }).textContent()).toBe(`${HOSTILE} (direct)`)
    for (const selector of ['#injected', 'main img[src="x"]', 'main script', 'option img'])
      expect(await page.locator(selector).count(), selector).toBe(0)
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
  })
})
