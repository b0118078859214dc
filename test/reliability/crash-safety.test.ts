// Crash safety (issue 9): a real sandbox process on a database file takes concurrent writes
// (payments with idempotency keys and webhooks, invoices, ledger payments) and is killed with
// SIGKILL after a seeded number of acknowledgements, with requests still in flight; then it is
// restarted on the same file. Three rounds on one file. Whatever was acknowledged must be there,
// idempotency keys must replay, invoice numbers stay gapless, the ledger conserves money, and
// webhook deliveries left pending by the crash are delivered after the restart. The rounds live in
// crash-run.ts, which the bench runs with more of them.
import { afterAll, describe, expect, it } from 'vitest'
import { startTestSandbox } from '../../harness/sandbox.js'
import { CI_ROUNDS, CRASH_SEED, runCrashRounds, verifyAcknowledged, type Acknowledged } from '../../harness/crash-run.js'
import { signed } from '../../harness/sandbox-checks.js'

describe('crash safety: SIGKILL at a seeded moment loses nothing acknowledged', () => {
  // A run cut off by the test's timeout kills its sandbox processes when aborted.
  const teardown = new AbortController()
  afterAll(() => teardown.abort(new Error('the test file ended')))

  it(`keeps every acknowledged write through ${CI_ROUNDS} SIGKILLs, and delivers the webhooks the crash left pending`, async () => {
    const report = await runCrashRounds({ rounds: CI_ROUNDS, seed: CRASH_SEED, signal: teardown.signal })
    expect(report.violations).toEqual([])
    expect(report.roundsRun).toBe(CI_ROUNDS)
    expect(report.deliveries).toBeGreaterThan(0)

    // The test proves something only if the kills cut requests off and left deliveries pending.
    expect(report.inFlightAtKills).toBeGreaterThan(0)
    expect(report.pendingAtCrashes).toBeGreaterThan(0)
    expect(report.acknowledged.payments + report.acknowledged.invoices).toBeGreaterThan(CI_ROUNDS * 20)
  }, 120_000)

  it('reports acknowledged writes that are missing or changed, duplicate keys and numbering gaps', async () => {
    const sandbox = await startTestSandbox()
    try {
      const merchant = sandbox.merchants.find((m) => m.settlement_mode === 'direct')!
      const payment = (key: string) => ({ amount: { value: 500, currency: 'USD' }, description: key, metadata: { key } })
      const made = await signed(sandbox.url, merchant, 'POST', '/payments', payment('kept'), { 'idempotency-key': 'kept' })
      const id = (made.json as { id: string }).id
      // Two payments carrying one key (each its own idempotency key): what a lost key would leave.
      await signed(sandbox.url, merchant, 'POST', '/payments', payment('twice'), { 'idempotency-key': 'twice-1' })
      await signed(sandbox.url, merchant, 'POST', '/payments', payment('twice'), { 'idempotency-key': 'twice-2' })
      await signed(sandbox.url, merchant, 'POST', '/invoices/settings', { next_number: 3 })
      const invoice = {
        currency: 'EUR',
        line_items: [{ description: 'Item', quantity: 1, unit_price: 100 }],
        customer: { email: 'c@example.com' },
      }
      expect((await signed(sandbox.url, merchant, 'POST', '/invoices', invoice)).status).toBe(200)

      const acked: Acknowledged = {
        payments: new Map([['kept', { body: payment('kept'), response: made.text.replace('"kept"', '"changed"'), id }]]),
        unacknowledgedKeys: new Map([['cut-off', payment('cut-off')]]),
        invoices: new Map([['inv_lost', 'INV-0001']]),
        paid: new Set([id]),
      }
      expect(await verifyAcknowledged(sandbox.url, merchant, acked)).toEqual([
        expect.stringMatching(/^replay of kept: body: expected ".+", got ".+"$/),
        'paid payment ' + id + ': expected "paid", got "open"',
        'payments made with key twice: expected 1, got 2',
        'invoice numbering: position 1 holds INV-3',
        'invoice inv_lost: expected "INV-0001", got undefined',
      ])
      // The retried key now counts as acknowledged, with its one payment.
      expect(acked.unacknowledgedKeys.size).toBe(0)
      expect(acked.payments.get('cut-off')?.id).toMatch(/^pt_/)
    } finally {
      await sandbox.stop()
    }
  })
})
