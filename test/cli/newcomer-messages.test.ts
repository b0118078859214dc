// The one-line messages and small texts a new user reads first (issue #18, item 9), each as the
// user saw it: naming what they typed the way they typed it, once, in plain words.
import { describe, expect, it } from 'vitest'
import { expectOneLineFailure, isolatedEnv, linesOf, merchantEnv, runCli, spawnCli } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

describe('messages a newcomer reads', () => {
  const sandbox = sandboxForSuite()
  const env = () => merchantEnv(sandbox)

  it('webhooks test-receiver names its <url> argument, not a --url flag it does not have', async () => {
    expectOneLineFailure(
      await runCli(['webhooks', 'test-receiver', 'notaurl'], env()),
      '<url> must be an absolute http(s) URL, got "notaurl"',
    )
  })

  it('an unsupported balance asset is said once', async () => {
    const result = await runCli(['balances', 'DOGE'], env())
    expect(result.exitCode).toBe(1)
    expect(linesOf(result.stderr)).toHaveLength(1)
    expect(result.stderr).toMatch(/^Error: 400 Asset DOGE is not supported: use USDC, USDC:G[A-Z0-9]{55}, native or XLM\n$/)
  })

  it('a page of one item says "1 payment"', async () => {
    await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Just one' })
    const { stdout, exitCode } = await runCli(['payments', 'list'], env())
    expect(exitCode).toBe(0)
    expect(linesOf(stdout).at(-1)).toBe('Page 1 of 1 (1 payment)')
  })

  it('sandbox clock advance labels what it processed in words', async () => {
    const { stdout, exitCode } = await runCli(['sandbox', 'clock', 'advance', '1m'], env())
    expect(exitCode).toBe(0)
    expect(stdout).not.toMatch(/expiredPayments|overdueInvoices|failedEscrows/)
    for (const label of ['Payments expired', 'Invoices now overdue', 'Escrow orders failed'])
      expect(stdout).toMatch(new RegExp(`${label}\\s*│\\s*0\\s`))
  })

  it('a bad flag exits 1 in sandbox start as everywhere else, in one line', async () => {
    expectOneLineFailure(await runCli(['payments', 'list', '--bogus'], env()), 'Nonexistent flag: --bogus (see --help)')
    expectOneLineFailure(
      await runCli(['payments', 'list', '--limit', 'abc'], env()),
      'Parsing --limit: Expected an integer but received: abc (see --help)',
    )
    const start = spawnCli(['sandbox', 'start', '--port', 'abc'], isolatedEnv())
    expect((await start.exited).code).toBe(1)
    expect(start.stderr()).toBe('Error: Parsing --port: Expected an integer but received: abc (see --help)\n')
  })
})
