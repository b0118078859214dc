// The dashboard's Invoices and Merchants views in a real headless Chromium, on both backends:
// journey 5 (an invoice created and voided from the form, the number preview moving), the
// admin-only merchants view (create, reveal, rotate), hostile text rendered inert, form errors
// shown on their fields, and axe-core on every page.
import { describe, expect, it } from 'vitest'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { chromiumAvailable } from './browser.js'
import { HOSTILE, useDashboardBrowser } from './dashboard-browser.js'

describe.runIf(chromiumAvailable())('the dashboard’s invoices and merchants in a browser', { timeout: 90_000 }, () => {
  const dash = useDashboardBrowser({ adminSignIn: 'cli' })
  const { signInAsAdmin, signInAsMerchant, expectAccessible, expectInert } = dash

  const go = (path: string) => dash.page.goto(`${dash.sandbox.url}/dashboard${path}`)
  const text = (testId: string) => dash.page.getByTestId(testId).first().textContent()

  it('journey 5: an invoice is created and voided from the form, and the number preview moves', async () => {
    await signInAsAdmin()
    await dash.page.getByTestId('nav-invoices').click()
    await dash.page.waitForURL((url) => url.pathname === '/dashboard/invoices')
    await expectAccessible('invoice list')

    await go('/invoices/settings')
    const before = await text('number-preview')
    await expectAccessible('numbering settings')

    await go('/invoices/new')
    expect(await text('form-number-preview')).toBe(before)
    await dash.page.getByLabel('Customer email').fill('journey@example.com')
    await dash.page.getByLabel('Customer name').fill('Journey Five')
    await dash.page.getByLabel('Currency').selectOption('EUR')
    await dash.page.getByLabel('Item 1 description').fill('Consulting')
    await dash.page.getByLabel('Item 1 quantity').fill('2')
    await dash.page.getByLabel('Item 1 unit price').fill('150.00')
    await dash.page.getByLabel('Item 2 description').fill('Travel')
    await dash.page.getByLabel('Item 2 quantity').fill('1')
    await dash.page.getByLabel('Item 2 unit price').fill('45.50')
    await dash.page.getByLabel('Tax (%)').fill('10')
    await dash.page.getByTestId('preview-totals').click()
    await dash.page.getByTestId('totals').waitFor()
    // The sandbox's figures: 345.50, 34.55, 380.05; what was typed is kept.
    expect(await text('total-subtotal')).toBe('€345.50')
    expect(await text('total-tax')).toBe('€34.55')
    expect(await text('total-total')).toBe('€380.05')
    expect(await dash.page.getByLabel('Item 2 description').inputValue()).toBe('Travel')
    await expectAccessible('invoice form with totals')

    // A fourth row, without script.
    await dash.page.getByTestId('more-items').click()
    await expect.poll(() => dash.page.getByTestId('item-row').count()).toBe(4)
    await dash.page.getByLabel('Item 4 description').fill('Materials')
    await dash.page.getByLabel('Item 4 quantity').fill('3')
    await dash.page.getByLabel('Item 4 unit price').fill('1.25')
    await dash.page.getByLabel('Notes').fill('Thanks!')
    await dash.page.getByTestId('create-invoice').click()
    await dash.page.waitForURL((url) => /^\/dashboard\/invoices\/[^/]+$/.test(url.pathname) && url.searchParams.get('done') === 'created')
    expect(await text('invoice-title')).toBe(before)
    expect(await text('total')).toBe('€384.18')
    expect(await dash.page.getByTestId('line-item').count()).toBe(3)
    expect(await dash.page.getByTestId('status').first().getAttribute('data-status')).toBe('sent')
    await expectAccessible('invoice detail')

    // Its payment's page, linked.
    const paymentHref = await dash.page.getByTestId('payment-link').getAttribute('href')
    expect(paymentHref).toMatch(/^\/dashboard\/payments\//)
    expect(await dash.page.getByTestId('checkout-link').getAttribute('href')).toMatch(/\/checkout\//)

    await dash.page.getByLabel(/I am sure: void invoice/).check()
    await dash.page.getByTestId('submit-cancel').click()
    await dash.page.waitForURL((url) => url.searchParams.get('done') === 'cancelled')
    expect(await dash.page.getByTestId('status').first().getAttribute('data-status')).toBe('voided')
    expect(await dash.page.getByTestId('payment-status').getAttribute('data-status')).toBe('expired')
    expect(await dash.page.getByTestId('cancel-invoice').count()).toBe(0)

    await dash.page.goto(`${dash.sandbox.url}${paymentHref}`)
    expect(await dash.page.locator('#payment-summary').getByTestId('status').getAttribute('data-status')).toBe('expired')

    await go('/invoices/settings')
    const after = await text('number-preview')
    expect(after).not.toBe(before)
    expect(after).toBe((await dash.sandbox.direct.invoices.settings()).preview)

    await go('/invoices?status=voided')
    expect(await dash.page.locator('[data-testid="invoice-row"]', { hasText: before! }).count()).toBe(1)
  })

  it('shows each form error on its field, readable and accessible', async () => {
    await signInAsAdmin()
    await go('/invoices/new')
    await dash.page.getByLabel('Customer email').fill('errors@example.com')
    await dash.page.getByLabel('Currency').selectOption('EUR')
    await dash.page.getByLabel('Item 1 description').fill('Thing')
    await dash.page.getByLabel('Item 1 quantity').fill('lots')
    await dash.page.getByLabel('Item 1 unit price').fill('1,50')
    await dash.page.getByTestId('create-invoice').click()
    await dash.page.getByTestId('form-errors').waitFor()
    const fields = await dash.page.getByTestId('form-error').evaluateAll((items) => items.map((item) => item.getAttribute('data-field')))
    expect(fields.sort()).toEqual(['item_1_price', 'item_1_quantity'])
    expect(await dash.page.getByLabel('Item 1 quantity').getAttribute('aria-invalid')).toBe('true')
    expect(await dash.page.getByLabel('Item 1 quantity').inputValue()).toBe('lots')
    await expectAccessible('invoice form with errors')

    await go('/invoices/settings')
    await dash.page.getByLabel(/Next number/).fill('zero')
    await dash.page.getByTestId('save-settings').click()
    await dash.page.getByTestId('form-errors').waitFor()
    await expectAccessible('settings with errors')
  })

  it('renders hostile customer names, descriptions, notes and merchant names as inert text', async () => {
    const invoice = await dash.sandbox.direct.invoices.create({
      currency: 'USD',
      customer: { email: 'hostile@example.com', name: HOSTILE, company_name: HOSTILE },
      line_items: [{ description: HOSTILE, quantity: 1, unit_price: 100 }],
      notes: HOSTILE,
    })
    await dash.sandbox.admin.sandbox.createMerchant({ name: HOSTILE, settlement_mode: 'direct' })
    await signInAsAdmin()
    await go('/invoices')
    expect(await dash.page.locator(`[data-invoice-id="${invoice.id}"]`).getByTestId('invoice-customer').textContent()).toBe(HOSTILE)
    await go(`/invoices/${invoice.id}`)
    for (const testId of ['customer-name', 'customer-company', 'line-description', 'notes'])
      expect(await text(testId), testId).toBe(HOSTILE)
    await go('/merchants')
    expect(await dash.page.locator('[data-testid="merchant-name"]', { hasText: 'bold' }).textContent()).toBe(HOSTILE)
    await expectInert()
  })

  it('merchants (admin): creates one, reveals its secret on request, rotates it once confirmed; a merchant session has none of it', async () => {
    await signInAsAdmin()
    await dash.page.getByTestId('nav-merchants').click()
    await dash.page.waitForURL((url) => url.pathname === '/dashboard/merchants')
    expect(await dash.page.getByTestId('secret-hidden').count()).toBeGreaterThanOrEqual(2)
    await expectAccessible('merchants')

    await dash.page.getByLabel('Name').fill('Browser Bazaar')
    await dash.page.getByLabel('Settlement mode').selectOption('escrow')
    await dash.page.getByLabel(/Escrow fee/).fill('150')
    await dash.page.getByTestId('submit-create-merchant').click()
    await dash.page.waitForURL((url) => url.searchParams.has('created'))
    const id = new URL(dash.page.url()).searchParams.get('created')!
    const row = dash.page.locator(`[data-testid="merchant-row"][data-merchant-id="${id}"]`)
    expect(await row.getByTestId('merchant-name').textContent()).toBe('Browser Bazaar')
    const created = (await dash.sandbox.admin.sandbox.merchants()).items.find((m) => m.id === id)!
    expect(await dash.page.content()).not.toContain(created.apiSecret)

    await row.getByTestId('reveal').click()
    await dash.page.getByTestId('revealed-secret').waitFor()
    expect(await text('revealed-secret')).toBe(created.apiSecret)
    await expectAccessible('merchants with a revealed secret')

    await go('/merchants')
    const fresh = dash.page.locator(`[data-testid="merchant-row"][data-merchant-id="${id}"]`)
    await fresh.getByLabel(/I am sure: rotate the secret/).check()
    await fresh.getByTestId('rotate').click()
    await dash.page.getByTestId('revealed-secret').waitFor()
    const rotated = (await text('revealed-secret'))!
    expect(rotated).not.toBe(created.apiSecret)
    expect(
      (await new PayboxClient({ baseUrl: dash.sandbox.url, apiKey: created.apiKey, apiSecret: rotated }).invoices.list()).items,
    ).toEqual([])

    await dash.page.getByTestId('sign-out').click()
    await signInAsMerchant(dash.sandbox.merchants[0]!)
    expect(await dash.page.getByTestId('nav-merchants').count()).toBe(0)
    expect(await dash.page.getByTestId('nav-invoices').count()).toBe(1)
    const answer = await go('/merchants')
    expect(answer?.status()).toBe(404)
    expect(await dash.page.content()).not.toContain(created.apiKey)
  })

  it('shows an invoice paid from the API as paid, live, on its page', async () => {
    const invoice = await dash.sandbox.direct.invoices.create({
      currency: 'EUR',
      customer: { email: 'live@example.com' },
      line_items: [{ description: 'Live', quantity: 1, unit_price: 700 }],
    })
    await signInAsAdmin()
    await go(`/invoices/${invoice.id}`)
    await dash.page.waitForSelector('html[data-live="connected"]')
    await dash.page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }))
    const shown = () => dash.page.locator('#invoice-summary').getByTestId('status').getAttribute('data-status')
    expect(await shown()).toBe('sent')
    await dash.sandbox.direct.sandbox.pay(invoice.payment_id)
    await expect.poll(shown).toBe('paid')
    expect(await dash.page.getByTestId('payment-status').getAttribute('data-status')).toBe('paid')
    // Refreshed in place, not reloaded.
    expect(await dash.page.evaluate(() => (globalThis as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
  })

  it('keeps a merchant session from another merchant’s invoice by its URL (404)', async () => {
    const invoice = await dash.sandbox.direct.invoices.create({
      currency: 'EUR',
      customer: { email: 'acme@example.com', name: 'Acme customer' },
      line_items: [{ description: 'Acme only', quantity: 1, unit_price: 100 }],
    })
    await signInAsMerchant(dash.sandbox.merchants[1]!)
    const answer = await go(`/invoices/${invoice.id}`)
    expect(answer?.status()).toBe(404)
    expect(await dash.page.content()).not.toContain('Acme customer')
    await expectAccessible('invoice not found')
  })
})
