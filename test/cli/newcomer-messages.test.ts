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

  it('an unsupported balance asset is said once, in the line every API error has: status, phrase, message', async () => {
    const result = await runCli(['balances', 'DOGE'], env())
    expect(result.exitCode).toBe(1)
    expect(linesOf(result.stderr)).toHaveLength(1)
    expect(result.stderr).toMatch(/^Error: 400 Bad Request: Asset DOGE is not supported: use USDC, USDC:G[A-Z0-9]{55}, native or XLM\n$/)
  })

  it('with no sandbox running and no keys, says nothing answers and how to start one', async () => {
    // Port 9 (discard): nothing listens there, as at 127.0.0.1:4242 before the first `sandbox start`.
    const nowhere = isolatedEnv({ PAYBOX_BASE_URL: 'http://127.0.0.1:9' })
    const hint = 'is the sandbox running? start one with: npx paybox sandbox start, or npm start in a clone'
    expectOneLineFailure(await runCli(['payments', 'list'], nowhere), `Nothing answers at http://127.0.0.1:9 (${hint})`)
    expectOneLineFailure(await runCli(['sandbox', 'clock'], nowhere), `Nothing answers at http://127.0.0.1:9 (${hint})`)
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

  it('names the flag the user typed, not the API field it became', async () => {
    await sandbox.direct.invoices.updateSettings({ next_number: 7 })
    expectOneLineFailure(
      await runCli(['invoices', 'settings', '--next-number', '3'], env()),
      '400 Bad Request: --next-number: must be at least the current next number 7 (numbers only move forward)',
    )
    // A flag named unlike its field (--prefix sends invoice_prefix) declares the field it sends.
    expectOneLineFailure(
      await runCli(['invoices', 'settings', '--prefix', 'INV{'], env()),
      '400 Bad Request: --prefix: may hold only letters, digits, space, - _ . / and the token {year}',
    )
    const payment = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Bridged' })
    const quote = ['payments', 'quote', payment.id, '--origin-chain', 'base', '--origin-token', 'USDC', '--no-qr']
    expectOneLineFailure(
      await runCli([...quote, '--refund-address', 'nope'], env()),
      '400 Bad Request: --refund-address: not a valid Base address (0x and 40 hex digits)',
    )
    const since = await runCli(['payments', 'list', '--since', 'yesterday'], env())
    expect(since.exitCode).toBe(1)
    expect(since.stderr).toMatch(/^Error: 400 Bad Request: --since: [^\n]+\n$/)
  })
})
