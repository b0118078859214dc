// No command prompts in CI or without a terminal: every command of the CLI, run with CI set
// and nothing but its required arguments, finishes (it never waits for an answer) and, when it
// cannot go on, fails with one line naming what to pass. The commands that ask on a terminal
// are checked as separate processes too, with no CI variable and a stdin that stays open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMANDS } from '../../commands/index.js'
import { linesOf, merchantEnv, runCli, spawnCli, type CliEnv } from '../../harness/cli.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

/** Commands that run until stopped (servers, live tails): not a question of prompting. */
const RUNS_UNTIL_STOPPED = new Set(['sandbox:start', 'webhooks:tail', 'logs:tail', 'listen'])

/** Those with a terminal conversation, and the flag each must name when it cannot have one. */
const INTERACTIVE: Array<{ argv: string[]; names: string }> = [
  { argv: ['login'], names: '--api-key' },
  { argv: ['payments', 'create'], names: '--amount' },
  { argv: ['invoices', 'create'], names: '--currency' },
]

let sandbox: TestSandbox
let env: CliEnv
beforeAll(async () => {
  sandbox = await startTestSandbox()
  env = merchantEnv(sandbox)
})
afterAll(() => sandbox.stop())

describe('non-interactive by design', () => {
  it('every command finishes with CI set, and a failure is one line on stderr', async () => {
    // Its own sandbox: the sweep resets it, rotates secrets, pauses webhooks…
    const swept = await startTestSandbox()
    const env = merchantEnv(swept)
    const checked: string[] = []
    for (const [id, command] of Object.entries(COMMANDS)) {
      if (RUNS_UNTIL_STOPPED.has(id)) continue
      // Only the required arguments, with a placeholder: the least a script could pass.
      const args = Object.values((command as { args?: Record<string, { required?: boolean }> }).args ?? {})
        .filter((arg) => arg.required)
        .map(() => 'placeholder')
      const result = await runCli([...id.split(':'), ...args], env)
      expect(result.error, `paybox ${id} let an error escape`).toBeUndefined()
      if (result.exitCode !== 0) expect(linesOf(result.stderr), `paybox ${id}: ${result.stderr}`).toHaveLength(1)
      checked.push(id)
    }
    await swept.stop()
    expect(checked).toEqual(
      expect.arrayContaining(['login', 'payments:create', 'invoices:create', 'invoices:cancel', 'sandbox:reset', 'sandbox:wait']),
    )
  }, 180_000)

  it.each(INTERACTIVE)('paybox $argv fails naming $names with CI set', async ({ argv, names }) => {
    const result = await runCli(argv, env)
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    expect(linesOf(result.stderr)).toHaveLength(1)
    expect(result.stderr).toContain(names)
  })

  it('invoices cancel asks on a terminal only: in CI it needs --yes', async () => {
    const invoice = await sandbox.direct.invoices.create({
      currency: 'USD',
      line_items: [{ description: 'Thing', quantity: 1, unit_price: 100 }],
      customer: { email: 'buyer@example.test', customer_type: 'business' },
    })
    const result = await runCli(['invoices', 'cancel', invoice.id], env)
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('--yes')
    expect((await sandbox.direct.invoices.get(invoice.id)).status).not.toBe('voided')
  })

  it.each(INTERACTIVE)(
    'paybox $argv, without CI but with no terminal, fails naming $names instead of waiting on stdin',
    async ({ argv, names }) => {
      const { CI: _ci, ...withoutCi } = env
      const spawned = spawnCli(argv, withoutCi)
      // stdin stays open and silent: a command that waited on it would never exit.
      const { code } = await spawned.exited
      expect(code).toBe(1)
      expect(linesOf(spawned.stderr())).toHaveLength(1)
      expect(spawned.stderr()).toContain(names)
    },
    60_000,
  )
})
