// Sweeps by each merchant's own clock (docs/clocks.md): the idle due-work sweep (what the
// sandbox runs every second) with the tenants beside the same sandbox before they existed, and
// the sweep that expires every tenant's due payments beside the same number of due payments of
// one merchant on the sandbox-wide clock (the control), in one sandbox and run.
import path from 'node:path'
import { ManualClock } from '../../sandbox/clock.js'
import { startSandbox } from '../../sandbox/server.js'
import { processDueWork } from '../../sandbox/simulation/clock-service.js'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { figure, median, type Figure } from '../lib/figures.js'
import { temporaryDir } from '../lib/processes.js'
import type { BenchSettings } from '../lib/settings.js'

const START = Date.UTC(2030, 0, 1, 12, 0, 0)
const CONNECTIONS = 8
const IDLE_SWEEPS = 21
const PAST_EXPIRY_MS = 31 * 60_000

async function inParallel(count: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < count) await work(next++)
    }),
  )
}

export async function tenantFigures(settings: BenchSettings, log: (line: string) => void): Promise<Figure[]> {
  const { sweepTenants: tenants, duePerTenant } = settings
  const clock = new ManualClock(START)
  const sandbox = await startSandbox({
    port: 0,
    db: path.join(temporaryDir('paybox-bench-tenants-'), 'sandbox.db'),
    log: () => {},
    ledgerClose: 'instant',
    dueWorkIntervalMs: 0,
    clock,
  })
  try {
    const ctx = sandbox.context
    const idleSweeps = async () => {
      const times: number[] = []
      for (let i = 0; i < IDLE_SWEEPS; i++) {
        const started = performance.now()
        await processDueWork(ctx)
        times.push(performance.now() - started)
      }
      return median(times)
    }
    const idleControl = await idleSweeps()

    const admin = new PayboxClient({ baseUrl: sandbox.url, adminToken: sandbox.identity.adminToken })
    const created = performance.now()
    const payment = { amount: { value: 100, currency: 'USD' }, description: 'Due' }
    await inParallel(tenants, async () => {
      const { merchant } = await admin.sandbox.createTenant({ frozenAt: new Date(START).toISOString() })
      const client = new PayboxClient({ baseUrl: sandbox.url, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret })
      for (let i = 0; i < duePerTenant; i++) await client.payments.create(payment)
    })
    const [own] = sandbox.merchants
    const control = new PayboxClient({ baseUrl: sandbox.url, apiKey: own!.apiKey, apiSecret: own!.apiSecret })
    await inParallel(tenants * duePerTenant, () => control.payments.create(payment))
    const due = (tenants * duePerTenant).toLocaleString('en-US')
    log(`  ${tenants} tenants and ${due} payments each side in ${((performance.now() - created) / 1000).toFixed(1)} s`)
    const idle = await idleSweeps()

    // Every tenant's clock past the expiry at once (in SQL: the bench times the sweep, not 1,000 advances).
    await ctx.db.updateTable('merchants').set({ clock_frozen_at: START + PAST_EXPIRY_MS }).where('tenant', '=', 1).execute()
    let started = performance.now()
    const swept = await processDueWork(ctx)
    const sweep = performance.now() - started
    clock.advance(PAST_EXPIRY_MS)
    started = performance.now()
    const sweptControl = await processDueWork(ctx)
    const sweepControl = performance.now() - started
    if (swept.expiredPayments !== tenants * duePerTenant || sweptControl.expiredPayments !== tenants * duePerTenant)
      throw new Error(`Expired ${swept.expiredPayments} and ${sweptControl.expiredPayments} payments, not ${due} each`)
    log(`  idle sweep ${idle.toFixed(2)} ms (control ${idleControl.toFixed(2)} ms); expiry sweep ${sweep.toFixed(0)} ms (control ${sweepControl.toFixed(0)} ms)`)
    return [
      figure('tenants', `idle due-work sweep, ${tenants.toLocaleString('en-US')} tenants with ${due} open payments`, idle, 'ms', {
        control: { name: 'same sandbox before the tenants', value: idleControl },
        note: `median of ${IDLE_SWEEPS}; one query per kind of due work, however many tenants`,
      }),
      figure('tenants', `expiry sweep, ${tenants.toLocaleString('en-US')} tenants × ${duePerTenant} due payments on their own clocks`, sweep, 'ms', {
        control: { name: `${due} due payments of one merchant on the sandbox-wide clock`, value: sweepControl },
        note: 'each payment expired, its event queued, in batches of 200 a transaction',
      }),
    ]
  } finally {
    await sandbox.stop()
  }
}
