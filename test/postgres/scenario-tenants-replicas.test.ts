// Issue 30 on two replicas of one PostgreSQL sandbox: 8 scenario runs spread over both, each in a
// tenant of its own (a replica is never the developer's own sandbox), freezing and moving its own
// clock past an expiry; all pass, and no run's payment expires by another's clock, whichever
// replica served it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { isolatedEnv } from '../../harness/cli.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { clockMovedBy, OWN_TIME_SCENARIO, runScenariosInParallel, scenarioFile } from '../../harness/scenario-runs.js'

describe('scenario runs in parallel on two replicas', () => {
  let database: TestDatabase
  let a: SandboxProcess
  let b: SandboxProcess

  beforeAll(async () => {
    database = await createTestDatabase('paybox_tenant_runs')
    a = await spawnSandbox(['--port', '0', '--db', database.url, '--quiet', '--ledger-close', 'instant'])
    b = await spawnSandbox(['--port', '0', '--db', database.url, '--quiet', '--ledger-close', 'instant'])
  }, 60_000)
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await database?.drop()
  })

  it('8 runs over both replicas, each freezing and moving its own clock: all green, none moved by another', async () => {
    const file = scenarioFile(OWN_TIME_SCENARIO)
    const admin = new PayboxClient({ baseUrl: a.banner.baseUrl, adminToken: a.banner.adminToken })
    const before = await admin.sandbox.clock()
    // Each run is the CLI on its replica's machine: the state file there says it runs on PostgreSQL.
    const envs = Array.from({ length: 8 }, (_, i) => isolatedEnv({ PAYBOX_HOME: (i % 2 === 0 ? a : b).home }))
    const runs = await runScenariosInParallel(file, envs)
    for (const run of runs) {
      const failures = run.report.steps.filter((step) => step.status !== 'passed').map((step) => `${step.name}: ${step.error}`)
      expect(failures, run.stderr).toEqual([])
      expect(run.exitCode).toBe(0)
      expect(run.report.tenant?.archivedAt).toBeTruthy()
      expect(clockMovedBy(run.report)).toBe(120 * 60_000)
    }
    expect(new Set(runs.map((run) => run.report.tenant?.id)).size).toBe(8)
    const after = await admin.sandbox.clock()
    expect(after.advancedSeconds).toBe(before.advancedSeconds)
    expect(after.frozenAt).toBeUndefined()
  }, 180_000)
})
