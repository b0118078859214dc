// The dashboard's Invoices and Merchants views in a real headless Chromium, on both backends:
// journey 5 (an invoice created and voided from the form, the number preview moving), the
// admin-only merchants view (create, reveal, rotate), hostile text rendered inert, form errors
// shown on their fields, and axe-core on every page.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { linesOf, merchantEnv, runCli } from '../../harness/cli.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { chromiumAvailable, launchChromium } from './browser.js'

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script><b id="injected">bold</b>`

describe.runIf(chromiumAvailable())('the dashboard’s invoices and merchants in a browser', { timeout: 90_000 }, () => {
  let sandbox: TestSandbox
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let cspViolations: string[]

  beforeAll(async () => {
    ;[sandbox, browser] = await Promise.all([startTestSandbox(), launchChromium()])
  }, 120_000)
  afterAll(async () => {
    await Promise.all([browser?.close(), sandbox?.stop()])
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

  async function signInAsAdmin(): Promise<void> {
    const { stdout, stderr, exitCode } = await runCli(['dashboard', '--no-open'], merchantEnv(sandbox))
    expect(exitCode, stderr).toBe(0)
    await page.goto(linesOf(stdout).at(-1)!)
    await page.waitForURL((url) => url.pathname === '/dashboard/overview')
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

  const go = (path: string) => page.goto(`${sandbox.url}/dashboard${path}`)
  const text = (testId: string) => page.getByTestId(testId).first().textContent()

  it('journey 5: an invoice is created and voided from the form, and the number preview moves', async () => {
    await signInAsAdmin()
    await page.getByTestId('nav-invoices').click()
    await page.waitForURL((url) => url.pathname === '/dashboard/invoices')
    await expectAccessible('invoice list')

    await go('/invoices/settings')
    const before = await text('number-preview')
    await expectAccessible('numbering settings')

    await go('/invoices/new')
    expect(await text('form-number-preview')).toBe(before)
    await page.getByLabel('Customer email').fill('journey@example.com')
    await page.getByLabel('Customer name').fill('Journey Five')
    await page.getByLabel('Currency').selectOption('EUR')
    await page.getByLabel('Item 1 description').fill('Consulting')
    await page.getByLabel('Item 1 quantity').fill('2')
    await page.getByLabel('Item 1 unit price').fill('150.00')
    await page.getByLabel('Item 2 description').fill('Travel')
    await page.getByLabel('Item 2 quantity').fill('1')
    await page.getByLabel('Item 2 unit price').fill('45.50')
    await page.getByLabel('Tax (%)').fill('10')
    await page.getByTestId('preview-totals').click()
    await page.getByTestId('totals').waitFor()
    // The sandbox's figures: 345.50, 34.55, 380.05; what was typed is kept.
    expect(await text('total-subtotal')).toBe('€345.50')
    expect(await text('total-tax')).toBe('€34.55')
    expect(await text('total-total')).toBe('€380.05')
    expect(await page.getByLabel('Item 2 description').inputValue()).toBe('Travel')
    await expectAccessible('invoice form with totals')

    // A fourth row, without script.
    await page.getByTestId('more-items').click()
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(4)
    await page.getByLabel('Item 4 description').fill('Materials')
    await page.getByLabel('Item 4 quantity').fill('3')
    await page.getByLabel('Item 4 unit price').fill('1.25')
    await page.getByLabel('Notes').fill('Thanks!')
    await page.getByTestId('create-invoice').click()
    await page.waitForURL((url) => /^\/dashboard\/invoices\/[^/]+$/.test(url.pathname) && url.searchParams.get('done') === 'created')
    expect(await text('invoice-title')).toBe(before)
    expect(await text('total')).toBe('€384.18')
    expect(await page.getByTestId('line-item').count()).toBe(3)
    expect(await page.getByTestId('status').first().getAttribute('data-status')).toBe('sent')
    await expectAccessible('invoice detail')

    // Its payment's page, linked.
    const paymentHref = await page.getByTestId('payment-link').getAttribute('href')
    expect(paymentHref).toMatch(/^\/dashboard\/payments\//)
    expect(await page.getByTestId('checkout-link').getAttribute('href')).toMatch(/\/checkout\//)

    await page.getByLabel(/I am sure: void invoice/).check()
    await page.getByTestId('submit-cancel').click()
    await page.waitForURL((url) => url.searchParams.get('done') === 'cancelled')
    expect(await page.getByTestId('status').first().getAttribute('data-status')).toBe('voided')
    expect(await page.getByTestId('payment-status').getAttribute('data-status')).toBe('expired')
    expect(await page.getByTestId('cancel-invoice').count()).toBe(0)

    await page.goto(`${sandbox.url}${paymentHref}`)
    expect(await page.locator('#payment-summary').getByTestId('status').getAttribute('data-status')).toBe('expired')

    await go('/invoices/settings')
    const after = await text('number-preview')
    expect(after).not.toBe(before)
    expect(after).toBe((await sandbox.direct.invoices.settings()).preview)

    await go('/invoices?status=voided')
    expect(await page.locator('[data-testid="invoice-row"]', { hasText: before! }).count()).toBe(1)
  })

  it('shows each form error on its field, readable and accessible', async () => {
    await signInAsAdmin()
    await go('/invoices/new')
    await page.getByLabel('Customer email').fill('errors@example.com')
    await page.getByLabel('Currency').selectOption('EUR')
    await page.getByLabel('Item 1 description').fill('Thing')
    await page.getByLabel('Item 1 quantity').fill('lots')
    await page.getByLabel('Item 1 unit price').fill('1,50')
    await page.getByTestId('create-invoice').click()
    await page.getByTestId('form-errors').waitFor()
    const fields = await page.getByTestId('form-error').evaluateAll((items) => items.map((item) => item.getAttribute('data-field')))
    expect(fields.sort()).toEqual(['item_1_price', 'item_1_quantity'])
    expect(await page.getByLabel('Item 1 quantity').getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByLabel('Item 1 quantity').inputValue()).toBe('lots')
    await expectAccessible('invoice form with errors')

    await go('/invoices/settings')
    await page.getByLabel(/Next number/).fill('zero')
    await page.getByTestId('save-settings').click()
    await page.getByTestId('form-errors').waitFor()
    await expectAccessible('settings with errors')
  })

  it('renders hostile customer names, descriptions, notes and merchant names as inert text', async () => {
    const invoice = await sandbox.direct.invoices.create({
      currency: 'USD',
      customer: { email: 'hostile@example.com', name: HOSTILE, company_name: HOSTILE },
      line_items: [{ description: HOSTILE, quantity: 1, unit_price: 100 }],
      notes: HOSTILE,
    })
    await sandbox.admin.sandbox.createMerchant({ name: HOSTILE, settlement_mode: 'direct' })
    await signInAsAdmin()
    await go('/invoices')
    expect(await page.locator(`[data-invoice-id="${invoice.id}"]`).getByTestId('invoice-customer').textContent()).toBe(HOSTILE)
    await go(`/invoices/${invoice.id}`)
    for (const testId of ['customer-name', 'customer-company', 'line-description', 'notes'])
      expect(await text(testId), testId).toBe(HOSTILE)
    await go('/merchants')
    expect(await page.locator('[data-testid="merchant-name"]', { hasText: 'bold' }).textContent()).toBe(HOSTILE)
    for (const selector of ['#injected', 'main img[src="x"]', 'main script']) expect(await page.locator(selector).count(), selector).toBe(0)
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
  })

  it('merchants (admin): creates one, reveals its secret on request, rotates it once confirmed; a merchant session has none of it', async () => {
    await signInAsAdmin()
    await page.getByTestId('nav-merchants').click()
    await page.waitForURL((url) => url.pathname === '/dashboard/merchants')
    expect(await page.getByTestId('secret-hidden').count()).toBeGreaterThanOrEqual(2)
    await expectAccessible('merchants')

    await page.getByLabel('Name').fill('Browser Bazaar')
    await page.getByLabel('Settlement mode').selectOption('escrow')
    await page.getByLabel(/Escrow fee/).fill('150')
    await page.getByTestId('submit-create-merchant').click()
    await page.waitForURL((url) => url.searchParams.has('created'))
    const id = new URL(page.url()).searchParams.get('created')!
    const row = page.locator(`[data-testid="merchant-row"][data-merchant-id="${id}"]`)
    expect(await row.getByTestId('merchant-name').textContent()).toBe('Browser Bazaar')
    const created = (await sandbox.admin.sandbox.merchants()).items.find((m) => m.id === id)!
    expect(await page.content()).not.toContain(created.apiSecret)

    await row.getByTestId('reveal').click()
    await page.getByTestId('revealed-secret').waitFor()
    expect(await text('revealed-secret')).toBe(created.apiSecret)
    await expectAccessible('merchants with a revealed secret')

    await go('/merchants')
    const fresh = page.locator(`[data-testid="merchant-row"][data-merchant-id="${id}"]`)
    await fresh.getByLabel(/I am sure: rotate the secret/).check()
    await fresh.getByTestId('rotate').click()
    await page.getByTestId('revealed-secret').waitFor()
    const rotated = (await text('revealed-secret'))!
    expect(rotated).not.toBe(created.apiSecret)
    expect((await new PayboxClient({ baseUrl: sandbox.url, apiKey: created.apiKey, apiSecret: rotated }).invoices.list()).items).toEqual([])

    await page.getByTestId('sign-out').click()
    await signInAsMerchant(sandbox.merchants[0]!)
    expect(await page.getByTestId('nav-merchants').count()).toBe(0)
    expect(await page.getByTestId('nav-invoices').count()).toBe(1)
    const answer = await go('/merchants')
    expect(answer?.status()).toBe(404)
    expect(await page.content()).not.toContain(created.apiKey)
  })

  it('shows an invoice paid from the API as paid, live, on its page', async () => {
    const invoice = await sandbox.direct.invoices.create({
      currency: 'EUR',
      customer: { email: 'live@example.com' },
      line_items: [{ description: 'Live', quantity: 1, unit_price: 700 }],
    })
    await signInAsAdmin()
    await go(`/invoices/${invoice.id}`)
    await page.waitForSelector('html[data-live="connected"]')
    await page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }))
    const shown = () => page.locator('#invoice-summary').getByTestId('status').getAttribute('data-status')
    expect(await shown()).toBe('sent')
    await sandbox.direct.sandbox.pay(invoice.payment_id)
    await expect.poll(shown).toBe('paid')
    expect(await page.getByTestId('payment-status').getAttribute('data-status')).toBe('paid')
    // Refreshed in place, not reloaded.
    expect(await page.evaluate(() => (globalThis as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
  })

  it('keeps a merchant session from another merchant’s invoice by its URL (404)', async () => {
    const invoice = await sandbox.direct.invoices.create({
      currency: 'EUR',
      customer: { email: 'acme@example.com', name: 'Acme customer' },
      line_items: [{ description: 'Acme only', quantity: 1, unit_price: 100 }],
    })
    await signInAsMerchant(sandbox.merchants[1]!)
    const answer = await go(`/invoices/${invoice.id}`)
    expect(answer?.status()).toBe(404)
    expect(await page.content()).not.toContain('Acme customer')
    await expectAccessible('invoice not found')
  })
})
