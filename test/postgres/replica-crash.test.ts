// Crash safety across replicas (issue 17): two sandbox processes on one PostgreSQL database take
// concurrent writes; one is killed with SIGKILL mid-load while the other keeps acknowledging
// every write sent to it (and takes over the webhooks when the killed one led), then the killed
// one restarts and joins again. Nothing acknowledged by either is lost, keys replay, invoice
// numbers stay gapless, money is conserved, and every delivery arrives (harness/crash-run.ts).
import { afterAll, describe, expect, it } from 'vitest'
import { runCrashRounds } from '../../harness/crash-run.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'

const ROUNDS = 2

describe('crash safety with two replicas on PostgreSQL', () => {
  const teardown = new AbortController()
  let database: TestDatabase | undefined
  afterAll(async () => {
    teardown.abort(new Error('the test file ended'))
    await database?.drop()
  })

  it(`keeps every write either replica acknowledged through ${ROUNDS} SIGKILLs of one of them`, async () => {
    database = await createTestDatabase('paybox_crash')
    const report = await runCrashRounds({ rounds: ROUNDS, database: database.url, replicas: 2, signal: teardown.signal })
    expect(report.violations).toEqual([])
    expect(report.roundsRun).toBe(ROUNDS)
    expect(report.inFlightAtKills).toBeGreaterThan(0)
    expect(report.deliveries).toBeGreaterThan(0)
    expect(report.acknowledged.payments + report.acknowledged.invoices).toBeGreaterThan(ROUNDS * 40)
  }, 180_000)
})
