// The CLI's controls of a running sandbox's state: clock freeze and unfreeze, snapshot save,
// list and restore, reset, and the keys scripts read. Against a real sandbox over HTTP.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Page, Payment, SandboxClock, SandboxSnapshot, SandboxStateSwap } from '../../src/client/types.js'
import { writeLocalSandbox } from '../../src/config/local-sandbox.js'
import { expectOneLineFailure, isolatedEnv, runCli, runCliJson, type CliEnv } from '../../harness/cli.js'
import { freshDatabase, rawRequest, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

const started: TestSandbox[] = []
/** Databases a test made for more than one sandbox: dropped once those stopped. */
const databases: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()))
  await Promise.all(databases.splice(0).map((drop) => drop()))
})

async function start(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<{ sandbox: TestSandbox; env: CliEnv }> {
  const sandbox = await startTestSandbox(options)
  started.push(sandbox)
  // The CLI finds it as it finds one started by `paybox sandbox start`: through the state file.
  const env = isolatedEnv()
  writeLocalSandbox({ baseUrl: sandbox.url, adminToken: sandbox.identity.adminToken, pid: process.pid, merchants: sandbox.merchants }, env)
  return { sandbox, env }
}

describe('paybox sandbox clock freeze / unfreeze', () => {
  it('stops business time, keeps it stopped across a restart, and lets it run on from there', async () => {
    const { location: db, drop } = await freshDatabase()
    databases.push(drop)
    const first = await start({ db })
    const frozen = await runCliJson<SandboxClock>(['sandbox', 'clock', 'freeze', '--at', '2030-01-01T00:00:00Z'], first.env)
    expect(frozen.exitCode).toBe(0)
    expect(frozen.json).toMatchObject({ now: '2030-01-01T00:00:00.000Z', frozenAt: '2030-01-01T00:00:00.000Z' })
    const payment = await first.sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Frozen' })
    expect(payment.createdAt).toBe('2030-01-01T00:00:00.000Z')
    const advanced = await runCliJson<SandboxClock>(['sandbox', 'clock', 'advance', '90s'], first.env)
    expect(advanced.json).toMatchObject({ now: '2030-01-01T00:01:30.000Z', frozenAt: '2030-01-01T00:01:30.000Z' })
    await first.sandbox.stop()
    started.splice(0)

    const second = await start({ db })
    expect((await runCliJson<SandboxClock>(['sandbox', 'clock'], second.env)).json).toMatchObject({
      now: '2030-01-01T00:01:30.000Z',
      frozenAt: '2030-01-01T00:01:30.000Z',
    })
    // Backwards is refused, and changes nothing.
    const back = await runCli(['sandbox', 'clock', 'freeze', '--at', '2029-12-31T00:00:00Z'], second.env)
    expectOneLineFailure(back, '400 Bad Request: --at: must not be earlier than the current business time (it only moves forward)')
    // A JSON null is a wrong type, not "no body": refused, and the clock stays where it was.
    const nullBody = await rawRequest(second.sandbox.url, {
      method: 'POST',
      path: '/sandbox/clock/freeze',
      body: 'null',
      headers: { 'x-sandbox-admin-token': second.sandbox.identity.adminToken },
    })
    expect(nullBody.status).toBe(400)
    expect((await runCliJson<SandboxClock>(['sandbox', 'clock'], second.env)).json).toMatchObject({ now: '2030-01-01T00:01:30.000Z' })
    const unfrozen = await runCliJson<SandboxClock>(['sandbox', 'clock', 'unfreeze'], second.env)
    expect(unfrozen.exitCode).toBe(0)
    expect(unfrozen.json.frozenAt).toBeUndefined()
    // Running again, from where it stood: not before it.
    expect(Date.parse(unfrozen.json.now)).toBeGreaterThanOrEqual(Date.parse('2030-01-01T00:01:30.000Z'))
    const later = await second.sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Running' })
    expect(Date.parse(later.createdAt)).toBeGreaterThanOrEqual(Date.parse('2030-01-01T00:01:30.000Z'))
  })
})

describe('paybox sandbox snapshot / reset', () => {
  it('saves, lists and restores through the CLI, and reset goes back to genesis', async () => {
    const { sandbox, env } = await start()
    const kept = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Kept' })
    const saved = await runCliJson<SandboxSnapshot>(['sandbox', 'snapshot', 'save', 'ci-base'], env)
    expect(saved.exitCode).toBe(0)
    expect(saved.json.name).toBe('ci-base')
    expectOneLineFailure(
      await runCli(['sandbox', 'snapshot', 'save', 'ci-base'], env),
      '409 Conflict: A snapshot named "ci-base" exists already (replace: true overwrites it; from the CLI: snapshot save --force)',
    )
    expect((await runCli(['sandbox', 'snapshot', 'save', 'ci-base', '--force'], env)).exitCode).toBe(0)
    const dropped = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Dropped' })

    const listed = await runCliJson<{ items: SandboxSnapshot[] }>(['sandbox', 'snapshot', 'list'], env)
    expect(listed.json.items.map((s) => s.name)).toEqual(['ci-base'])
    const restored = await runCliJson<SandboxStateSwap>(['sandbox', 'snapshot', 'restore', 'ci-base'], env)
    expect(restored.exitCode).toBe(0)
    expect(restored.json.snapshot?.name).toBe('ci-base')
    const payments = await runCliJson<Page<Payment>>(['payments', 'list'], env)
    expect(payments.json.items.map((p) => p.id)).toEqual([kept.id])
    expect(payments.json.items.map((p) => p.id)).not.toContain(dropped.id)
    expectOneLineFailure(await runCli(['sandbox', 'snapshot', 'restore', 'nope'], env), '404 Not Found: No snapshot named "nope"')

    // Even unseeded, a reset keeps the merchants' keys; the CLI's state file still follows.
    const merchantsBefore = structuredClone(sandbox.merchants)
    const reset = await runCliJson<SandboxStateSwap>(['sandbox', 'reset'], env)
    expect(reset.exitCode).toBe(0)
    // The test's handle on the sandbox follows the swap too: same ids, keys and secrets.
    expect(sandbox.merchants).toEqual(merchantsBefore)
    const state = JSON.parse(fs.readFileSync(path.join(env.PAYBOX_HOME!, 'sandbox.json'), 'utf8')) as {
      adminToken: string
      merchants: unknown
    }
    // The state file keeps the secrets the CLI signs with; what the command printed did not show them.
    expect(state.merchants).toEqual(
      sandbox.merchants.map(({ id, name, apiKey, apiSecret, settlement_mode }) => ({ id, name, apiKey, apiSecret, settlement_mode })),
    )
    expect(reset.json.merchants).toEqual(
      sandbox.merchants.map(({ id, name, apiKey, settlement_mode }) => ({ id, name, apiKey, settlement_mode })),
    )
    expect(state.adminToken).toBe(sandbox.identity.adminToken)
    expect((await runCliJson<Page<Payment>>(['payments', 'list'], env)).json.meta.totalItems).toBe(0)
  })

  it("restore and reset print the merchants' keys but never their secrets, as text or JSON", async () => {
    const { sandbox, env } = await start()
    const secrets = () => sandbox.merchants.map((m) => m.apiSecret)
    expect((await runCli(['sandbox', 'snapshot', 'save', 'before'], env)).exitCode).toBe(0)
    for (const argv of [
      ['sandbox', 'snapshot', 'restore', 'before'],
      ['sandbox', 'reset'],
    ]) {
      for (const json of [false, true]) {
        const { stdout, stderr, exitCode } = await runCli(json ? [...argv, '--json'] : argv, env)
        expect(exitCode).toBe(0)
        for (const merchant of sandbox.merchants) expect(stdout).toContain(merchant.apiKey)
        for (const secret of secrets()) expect(stdout + stderr).not.toContain(secret)
        if (!json) expect(stdout).toContain('their secrets: paybox sandbox keys')
      }
    }
    // The CLI still signs with them: the state file has them.
    expect((await runCliJson<Page<Payment>>(['payments', 'list'], env)).exitCode).toBe(0)
  })
})

describe('paybox sandbox keys', () => {
  it('prints the admin token and keys as JSON, as shell exports, and names the merchants it has', async () => {
    const { sandbox, env } = await start()
    const keys = await runCliJson<{
      baseUrl: string
      adminToken: string
      merchants: Array<{ name: string; apiKey: string; apiSecret: string; account: string }>
    }>(['sandbox', 'keys'], env)
    expect(keys.exitCode).toBe(0)
    expect(keys.json.baseUrl).toBe(sandbox.url)
    expect(keys.json.adminToken).toBe(sandbox.identity.adminToken)
    expect(keys.json.merchants.map((m) => [m.name, m.apiKey, m.apiSecret])).toEqual(
      sandbox.merchants.map((m) => [m.name, m.apiKey, m.apiSecret]),
    )

    const escrow = sandbox.merchants[1]!
    const exports = await runCli(['sandbox', 'keys', '--merchant', escrow.id, '--env'], env)
    expect(exports.exitCode).toBe(0)
    expect(exports.stdout).toBe(
      [
        `export PAYBOX_BASE_URL='${sandbox.url}'`,
        `export PAYBOX_ADMIN_TOKEN='${sandbox.identity.adminToken}'`,
        `export PAYBOX_API_KEY='${escrow.apiKey}'`,
        `export PAYBOX_API_SECRET='${escrow.apiSecret}'`,
        '',
      ].join('\n'),
    )
    expectOneLineFailure(
      await runCli(['sandbox', 'keys', '--merchant', 'Nobody'], env),
      `No merchant "Nobody" (the sandbox has: ${sandbox.merchants.map((m) => `${m.name} (${m.id})`).join(', ')})`,
    )
  })
})
