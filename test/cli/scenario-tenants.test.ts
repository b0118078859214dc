// Scenario runs that leave a shared sandbox as they found it (issue 30): on a sandbox that is not
// the developer's own, or with --isolated, a run makes a tenant with its own clock, runs in it, and
// archives it; parallel runs that move time pass without seeing each other's payments or time.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScenarioReport } from '../../src/scenario/run.js'
import { expectOneLineFailure, isolatedEnv, linesOf, merchantEnv, ROOT, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { clockMovedBy, OWN_TIME_SCENARIO, runScenariosInParallel, scenarioFile } from '../../harness/scenario-runs.js'
import { parseXml } from '../../harness/xml.js'
import { PayboxClient } from '../../src/client/paybox-client.js'

const MAKES_A_MERCHANT = `name: Makes a merchant
steps:
  - id: other
    createMerchant: { name: Other shop, settlement_mode: direct }
  - id: payment
    createPayment: { amount: { value: 1000, currency: USD }, description: Isolated, expiresInHours: 24 }
  - advanceClock: { by: 2h }
  - expect: { payment: "\${steps.payment.id}", field: status, equals: open }
`

describe('paybox scenario run --isolated', () => {
  const sandbox = sandboxForSuite()

  it('runs in a fresh tenant with its own clock, archives it, and names it in --json and JUnit without secrets', async () => {
    const file = scenarioFile(MAKES_A_MERCHANT)
    const junit = path.join(path.dirname(file), 'report.xml')
    const before = await sandbox.admin.sandbox.clock()
    const { json, exitCode, stderr, stdout } = await runCliJson<ScenarioReport>(
      ['scenario', 'run', file, '--isolated', '--junit', junit],
      merchantEnv(sandbox),
    )
    expect(exitCode, stderr).toBe(0)
    expect(json.passed).toBe(true)
    expect(json.tenant).toMatchObject({ id: json.merchant.id, name: 'Scenario: Makes a merchant' })
    expect(json.tenant!.archivedAt).toBeTruthy()
    // Its two hours were its own: the sandbox's clock did not move, and the seeded merchant is not the one it ran as.
    expect((await sandbox.admin.sandbox.clock()).advancedSeconds).toBe(before.advancedSeconds)
    expect(json.merchant.id).not.toBe(sandbox.merchants[0]!.id)
    // Neither the run's tenant nor the one its createMerchant step made is left active.
    const active = (await sandbox.admin.sandbox.listTenants()).data.map((tenant) => tenant.id)
    const other = json.steps[0]!.result as { id: string; apiKey: string }
    expect(active).not.toContain(json.tenant!.id)
    expect(active).not.toContain(other.id)
    // No secret reaches the report, the JUnit file or the terminal.
    const secrets = [sandbox.merchants[0]!.apiSecret, sandbox.identity.adminToken]
    expect(stdout).not.toMatch(/apiSecret/)
    const xml = fs.readFileSync(junit, 'utf8')
    for (const secret of secrets) expect(xml + stdout).not.toContain(secret)
    const suite = parseXml(xml).children[0]!
    const properties = suite.children.find((child) => child.name === 'properties')!.children
    expect(properties.map((property) => property.attributes)).toEqual([
      { name: 'paybox.tenant.id', value: json.tenant!.id },
      { name: 'paybox.tenant.name', value: json.tenant!.name },
      { name: 'paybox.tenant.archivedAt', value: json.tenant!.archivedAt },
    ])
  })

  it('keeps the tenant with --keep, and says how to archive it', async () => {
    const file = scenarioFile(MAKES_A_MERCHANT)
    const { stdout, exitCode, stderr } = await runCli(['scenario', 'run', file, '--isolated', '--keep'], merchantEnv(sandbox))
    expect(exitCode, stderr).toBe(0)
    const tenantId = /in tenant (\S+), with its own clock/.exec(stdout)![1]!
    expect(linesOf(stdout).at(-1)).toBe(`Tenant ${tenantId} kept; archive it with: paybox sandbox tenant delete ${tenantId}`)
    expect((await sandbox.admin.sandbox.listTenants()).data.map((tenant) => tenant.id)).toContain(tenantId)
    await sandbox.admin.sandbox.archiveTenant(tenantId)
  })

  it("runs as the connection's merchant on the developer's own sandbox, whose /health says it is neither shared nor replicated", async () => {
    const run = await runCliJson<ScenarioReport>(['scenario', 'run', scenarioFile(MAKES_A_MERCHANT)], merchantEnv(sandbox))
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.json.tenant).toBeUndefined()
    expect(run.json.merchant.id).toBe(sandbox.merchants[0]!.id)
  })

  it('refuses --keep on a run that makes no tenant, in one line', async () => {
    expectOneLineFailure(
      await runCli(['scenario', 'run', scenarioFile(MAKES_A_MERCHANT), '--keep'], merchantEnv(sandbox)),
      '--keep keeps the tenant of an isolated run, and this run is not one (add --isolated, or leave --keep out)',
    )
  })

  it("as a sourced tenant (PAYBOX_TENANT_ID): isolates by default, and with --no-isolated moves that tenant's own clock", async () => {
    const { merchant } = await sandbox.admin.sandbox.createTenant({ name: 'Sourced' })
    const env = isolatedEnv({
      PAYBOX_BASE_URL: sandbox.url,
      PAYBOX_API_KEY: merchant.apiKey,
      PAYBOX_API_SECRET: merchant.apiSecret,
      PAYBOX_ADMIN_TOKEN: sandbox.identity.adminToken,
      PAYBOX_TENANT_ID: merchant.id,
    })
    const file = scenarioFile(`name: Expires by its tenant's clock
steps:
  - id: payment
    createPayment: { amount: { value: 1000, currency: USD }, description: Sourced, expiresInHours: 1 }
  - advanceClock: { by: 61m }
  - expect: { payment: "\${steps.payment.id}", field: status, equals: expired }
`)
    const before = await sandbox.admin.sandbox.clock()
    // A shell acting as a tenant isolates its runs by default; without, the run is the tenant's own.
    const isolated = await runCliJson<ScenarioReport>(['scenario', 'run', file], env)
    expect(isolated.exitCode, isolated.stderr).toBe(0)
    expect(isolated.json.tenant?.id).not.toBe(merchant.id)
    const run = await runCliJson<ScenarioReport>(['scenario', 'run', file, '--no-isolated'], env)
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.json.merchant.id).toBe(merchant.id)
    expect(run.json.tenant).toBeUndefined()
    expect((await sandbox.admin.sandbox.clock()).advancedSeconds).toBe(before.advancedSeconds)
  })
})

