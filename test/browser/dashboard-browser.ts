// What the dashboard's browser tests share: a sandbox and Chromium for the file, a fresh page for
// each test whose CSP reports fail it, the two ways in (admin, merchant), and the checks every
// view gets (axe-core, hostile text left inert).
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest'
import { linesOf, merchantEnv, runCli } from '../../harness/cli.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { launchChromium, openWatchedPage } from './browser.js'

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Text that would run or add elements were it rendered as HTML. */
export const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script><b id="injected">bold</b>`

export interface DashboardBrowser {
  readonly sandbox: TestSandbox
  readonly browser: Browser
  /** This test's context and page, opened before it and closed after. */
  readonly context: BrowserContext
  readonly page: Page
  /** The link `paybox dashboard --no-open` prints. */
  cliDashboardLink(): Promise<string>
  signInAsAdmin(): Promise<void>
  signInAsMerchant(merchant: { apiKey: string; apiSecret: string }): Promise<void>
  /** Runs axe-core in the page (evaluated over the DevTools protocol, which the page's CSP does not govern). */
  expectAccessible(what: string): Promise<void>
  /** No element HOSTILE would add is on the page, and none of its script ran. */
  expectInert(what?: string, moreSelectors?: string[]): Promise<void>
}

/**
 * Registers the file's hooks. `adminSignIn: 'cli'` signs the admin in through the link `paybox
 * dashboard --no-open` prints, 'api' through the admin API's link (no CLI process per sign-in).
 */
export function useDashboardBrowser(options: {
  sandbox?: Parameters<typeof startTestSandbox>[0]
  adminSignIn: 'cli' | 'api'
}): DashboardBrowser {
  let sandbox: TestSandbox
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let cspViolations: string[]

  beforeAll(async () => {
    ;[sandbox, browser] = await Promise.all([startTestSandbox(options.sandbox), launchChromium()])
  }, 120_000)
  afterAll(async () => {
    await Promise.all([browser?.close(), sandbox?.stop()])
  })
  beforeEach(async () => {
    cspViolations = []
    ;({ context, page } = await openWatchedPage(browser, cspViolations))
  })
  afterEach(async () => {
    await context.close()
    expect(cspViolations).toEqual([])
  })

  async function cliDashboardLink(): Promise<string> {
    const { stdout, stderr, exitCode } = await runCli(['dashboard', '--no-open'], merchantEnv(sandbox))
    expect(exitCode, stderr).toBe(0)
    expect(stderr).toContain('--no-open')
    return linesOf(stdout).at(-1)!
  }
  // Signing in lands on the first view, the overview.
  const onOverview = () => page.waitForURL((url) => url.pathname === '/dashboard/overview')

  return {
    get sandbox() {
      return sandbox
    },
    get browser() {
      return browser
    },
    get context() {
      return context
    },
    get page() {
      return page
    },
    cliDashboardLink,
    async signInAsAdmin() {
      await page.goto(options.adminSignIn === 'cli' ? await cliDashboardLink() : (await sandbox.admin.sandbox.dashboardLink()).url)
      await onOverview()
    },
    async signInAsMerchant(merchant) {
      await page.goto(`${sandbox.url}/dashboard/sign-in`)
      await page.getByLabel('API key').fill(merchant.apiKey)
      await page.getByLabel('API secret').fill(merchant.apiSecret)
      await page.getByTestId('sign-in').click()
      await onOverview()
    },
    async expectAccessible(what) {
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
    },
    async expectInert(what = '', moreSelectors = []) {
      for (const selector of ['#injected', 'main img[src="x"]', 'main script', ...moreSelectors])
        expect(await page.locator(selector).count(), `${what} ${selector}`).toBe(0)
      expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned), what).toBeUndefined()
    },
  }
}
