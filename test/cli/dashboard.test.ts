// `paybox dashboard`: a one-time sign-in link from the admin token, printed instead of opened
// under CI, without a display, with --no-open or --json.
import { describe, expect, it } from 'vitest'
import { linesOf, merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'
import { whyNotOpen } from '../../src/cli/browser-opener.js'

describe('paybox dashboard', () => {
  const sandbox = sandboxForSuite()

  it('prints {url} with --json, a link that signs in once', async () => {
    const { json, exitCode } = await runCliJson<{ url: string }>(['dashboard'], merchantEnv(sandbox))
    expect(exitCode).toBe(0)
    expect(Object.keys(json)).toEqual(['url'])
    const url = new URL(json.url)
    expect(url.origin + url.pathname).toBe(`${sandbox.url}/dashboard/sign-in`)
    const first = await fetch(json.url, { redirect: 'manual' })
    expect(first.status).toBe(303)
    expect((await fetch(json.url, { redirect: 'manual' })).status).toBe(401)
  })

  it('prints the link rather than opening a browser under CI, and says why on stderr', async () => {
    const { stdout, stderr, exitCode } = await runCli(['dashboard'], merchantEnv(sandbox, 'direct', { CI: '1' }))
    expect(exitCode).toBe(0)
    expect(linesOf(stdout)).toHaveLength(1)
    expect(stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/sign-in\?token=[\w-]+\n$/)
    expect(stderr).toContain('Not opening a browser (CI is set)')
  })

  it('needs the admin token, and says how to pass it in one line', async () => {
    const result = await runCli(['dashboard', '--no-open'], merchantEnv(sandbox, 'direct', { PAYBOX_ADMIN_TOKEN: undefined }))
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    expect(linesOf(result.stderr)).toHaveLength(1)
    expect(result.stderr).toContain('No sandbox admin token')
  })
})

describe('whether a browser can be opened', () => {
  it('never under CI, nor on Linux without a display; otherwise yes', () => {
    expect(whyNotOpen({ CI: 'true', DISPLAY: ':0' }, 'linux')).toBe('CI is set')
    expect(whyNotOpen({}, 'linux')).toMatch(/no display/)
    expect(whyNotOpen({ DISPLAY: ':0' }, 'linux')).toBeUndefined()
    expect(whyNotOpen({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBeUndefined()
    expect(whyNotOpen({}, 'darwin')).toBeUndefined()
  })
})
