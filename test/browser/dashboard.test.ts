// The dashboard in a real headless Chromium, on both backends: signing in through `paybox
// dashboard`'s link, a payment appearing live and acted on from its page, one merchant's session
// kept from another's payment, CSRF refusal, hostile text rendered inert, and axe-core on every view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatePaymentRequest, Payment } from '../../src/client/types.js'
import { receivedFor, startWebhookReceiver, webhookData, type WebhookReceiver } from '../../harness/webhook-receiver.js'
import { chromiumAvailable } from './browser.js'
import { HOSTILE, useDashboardBrowser } from './dashboard-browser.js'

describe.runIf(chromiumAvailable())('the dashboard in a browser', { timeout: 90_000 }, () => {
  const dash = useDashboardBrowser({ sandbox: { webhookPollMs: 20 }, adminSignIn: 'cli' })
  const { signInAsAdmin, signInAsMerchant, expectAccessible, expectInert } = dash
  let receiver: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver(dash.sandbox.merchants[0]!.apiSecret)
  })
  afterAll(async () => {
    await receiver?.close()
  })

  const createPayment = (overrides: Partial<CreatePaymentRequest> = {}): Promise<Payment> =>
    dash.sandbox.direct.payments.create({ amount: { value: 1250, currency: 'EUR' }, description: 'Dashboard order', ...overrides })

  const liveConnected = () => dash.page.waitForSelector('html[data-live="connected"]')
  const shownStatus = (testId = 'status') => dash.page.locator('#payment-summary').getByTestId(testId).getAttribute('data-status')

  it('journey 1: signs in through the link of `paybox dashboard`; the token leaves the address bar and works once', async () => {
    const link = await dash.cliDashboardLink()
    expect(new URL(link).searchParams.get('token')).toBeTruthy()
    await dash.page.goto(link)
    await dash.page.waitForURL((url) => url.pathname === '/dashboard/overview')
    expect(new URL(dash.page.url()).search).toBe('')
    expect(await dash.page.getByTestId('nav-overview').getAttribute('aria-current')).toBe('page')
    const cookies = await dash.context.cookies()
    expect(cookies.find((cookie) => cookie.name.startsWith('paybox_dashboard_'))).toMatchObject({ httpOnly: true, sameSite: 'Strict' })
    await expectAccessible('overview')

    const other = await dash.browser.newContext()
    try {
      const reused = await other.newPage()
      const answer = await reused.goto(link)
      expect(answer?.status()).toBe(401)
      expect(await reused.getByTestId('sign-in-error').textContent()).toContain('already used or has expired')
      await dash.page.bringToFront()
    } finally {
      await other.close()
    }
    await dash.page.goto(`${dash.sandbox.url}/dashboard/sign-in`)
    await expectAccessible('sign-in page')
  })

  it('journey 2: a payment made in the CLI appears live; underpaid from the dashboard, then accepted, it is paid and settled', async () => {
    await signInAsAdmin()
    await dash.page.goto(`${dash.sandbox.url}/dashboard/payments`)
    await liveConnected()
    await dash.page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }))
    const payment = await createPayment({ webhookUrl: receiver.url, description: 'Journey two' })
    const row = dash.page.locator(`[data-payment-id="${payment.id}"]`)
    await row.waitFor()
    // Live, not reloaded: the document is the one that was open.
    expect(await dash.page.evaluate(() => (globalThis as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
    expect(await row.getByTestId('status').getAttribute('data-status')).toBe('open')

    await row.getByRole('link').click()
    await dash.page.waitForURL((url) => url.pathname === `/dashboard/payments/${payment.id}`)
    expect(await dash.page.getByTestId('amount-asked').textContent()).toBe('€12.50 (13.5 USDC)')
    expect(await dash.page.getByTestId('qr').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(
      100,
    )
    await expectAccessible('payment detail')

    await dash.page.getByTestId('submit-underpay').click()
    await dash.page.waitForURL((url) => url.searchParams.get('done') === 'underpay')
    expect(await shownStatus()).toBe('underpaid')
    expect(await dash.page.getByTestId('amount-paid').textContent()).toBe('€6.25 (6.75 USDC)')
    expect(await dash.page.getByTestId('amount-remaining').textContent()).toBe('€6.25 (6.75 USDC)')
    // Its webhook reached the receiver, and its delivery shows up live on the page.
    await expect.poll(() => receivedFor(receiver, payment.id).some((r) => webhookData(r.raw).status === 'underpaid')).toBe(true)
    await liveConnected()
    await expect
      .poll(() => dash.page.locator('[data-testid="delivery-row"][data-event="transaction_updated"][data-status="success"]').count())
      .toBeGreaterThanOrEqual(1)

    await dash.page.getByTestId('submit-accept-underpayment').click()
    await dash.page.waitForURL((url) => url.searchParams.get('done') === 'accept-underpayment')
    expect(await shownStatus()).toBe('paid')
    await liveConnected()
    await expect.poll(() => shownStatus('settlement-status')).toBe('paid')
    expect(await dash.page.getByTestId('amount-settled').textContent()).toMatch(/USDC$/)
    expect(await dash.page.locator('[data-testid="history-entry"][data-status="paid"]').count()).toBe(1)
    expect(await dash.sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'paid', settlement_status: 'paid' })
  })

  it('acts once per rendered form: submitting the same underpay form twice pays once', async () => {
    const payment = await createPayment()
    await signInAsAdmin()
    await dash.page.goto(`${dash.sandbox.url}/dashboard/payments/${payment.id}`)
    const form = dash.page.getByTestId('action-underpay')
    const hidden = (name: string) => form.locator(`input[name="${name}"]`).inputValue()
    const fields = { csrf_token: await hidden('csrf_token'), idempotency_key: await hidden('idempotency_key') }
    const action = await form.getAttribute('action')
    const post = () => dash.page.request.post(`${dash.sandbox.url}${action}`, { form: fields, maxRedirects: 0 })
    expect((await post()).status()).toBe(303)
    expect((await post()).status()).toBe(303)
    expect(await dash.sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'underpaid', amount_paid: 625 })
  })

  it('journey 7: a merchant session cannot see another merchant’s payment by its URL (404)', async () => {
    const payment = await createPayment({ description: 'Acme only' })
    await signInAsMerchant(dash.sandbox.merchants[1]!)
    const answer = await dash.page.goto(`${dash.sandbox.url}/dashboard/payments/${payment.id}`)
    expect(answer?.status()).toBe(404)
    expect(await dash.page.getByTestId('error').textContent()).toContain(`No payment ${payment.id}`)
    expect(await dash.page.content()).not.toContain('Acme only')
    expect(await dash.page.getByTestId('merchant-select').count()).toBe(0)
    await expectAccessible('error page')
  })

  /** Posts a form of the page as the browser would, with the session's cookie, minus the fields left out. */
  async function postForm(testId: string, leaveOut: string[], extra: Record<string, string> = {}) {
    const form = dash.page.getByTestId(testId)
    const names = await form.locator('input[type="hidden"]').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('name')!))
    const fields: Record<string, string> = { ...extra }
    for (const name of names.filter((n) => !leaveOut.includes(n))) fields[name] = await form.locator(`input[name="${name}"]`).inputValue()
    return dash.page.request.post(`${dash.sandbox.url}${await form.getAttribute('action')}`, { form: fields, maxRedirects: 0 })
  }

  it('journey 8: an action posted without its CSRF token is refused, and nothing changes', async () => {
    const payment = await createPayment()
    await signInAsAdmin()
    await dash.page.goto(`${dash.sandbox.url}/dashboard/payments/${payment.id}`)
    const refused = await postForm('action-expire', ['csrf_token'], { confirm: 'yes' })
    expect(refused.status()).toBe(403)
    expect(refused.headers()['content-type']).toMatch(/^text\/html/)
    expect(await refused.text()).toContain('missing its security (CSRF) token')
    expect((await dash.sandbox.direct.payments.get(payment.id)).status).toBe('open')
    // The same form with its token goes through.
    expect((await postForm('action-expire', [], { confirm: 'yes' })).status()).toBe(303)
    expect((await dash.sandbox.direct.payments.get(payment.id)).status).toBe('expired')
  })

  it('asks for the confirmation of a destructive action, with a readable error and no change', async () => {
    const payment = await createPayment()
    await signInAsAdmin()
    await dash.page.goto(`${dash.sandbox.url}/dashboard/payments/${payment.id}`)
    // The browser asks for the box itself (required); a request without it is refused by the server too.
    expect(await dash.page.getByTestId('action-fail').locator('input[name="confirm"]').getAttribute('required')).not.toBeNull()
    const unconfirmed = await postForm('action-fail', [])
    expect(unconfirmed.status()).toBe(400)
    expect(await unconfirmed.text()).toContain('Tick the confirmation box to fail this payment')
    expect((await dash.sandbox.direct.payments.get(payment.id)).status).toBe('open')

    await dash.page.getByTestId('action-fail').getByLabel('Reason (optional)').fill('card declined')
    await dash.page
      .getByTestId('action-fail')
      .getByLabel(/I am sure/)
      .check()
    await dash.page.getByTestId('submit-fail').click()
    await dash.page.waitForURL((url) => url.searchParams.get('done') === 'fail')
    expect(await shownStatus()).toBe('failed')
    expect(await dash.page.locator('[data-testid="history-entry"][data-status="failed"]').textContent()).toContain('card declined')
  })

  it('renders HTML and script in descriptions, metadata and merchant names as inert text', async () => {
    const payment = await createPayment({ description: HOSTILE, metadata: { note: HOSTILE } })
    await dash.sandbox.admin.sandbox.createMerchant({ name: HOSTILE, settlement_mode: 'direct' })
    await signInAsAdmin()
    await dash.page.goto(`${dash.sandbox.url}/dashboard/payments`)
    const row = dash.page.locator(`[data-payment-id="${payment.id}"]`)
    expect(await row.getByTestId('payment-description').textContent()).toBe(HOSTILE)
    await dash.page.goto(`${dash.sandbox.url}/dashboard/payments/${payment.id}`)
    expect(await dash.page.getByTestId('description').textContent()).toBe(HOSTILE)
    expect(JSON.parse((await dash.page.getByTestId('metadata').textContent())!)).toEqual({ note: HOSTILE })
    expect(await dash.page.locator('#merchant-select option', { hasText: 'bold' }).textContent()).toBe(`${HOSTILE} (direct)`)
    await expectInert('', ['option img'])
  })
})
