// The Ledger explorer and Clock and state views in a real headless Chromium, on both backends:
// journey 6 (the clock advanced past a payment's expiry from the Clock page, and the payment shown
// expired), a paid payment's transaction appearing live with its memo and operations and a Horizon
// link answering JSON, a snapshot saved and restored behind its confirmation, hostile memos and
// names rendered inert, and axe-core on every page of both views.
import { describe, expect, it } from 'vitest'
import { chromiumAvailable } from './browser.js'
import { useDashboardBrowser } from './dashboard-browser.js'
/** Memos are at most 28 bytes: two short hostile ones. */
const HOSTILE_MEMOS = ['<svg onload=__pwned=1>', '<b id=injected>x</b>']
const HOSTILE_NAME = `<img src=x onerror="window.__pwned=1"><b id="injected">Evil</b>`

describe.runIf(chromiumAvailable())('the Ledger explorer and Clock and state views in a browser', { timeout: 90_000 }, () => {
  const dash = useDashboardBrowser({ adminSignIn: 'api' })
  const { signInAsAdmin, expectAccessible, expectInert } = dash

  it('journey 6: the clock advanced past a payment’s expiry from the Clock page shows the payment expired', async () => {
    await signInAsAdmin()
    const payment = await dash.sandbox.direct.payments.create({ amount: { value: 900, currency: 'EUR' }, description: 'Expires soon' })
    await dash.page.goto(`${dash.sandbox.url}/dashboard/payments/${payment.id}`)
    expect(await dash.page.locator('#payment-summary').getByTestId('status').getAttribute('data-status')).toBe('open')

    await dash.page.getByTestId('nav-clock').click()
    await dash.page.waitForURL((url) => url.pathname === '/dashboard/clock')
    await expectAccessible('clock page')
    await dash.page.getByLabel(/Advance by/).fill('31m')
    await dash.page.getByTestId('advance').click()
    await dash.page.waitForSelector('[data-testid="done"][data-done="advanced"]')
    expect(await dash.page.getByTestId('done').textContent()).toContain('1 payments expired')

    await dash.page.goto(`${dash.sandbox.url}/dashboard/payments/${payment.id}`)
    expect(await dash.page.locator('#payment-summary').getByTestId('status').getAttribute('data-status')).toBe('expired')
  })

  it('a paid payment’s transaction appears live with its memo and operations; its Horizon link answers JSON', async () => {
    await signInAsAdmin()
    await dash.page.getByTestId('nav-ledger').click()
    await dash.page.waitForURL((url) => url.pathname === '/dashboard/ledger')
    await expectAccessible('ledger accounts')
    await dash.page.getByTestId('ledger-nav-transactions').click()
    await dash.page.waitForSelector('html[data-live="connected"]')

    const created = await dash.sandbox.direct.payments.create({ amount: { value: 700, currency: 'EUR' }, description: 'Ledger journey' })
    const paid = await dash.sandbox.direct.sandbox.pay(created.id)
    const hash = paid.stellarTxId!
    const row = dash.page.locator(`[data-testid="transaction-row"][data-hash="${hash}"]`)
    await row.waitFor()
    const tx = await dash.sandbox.context.ledger.getTransaction(dash.sandbox.context.db, hash)
    expect(await row.getByTestId('tx-memo').textContent()).toBe(tx!.memo)
    expect(await row.getByTestId('operation').count()).toBe(tx!.operations.length)
    await expectAccessible('ledger transactions')

    // A transaction no payment event follows (a wallet funded by the issuer) appears live too: ledger changes reach the page.
    const before = await dash.page.locator('[data-testid="transaction-row"]').count()
    const wallet = await dash.sandbox.admin.sandbox.createWallet()
    const [funding] = await dash.sandbox.context.ledger.listTransactions(dash.sandbox.context.db, {
      account: wallet.publicKey,
      order: 'desc',
      limit: 1,
    })
    await dash.page.locator(`[data-testid="transaction-row"][data-hash="${funding!.hash}"]`).waitFor()
    expect(await dash.page.locator('[data-testid="transaction-row"]').count()).toBeGreaterThan(before)

    await row.getByRole('link', { name: /…/ }).click()
    await dash.page.waitForURL((url) => url.pathname === `/dashboard/ledger/transactions/${hash}`)
    await expectAccessible('ledger transaction')
    const href = await dash.page.getByTestId('horizon-transaction').getAttribute('href')
    const answer = await dash.page.request.get(`${dash.sandbox.url}${href}`)
    expect(answer.headers()['content-type']).toMatch(/json/)
    expect(((await answer.json()) as { hash: string }).hash).toBe(hash)

    await dash.page.goto(`${dash.sandbox.url}/dashboard/ledger/orders`)
    await expectAccessible('ledger orders')
  })

  it('renders hostile memos and merchant names inert', async () => {
    await dash.sandbox.admin.sandbox.createMerchant({ name: HOSTILE_NAME, settlement_mode: 'direct' })
    for (const memo of HOSTILE_MEMOS) {
      const created = await dash.sandbox.direct.payments.create({ amount: { value: 300, currency: 'EUR' }, description: 'Wrong memo' })
      await dash.sandbox.direct.sandbox.pay(created.id, { memo })
    }
    await signInAsAdmin()
    await dash.page.goto(`${dash.sandbox.url}/dashboard/ledger?role=merchant`)
    expect(await dash.page.getByTestId('account-label').allTextContents()).toContain(`${HOSTILE_NAME} settlement`)
    await expectInert('accounts')
    await dash.page.goto(`${dash.sandbox.url}/dashboard/ledger/transactions`)
    const memos = await dash.page.getByTestId('tx-memo').allTextContents()
    for (const memo of HOSTILE_MEMOS) expect(memos).toContain(memo)
    await expectInert('transactions')
    const hostileRow = dash.page.locator('[data-testid="transaction-row"]', { hasText: HOSTILE_MEMOS[1]! })
    await hostileRow.first().getByRole('link', { name: /…/ }).click()
    await dash.page.waitForURL((url) => url.pathname.startsWith('/dashboard/ledger/transactions/'))
    expect(await dash.page.getByTestId('tx-memo').textContent()).toBe(HOSTILE_MEMOS[1])
    await expectInert('transaction')
  })

  it('saves a snapshot and restores it only once confirmed, staying signed in', async () => {
    await signInAsAdmin()
    await dash.page.goto(`${dash.sandbox.url}/dashboard/clock`)
    await dash.page.getByLabel(/^Name/).fill('browser-journey')
    await dash.page.getByTestId('save').click()
    await dash.page.waitForSelector('[data-testid="done"][data-done="saved"]')
    const row = dash.page.locator('[data-testid="snapshot-row"][data-name="browser-journey"]')
    await row.waitFor()

    // Unconfirmed, the browser does not send the form (the box is required); the page stays as it was.
    await row.getByTestId('restore').click()
    expect(await dash.page.getByTestId('done').getAttribute('data-done')).toBe('saved')
    await row.getByLabel(/Replace the whole state/).check()
    await row.getByTestId('restore').click()
    await dash.page.waitForSelector('[data-testid="done"][data-done="restored"]')
    expect(await dash.page.getByTestId('done').textContent()).toContain('still signed in')
    await expectAccessible('clock after restore')
  })
})
