// The hosted checkout in a real headless Chromium: the customer's whole journey through the
// sandbox buttons, back to a merchant site served on 127.0.0.1.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CreatePaymentRequest, Payment } from '../../src/client/types.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { chromiumAvailable, launchChromium, openWatchedPage, startMerchantSite, type MerchantSite } from './browser.js'

// Starting Chromium takes a few seconds, more on a busy machine; nothing here times anything.
describe.runIf(chromiumAvailable())('hosted checkout in a browser', { timeout: 60_000 }, () => {
  let sandbox: TestSandbox
  let browser: Browser
  let shop: MerchantSite
  let context: BrowserContext
  let page: Page
  let cspViolations: string[]

  beforeAll(async () => {
    ;[sandbox, browser, shop] = await Promise.all([startTestSandbox(), launchChromium(), startMerchantSite()])
  }, 120_000)
  afterAll(async () => {
    await Promise.all([browser?.close(), shop?.close(), sandbox?.stop()])
  })

  async function openContext(options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
    ;({ context, page } = await openWatchedPage(browser, cspViolations, options))
    return page
  }

  beforeEach(async () => {
    cspViolations = []
    page = await openContext()
  })
  afterEach(async () => {
    await context.close()
    expect(cspViolations).toEqual([])
  })

  const createPayment = (overrides: Partial<CreatePaymentRequest> = {}): Promise<Payment> =>
    sandbox.direct.payments.create({
      amount: { value: 1250, currency: 'EUR' },
      description: 'Order #3001',
      redirectUrl: `${shop.url}/thanks?order=3001`,
      cancelUrl: `${shop.url}/cart?order=3001`,
      ...overrides,
    })

  const text = (testId: string) => page.getByTestId(testId).textContent()
  const shownStatus = () => page.getByTestId('status').getAttribute('data-status')
  const onOutcomePage = (payment: Payment) => page.waitForURL((url) => url.pathname === `/checkout/${payment.id}/outcome`)
  const onCheckoutPage = (payment: Payment) => page.waitForURL((url) => url.pathname === `/checkout/${payment.id}`)

  it('pays part, then the rest, and lands on the merchant redirectUrl', async () => {
    const payment = await createPayment()
    const response = await page.goto(payment.hostedUrl)
    expect(response?.status()).toBe(200)
    expect(await text('merchant')).toBe('Acme Store')
    expect(await text('description')).toBe('Order #3001')
    expect(await text('amount')).toBe('€12.50')
    expect(await text('usdc')).toBe('13.5 USDC')
    expect(await shownStatus()).toBe('open')
    expect(await text('wallet-uri')).toBe(payment.qrCode)
    // The QR code is a real image the page decoded (data: images pass the CSP)…
    const qrWidth = await page.getByTestId('qr').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)
    expect(qrWidth).toBeGreaterThan(100)
    // …and the nonce-tagged countdown script runs.
    const timeLeft = await text('time-left')
    expect(timeLeft).toMatch(/^(30:00|29:[0-5]\d)$/)
    await expect.poll(() => text('time-left'), { timeout: 10_000 }).not.toBe(timeLeft)

    await page.getByTestId('action-pay-part').click()
    await onOutcomePage(payment)
    expect(await page.getByTestId('outcome').getAttribute('data-outcome')).toBe('underpaid')
    expect(await text('outcome')).toBe('Part of the payment was received: €6.25 is still to pay.')
    expect(await text('remaining')).toBe('€6.25 (6.75 USDC)')
    expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'underpaid', amount_paid: 625 })

    await page.getByTestId('pay-rest').click()
    await onCheckoutPage(payment)
    expect(await shownStatus()).toBe('underpaid')
    expect(await page.getByTestId('action-cancel').count()).toBe(0)
    await page.getByTestId('action-pay-full').click()
    await onOutcomePage(payment)
    expect(await page.getByTestId('outcome').getAttribute('data-outcome')).toBe('paid')
    expect(await page.getByTestId('return-link').getAttribute('href')).toBe(`${shop.url}/thanks?order=3001`)

    // The outcome page sends the customer back by itself.
    await page.waitForURL(`${shop.url}/thanks?order=3001`)
    expect(await page.getByTestId('merchant-site').textContent()).toBe('Back at the shop')
    expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'paid', amount_paid: 1250 })
    // The checkout URLs carry the auth token: the shop must not see them as a referrer.
    expect(shop.visits.find((visit) => visit.path === '/thanks?order=3001')).toEqual({ path: '/thanks?order=3001', referer: undefined })
  })

  it('shows an expired payment as expired, with no buttons', async () => {
    const payment = await createPayment()
    await sandbox.direct.request<Payment>('POST', `/sandbox/payments/${payment.id}/expire`)
    await page.goto(payment.hostedUrl)
    expect(await shownStatus()).toBe('expired')
    expect(await text('notice')).toBe('This payment has expired.')
    expect(await page.getByRole('button').count()).toBe(0)
    expect(await page.locator('form').count()).toBe(0)
    expect(await page.getByTestId('qr').count()).toBe(0)
  })

  it('shows the error page, and nothing of the payment, for a wrong token', async () => {
    const payment = await createPayment()
    const wrong = new URL(payment.hostedUrl)
    wrong.searchParams.set('auth_token', '0'.repeat(32))
    const response = await page.goto(wrong.href)
    expect(response?.status()).toBe(404)
    expect(await text('error')).toBe('This payment link is not valid.')
    // What the customer reads, not the source: nothing but the heading (a stray "\n" once followed it).
    expect(await page.locator('main').innerText()).toBe('This payment link is not valid.')
    expect(await page.getByTestId('merchant').count()).toBe(0)
    expect(await page.content()).not.toContain('Order #3001')
  })

  it('cancel sends the customer to the cancelUrl', async () => {
    const payment = await createPayment()
    await page.goto(payment.hostedUrl)
    await page.getByTestId('action-cancel').click()
    await page.waitForURL(`${shop.url}/cart?order=3001`)
    expect(await page.getByTestId('merchant-site').textContent()).toBe('Back at the shop')
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('canceled')
  })

  it('speaks Spanish for a Spanish payment, switches language, and keeps it through a button', async () => {
    const payment = await createPayment({ locale: 'es' })
    await page.goto(payment.hostedUrl)
    expect(await page.locator('html').getAttribute('lang')).toBe('es')
    expect(await text('status')).toBe('Pendiente de pago')
    expect(await text('action-pay-full')).toBe('Pagar el total€12.50')
    expect(await page.getByTestId('qr').getAttribute('alt')).toBe('Código QR de la URI de pago para billetera')

    await page.getByTestId('lang-en').click()
    await page.waitForURL((url) => url.searchParams.get('lang') === 'en')
    expect(await text('status')).toBe('Awaiting payment')
    await page.getByTestId('lang-es').click()
    await page.waitForURL((url) => url.searchParams.get('lang') === 'es')

    await page.getByTestId('action-pay-part').click()
    await onOutcomePage(payment)
    expect(await text('outcome')).toBe('Se recibió una parte del pago: faltan €6.25 por pagar.')
    expect(await text('pay-rest')).toBe('Pagar el resto')
  })

  it('works without JavaScript: the buttons are plain forms', async () => {
    await context.close()
    page = await openContext({ javaScriptEnabled: false })
    const payment = await createPayment()
    await page.goto(payment.hostedUrl)
    await page.getByTestId('action-fail').click()
    await onOutcomePage(payment)
    expect(await page.getByTestId('outcome').getAttribute('data-outcome')).toBe('failed')
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('failed')
  })
})
