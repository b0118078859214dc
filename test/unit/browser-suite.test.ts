// The README's `npm test` on a machine without Chromium: the browser suite is skipped with one
// line naming what to install, unless PAYBOX_REQUIRE_BROWSER=1 (set by .ci/run) makes that a
// failure. Runs vitest itself on the browser suite, pointed at a Chromium that does not exist.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../harness/cli.js'

const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')

async function runBrowserSuite(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [VITEST, 'run', 'test/browser/checkout.test.ts'], {
    cwd: ROOT,
    env: { ...process.env, PAYBOX_CHROMIUM: path.join(ROOT, 'no-such-chromium'), ...env, NO_COLOR: '1', CI: '1' },
  })
  let output = ''
  for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, output }
}

const missing = `no Chromium at ${path.join(ROOT, 'no-such-chromium')}`

describe('the browser suite without Chromium', { timeout: 60_000 }, () => {
  it('is skipped, with one line naming the package to install', async () => {
    const { code, output } = await runBrowserSuite({ PAYBOX_REQUIRE_BROWSER: '' })
    expect(output).toContain(
      `Skipping the browser tests: ${missing} (install Debian's chromium package, or set PAYBOX_CHROMIUM to a Chromium binary)`,
    )
    expect(code).toBe(0)
  })

  it('fails when PAYBOX_REQUIRE_BROWSER=1, as in .ci/run', async () => {
    const { code, output } = await runBrowserSuite({ PAYBOX_REQUIRE_BROWSER: '1' })
    expect(output).toContain(`The browser tests must run (PAYBOX_REQUIRE_BROWSER=1) but there is ${missing}`)
    expect(code).toBe(1)
  })
})
