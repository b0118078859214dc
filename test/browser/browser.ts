// What browser tests share: the system's Chromium driven by playwright-core (no browser
// download; PAYBOX_CHROMIUM points elsewhere), and a stand-in merchant site on 127.0.0.1 for
// the checkout to send customers back to.
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core'

export const CHROMIUM_PATH = process.env.PAYBOX_CHROMIUM ?? '/usr/bin/chromium'

/**
 * Whether the browser suites can run. `npm test` on a machine without Chromium skips them with
 * one line saying what to install; .ci/run sets PAYBOX_REQUIRE_BROWSER=1, where a missing
 * Chromium fails the run instead of quietly testing less.
 */
export function chromiumAvailable(): boolean {
  if (fs.existsSync(CHROMIUM_PATH)) return true
  const missing = `no Chromium at ${CHROMIUM_PATH}`
  if (process.env.PAYBOX_REQUIRE_BROWSER === '1')
    throw new Error(`The browser tests must run (PAYBOX_REQUIRE_BROWSER=1) but there is ${missing}`)
  console.warn(`Skipping the browser tests: ${missing} (install Debian's chromium package, or set PAYBOX_CHROMIUM to a Chromium binary)`)
  return false
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
}

/** A page in a fresh context; Chromium reports every blocked style, script or image on the console, and those reports go to `violations`. */
export async function openWatchedPage(
  browser: Browser,
  violations: string[],
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options)
  const page = await context.newPage()
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text())
  })
  return { context, page }
}

export interface MerchantSite {
  url: string
  /** Every request the site received, in order. */
  visits: { path: string; referer: string | undefined }[]
  close(): Promise<void>
}

/** A merchant's shop: answers every path with a page naming that path. */
export async function startMerchantSite(): Promise<MerchantSite> {
  const visits: MerchantSite['visits'] = []
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/'
    visits.push({ path, referer: req.headers.referer })
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><title>Shop</title><h1 data-testid="merchant-site">Back at the shop</h1>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    visits,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