describe('scenario runs in parallel on one shared sandbox', () => {
  let shared: SandboxProcess
  beforeAll(async () => {
    // The built-in receiver listens on 127.0.0.1, which a shared sandbox sends webhooks to only when allowed.
    shared = await spawnSandbox(['--port', '0', '--shared', '--quiet', '--ledger-close', 'instant', '--allow-webhook-to', '127.0.0.1'])
  }, 60_000)
  afterAll(() => shared?.stop())

  /** The CLI on the machine that started the shared sandbox: its state file says it is shared. */
  const onTheSandboxMachine = () => isolatedEnv({ PAYBOX_HOME: shared.home })
  const admin = () => new PayboxClient({ baseUrl: shared.banner.baseUrl, adminToken: shared.banner.adminToken })

  it('isolates by itself from another machine, which knows it is shared only from its /health; unless --no-isolated', async () => {
    const [merchant] = shared.banner.merchants
    // A CI runner elsewhere: no state file, only the URL and keys its job was given.
    const env = isolatedEnv({
      PAYBOX_BASE_URL: shared.banner.baseUrl,
      PAYBOX_API_KEY: merchant!.apiKey,
      PAYBOX_API_SECRET: merchant!.apiSecret,
      PAYBOX_ADMIN_TOKEN: shared.banner.adminToken,
    })
    const file = scenarioFile(MAKES_A_MERCHANT)
    const isolated = await runCliJson<ScenarioReport>(['scenario', 'run', file], env)
    expect(isolated.exitCode, isolated.stderr).toBe(0)
    expect(isolated.json.tenant?.id).toBe(isolated.json.merchant.id)
    const plain = await runCliJson<ScenarioReport>(['scenario', 'run', file, '--no-isolated'], env)
    expect(plain.exitCode, plain.stderr).toBe(0)
    expect(plain.json.tenant).toBeUndefined()
    expect(plain.json.merchant.id).toBe(merchant!.id)
  })

  it('two shipped scenarios that move time pass side by side, each in its own tenant and time', async () => {
    const files = ['expired.yaml', 'invoice-overdue.yaml'].map((name) => path.join(ROOT, 'scenarios', name))
    const before = await admin().sandbox.clock()
    const runs = await Promise.all(files.map((file) => runScenariosInParallel(file, [onTheSandboxMachine()]).then(([run]) => run!)))
    for (const run of runs) {
      const failures = run.report.steps.filter((step) => step.status !== 'passed').map((step) => `${step.name}: ${step.error}`)
      expect(failures, run.stderr).toEqual([])
      expect(run.exitCode).toBe(0)
      expect(run.report.tenant?.archivedAt).toBeTruthy()
    }
    const [expired, overdue] = runs.map((run) => run.report)
    expect(expired!.tenant!.id).not.toBe(overdue!.tenant!.id)
    // The sandbox's own time did not move: each moved its tenant's.
    expect((await admin().sandbox.clock()).advancedSeconds).toBe(before.advancedSeconds)
  }, 120_000)

  it('every shipped scenario passes on it and leaves it as it found it: its clock, its merchants, no tenant left', async () => {
    const files = fs
      .readdirSync(path.join(ROOT, 'scenarios'))
      .filter((name) => name.endsWith('.yaml'))
      .map((name) => path.join(ROOT, 'scenarios', name))
    expect(files.length).toBeGreaterThanOrEqual(15)
    const [clockBefore, merchantsBefore] = await Promise.all([admin().sandbox.clock(), admin().sandbox.merchants()])
    // Three at a time: the point is each one's result, not the machine's load.
    const runs: Array<{ file: string; run: Awaited<ReturnType<typeof runScenariosInParallel>>[number] }> = []
    for (let start = 0; start < files.length; start += 3) {
      const batch = files.slice(start, start + 3)
      const done = await Promise.all(batch.map((file) => runScenariosInParallel(file, [onTheSandboxMachine()]).then(([run]) => run!)))
      runs.push(...done.map((run, index) => ({ file: path.basename(batch[index]!), run })))
    }
    for (const { file, run } of runs) {
      const failures = run.report.steps.filter((step) => step.status !== 'passed').map((step) => `${step.name}: ${step.error}`)
      expect({ file, failures }, run.stderr).toEqual({ file, failures: [] })
      expect(run.report.tenant?.archivedAt, file).toBeTruthy()
    }
    const [clockAfter, merchantsAfter, tenants] = await Promise.all([
      admin().sandbox.clock(),
      admin().sandbox.merchants(),
      admin().sandbox.listTenants(),
    ])
    expect(clockAfter).toMatchObject({ advancedSeconds: clockBefore.advancedSeconds })
    expect(merchantsAfter.items.map((merchant) => merchant.id)).toEqual(merchantsBefore.items.map((merchant) => merchant.id))
    expect(tenants.data).toEqual([])
  }, 300_000)

  it('8 runs at once, each freezing and moving its own clock past an expiry: all green, none moved by another', async () => {
    const file = scenarioFile(OWN_TIME_SCENARIO)
    const before = await admin().sandbox.clock()
    const runs = await runScenariosInParallel(file, Array.from({ length: 8 }, onTheSandboxMachine))
    for (const run of runs) {
      const failures = run.report.steps.filter((step) => step.status !== 'passed').map((step) => `${step.name}: ${step.error}`)
      expect(failures, run.stderr).toEqual([])
      expect(run.exitCode).toBe(0)
      expect(clockMovedBy(run.report)).toBe(120 * 60_000)
    }
    expect(new Set(runs.map((run) => run.report.tenant?.id)).size).toBe(8)
    const after = await admin().sandbox.clock()
    expect(after.advancedSeconds).toBe(before.advancedSeconds)
    expect(after.frozenAt).toBeUndefined()
  }, 180_000)
})
