// The Ledger explorer and Clock and state views in a real headless Chromium, on both backends:
// journey 6 (the clock advanced past a payment's expiry from the Clock page, and the payment shown
// expired), a paid payment's transaction appearing live with its memo and operations and a Horizon
// link answering JSON, a snapshot saved and restored behind its confirmation, hostile memos and
// names rendered inert, and axe-core on every page of both views.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { chromiumAvailable, launchChromium } from './browser.js'

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
/** Memos are at most 28 bytes: two short hostile ones. */
const HOSTILE_MEMOS = ['<svg onload=__pwned=1>', '<b id=injected>x</b>']
const HOSTILE_NAME = `<img src=x onerror="window.__pwned=1"><b id="injected">Evil</b>`

describe.runIf(chromiumAvailable())('the Ledger explorer and Clock and state views in a browser', { timeout: 90_000 }, () => {
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
    await page.goto((await sandbox.admin.sandbox.dashboardLink()).url)
    await page.waitForURL((url) => url.pathname === '/dashboard/overview')
  }

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

  const expectInert = async (what: string) => {
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned), what).toBeUndefined()
    expect(await page.locator('#injected').count(), what).toBe(0)
  }

  it('journey 6: the clock advanced past a payment’s expiry from the Clock page shows the payment expired', async () => {
    await signInAsAdmin()
    const payment = await sandbox.direct.payments.create({ amount: { value: 900, currency: 'EUR' }, description: 'Expires soon' })
    await page.goto(`${sandbox.url}/dashboard/payments/${payment.id}`)
    expect(await page.locator('#payment-summary').getByTestId('status').getAttribute('data-status')).toBe('open')

    await page.getByTestId('nav-clock').click()
    await page.waitForURL((url) => url.pathname === '/dashboard/clock')
    await expectAccessible('clock page')
    await page.getByLabel(/Advance by/).fill('31m')
    await page.getByTestId('advance').click()
    await page.waitForSelector('[data-testid="done"][data-done="advanced"]')
    expect(await page.getByTestId('done').textContent()).toContain('1 payments expired')

    await page.goto(`${sandbox.url}/dashboard/payments/${payment.id}`)
    expect(await page.locator('#payment-summary').getByTestId('status').getAttribute('data-status')).toBe('expired')
  })

  it('a paid payment’s transaction appears live with its memo and operations; its Horizon link answers JSON', async () => {
    await signInAsAdmin()
    await page.getByTestId('nav-ledger').click()
    await page.waitForURL((url) => url.pathname === '/dashboard/ledger')
    await expectAccessible('ledger accounts')
    await page.getByTestId('ledger-nav-transactions').click()
    await page.waitForSelector('html[data-live="connected"]')

    const created = await sandbox.direct.payments.create({ amount: { value: 700, currency: 'EUR' }, description: 'Ledger journey' })
    const paid = await sandbox.direct.sandbox.pay(created.id)
    const hash = paid.stellarTxId!
    const row = page.locator(`[data-testid="transaction-row"][data-hash="${hash}"]`)
    await row.waitFor()
    const tx = await sandbox.context.ledger.getTransaction(sandbox.context.db, hash)
    expect(await row.getByTestId('tx-memo').textContent()).toBe(tx!.memo)
    expect(await row.getByTestId('operation').count()).toBe(tx!.operations.length)
    await expectAccessible('ledger transactions')

    // A transaction no payment event follows (a wallet funded by the issuer) appears live too: ledger changes reach the page.
    const before = await page.locator('[data-testid="transaction-row"]').count()
    const wallet = await sandbox.admin.sandbox.createWallet()
    const [funding] = await sandbox.context.ledger.listTransactions(sandbox.context.db, {
      account: wallet.publicKey,
      order: 'desc',
      limit: 1,
    })
    await page.locator(`[data-testid="transaction-row"][data-hash="${funding!.hash}"]`).waitFor()
    expect(await page.locator('[data-testid="transaction-row"]').count()).toBeGreaterThan(before)

    await row.getByRole('link', { name: /…/ }).click()
    await page.waitForURL((url) => url.pathname === `/dashboard/ledger/transactions/${hash}`)
    await expectAccessible('ledger transaction')
    const href = await page.getByTestId('horizon-transaction').getAttribute('href')
    const answer = await page.request.get(`${sandbox.url}${href}`)
    expect(answer.headers()['content-type']).toMatch(/json/)
    expect(((await answer.json()) as { hash: string }).hash).toBe(hash)

    await page.goto(`${sandbox.url}/dashboard/ledger/orders`)
    await expectAccessible('ledger orders')
  })

  it('renders hostile memos and merchant names inert', async () => {
    await sandbox.admin.sandbox.createMerchant({ name: HOSTILE_NAME, settlement_mode: 'direct' })
    for (const memo of HOSTILE_MEMOS) {
      const created = await sandbox.direct.payments.create({ amount: { value: 300, currency: 'EUR' }, description: 'Wrong memo' })
      await sandbox.direct.sandbox.pay(created.id, { memo })
    }
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/ledger?role=merchant`)
    expect(await page.getByTestId('account-label').allTextContents()).toContain(`${HOSTILE_NAME} settlement`)
    await expectInert('accounts')
    await page.goto(`${sandbox.url}/dashboard/ledger/transactions`)
    const memos = await page.getByTestId('tx-memo').allTextContents()
    for (const memo of HOSTILE_MEMOS) expect(memos).toContain(memo)
    await expectInert('transactions')
    const hostileRow = page.locator('[data-testid="transaction-row"]', { hasText: HOSTILE_MEMOS[1]! })
    await hostileRow.first().getByRole('link', { name: /…/ }).click()
    await page.waitForURL((url) => url.pathname.startsWith('/dashboard/ledger/transactions/'))
    expect(await page.getByTestId('tx-memo').textContent()).toBe(HOSTILE_MEMOS[1])
    await expectInert('transaction')
  })

  it('saves a snapshot and restores it only once confirmed, staying signed in', async () => {
    await signInAsAdmin()
    await page.goto(`${sandbox.url}/dashboard/clock`)
    await page.getByLabel(/^Name/).fill('browser-journey')
    await page.getByTestId('save').click()
    await page.waitForSelector('[data-testid="done"][data-done="saved"]')
    const row = page.locator('[data-testid="snapshot-row"][data-name="browser-journey"]')
    await row.waitFor()

    // Unconfirmed, the browser does not send the form (the box is required); the page stays as it was.
    await row.getByTestId('restore').click()
    expect(await page.getByTestId('done').getAttribute('data-done')).toBe('saved')
    await row.getByLabel(/Replace the whole state/).check()
    await row.getByTestId('restore').click()
    await page.waitForSelector('[data-testid="done"][data-done="restored"]')
    expect(await page.getByTestId('done').textContent()).toContain('still signed in')
    await expectAccessible('clock after restore')
  })
})
