// `paybox sandbox tenant create|delete` and the clock commands' --merchant (issue 30): a tenant is
// a merchant with its own keys and business clock; --env makes a shell act as it, and moving its
// clock leaves the sandbox's, and every other merchant's, alone.
import { describe, expect, it } from 'vitest'
import type { AdvancedClock, CreatedTenant, SandboxClock } from '../../src/client/types.js'
import { expectOneLineFailure, isolatedEnv, merchantEnv, runCli, runCliJson, type CliEnv } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

/** The variables `export NAME='value'` lines set, as a shell that sources them would. */
function sourced(text: string): CliEnv {
  const env: CliEnv = {}
  for (const line of text.trim().split('\n')) {
    const match = /^export ([A-Z_]+)='([^']*)'$/.exec(line)
    if (!match) throw new Error(`not a plain export line: ${line}`)
    env[match[1]!] = match[2]
  }
  return env
}

describe('paybox sandbox tenant', () => {
  const sandbox = sandboxForSuite()
  const adminEnv = (): CliEnv => merchantEnv(sandbox)

  it('creates a tenant with its keys and its own clock, frozen where asked', async () => {
    const at = '2031-01-02T03:04:05.000Z'
    const { json, exitCode, stderr } = await runCliJson<CreatedTenant>(
      ['sandbox', 'tenant', 'create', '--name', 'job 42', '--settlement-mode', 'escrow', '--escrow-fee-bps', '250', '--frozen-at', at],
      adminEnv(),
    )
    expect(exitCode, stderr).toBe(0)
    expect(json.merchant).toMatchObject({ name: 'job 42', settlement_mode: 'escrow', escrow_fee_bps: 250 })
    expect(json.merchant.apiKey).toBeTruthy()
    expect(json.merchant.apiSecret).toBeTruthy()
    expect(json.clock).toMatchObject({ now: at, frozenAt: at })
    // The sandbox's own clock did not stop with it.
    expect((await sandbox.admin.sandbox.clock()).frozenAt).toBeUndefined()
  })

  it('prints shell exports that make later paybox calls act as the tenant and move only its clock', async () => {
    const created = await runCli(['sandbox', 'tenant', 'create', '--name', 'sourced', '--env'], adminEnv())
    expect(created.exitCode, created.stderr).toBe(0)
    const exports = sourced(created.stdout)
    expect(Object.keys(exports).sort()).toEqual(['PAYBOX_API_KEY', 'PAYBOX_API_SECRET', 'PAYBOX_BASE_URL', 'PAYBOX_TENANT_ID'])
    const env = isolatedEnv({ ...exports, PAYBOX_ADMIN_TOKEN: sandbox.identity.adminToken })
    const payment = await runCliJson<{ id: string }>(['payments', 'create', '--amount', '5.00', '--description', 'As the tenant'], env)
    expect(payment.exitCode, payment.stderr).toBe(0)
    // The payment is the tenant's: the seeded merchant cannot see it.
    await expect(sandbox.direct.payments.get(payment.json.id)).rejects.toMatchObject({ statusCode: 404 })

    const before = await sandbox.admin.sandbox.clock()
    const advanced = await runCliJson<AdvancedClock>(['sandbox', 'clock', 'advance', '2h'], env)
    expect(advanced.exitCode, advanced.stderr).toBe(0)
    expect(advanced.json.advancedSeconds).toBe(7200)
    expect((await sandbox.admin.sandbox.clock()).advancedSeconds).toBe(before.advancedSeconds)
    const shown = await runCliJson<SandboxClock>(['sandbox', 'clock'], env)
    expect(shown.json.advancedSeconds).toBe(7200)
    // Without the admin token, the tenant's own keys move its clock (a local sandbox allows it; a shared one answers 403).
    const ownKeys = await runCliJson<AdvancedClock>(['sandbox', 'clock', 'advance', '1h'], isolatedEnv(exports))
    expect(ownKeys.exitCode, ownKeys.stderr).toBe(0)
    expect(ownKeys.json.advancedSeconds).toBe(10_800)
  })

  it('freezes, advances and unfreezes one merchant clock with --merchant, and nobody else’s', async () => {
    const tenant = (await runCliJson<CreatedTenant>(['sandbox', 'tenant', 'create'], adminEnv())).json
    const id = tenant.merchant.id
    const at = '2032-06-01T00:00:00.000Z'
    const frozen = await runCliJson<SandboxClock>(['sandbox', 'clock', 'freeze', '--at', at, '--merchant', id], adminEnv())
    expect(frozen.exitCode, frozen.stderr).toBe(0)
    expect(frozen.json).toMatchObject({ now: at, frozenAt: at })
    const advanced = await runCliJson<AdvancedClock>(['sandbox', 'clock', 'advance', '31m', '--merchant', id], adminEnv())
    expect(advanced.json.now).toBe('2032-06-01T00:31:00.000Z')
    const shown = await runCliJson<SandboxClock>(['sandbox', 'clock', '--merchant', id], adminEnv())
    expect(shown.json.now).toBe('2032-06-01T00:31:00.000Z')
    const sandboxClock = await runCliJson<SandboxClock>(['sandbox', 'clock'], adminEnv())
    expect(sandboxClock.json.frozenAt).toBeUndefined()
    expect(sandboxClock.json.now < at).toBe(true)
    const unfrozen = await runCliJson<SandboxClock>(['sandbox', 'clock', 'unfreeze', '--merchant', id], adminEnv())
    expect(unfrozen.json.frozenAt).toBeUndefined()
  })

  it('archives a tenant: its keys stop working, and archiving again changes nothing', async () => {
    const created = await runCli(['sandbox', 'tenant', 'create', '--env'], adminEnv())
    const exports = sourced(created.stdout)
    const id = exports.PAYBOX_TENANT_ID!
    const archived = await runCliJson<{ id: string; archivedAt: string }>(['sandbox', 'tenant', 'delete', id], adminEnv())
    expect(archived.exitCode, archived.stderr).toBe(0)
    expect(archived.json.id).toBe(id)
    const again = await runCliJson<{ id: string; archivedAt: string }>(['sandbox', 'tenant', 'delete', id], adminEnv())
    expect(again.exitCode, again.stderr).toBe(0)
    expect(again.json.archivedAt).toBe(archived.json.archivedAt)
    const refused = await runCli(['payments', 'list'], isolatedEnv(exports))
    expect(refused.exitCode).toBe(1)
    expect(refused.stderr).toMatch(/^Error: 401 /)
  })

  it('refuses bad flags in one line, naming the flag', async () => {
    expectOneLineFailure(
      await runCli(['sandbox', 'tenant', 'create', '--settlement-mode', 'sideways'], adminEnv()),
      'Expected --settlement-mode=sideways to be one of: direct, escrow (see --help)',
    )
    const badInstant = await runCli(['sandbox', 'tenant', 'create', '--frozen-at', 'next tuesday'], adminEnv())
    expect(badInstant.exitCode).toBe(1)
    expect(badInstant.stderr.split('\n').filter(Boolean)).toHaveLength(1)
    expect(badInstant.stderr).toMatch(/--frozen-at/)
    expectOneLineFailure(
      await runCli(['sandbox', 'clock', 'advance', '1h', '--merchant', ''], adminEnv()),
      '--merchant must not be empty (pass a merchant id, or leave --merchant and PAYBOX_TENANT_ID out)',
    )
    const unknown = await runCli(['sandbox', 'tenant', 'delete', '00000000-0000-4000-8000-000000000000'], adminEnv())
    expect(unknown.exitCode).toBe(1)
    expect(unknown.stderr).toMatch(/^Error: 404 /)
    expect(unknown.stderr.split('\n').filter(Boolean)).toHaveLength(1)
  })
})
