// The due-work sweeps find what is due by each merchant's own time in one query per kind of work,
// however many tenants there are: with 1,000 tenants, a sweep sends the same statements as with
// none. Counted at kysely's executor, so SQLite and PostgreSQL are counted alike.
import { DefaultQueryExecutor, type CompiledQuery } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

const START = Date.UTC(2026, 10, 21, 12, 0, 0)
const TENANTS = 1_000
const iso = (ms: number) => new Date(ms).toISOString()

/**
 * The sweep queries (each reads the active merchants joined with a table: a cross join, or on
 * PostgreSQL a lateral join for payments, each merchant's from its index) sent while `work` runs;
 * not the webhook claims' (PostgreSQL), which read merchants so too, each time a commit wakes them.
 */
async function sweepQueriesDuring(work: () => Promise<unknown>): Promise<string[]> {
  const base = Object.getPrototypeOf(DefaultQueryExecutor.prototype) as { executeQuery(query: CompiledQuery): Promise<unknown> }
  const execute = base.executeQuery
  const seen: string[] = []
  base.executeQuery = function (this: unknown, query: CompiledQuery) {
    if (/cross join|join lateral/i.test(query.sql) && !/webhook_deliveries/.test(query.sql)) seen.push(query.sql)
    return execute.call(this, query)
  }
  try {
    await work()
  } finally {
    base.executeQuery = execute
  }
  return seen
}

describe(`due-work sweeps with ${TENANTS} tenants`, () => {
  let sandbox: TestSandbox
  const tenants: Array<{ id: string; client: PayboxClient; payment: string }> = []

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock: new ManualClock(START), dueWorkIntervalMs: 0 })
    // Each tenant frozen at the sandbox's time, with one payment due 30 minutes later.
    for (let at = 0; at < TENANTS; at += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, TENANTS - at) }, async () => {
          const { merchant } = await sandbox.admin.sandbox.createTenant({ frozenAt: iso(START) })
          const client = new PayboxClient({ baseUrl: sandbox.url, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret })
          const payment = await client.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Due' })
          return { id: merchant.id, client, payment: payment.id }
        }),
      )
      tenants.push(...batch)
    }
  }, 180_000)
  afterAll(() => sandbox?.stop())

  it('sends one query per kind of due work when nothing is due', async () => {
    const queries = await sweepQueriesDuring(() => sandbox.admin.sandbox.advanceClock({ seconds: 60 }))
    // Payments, invoices, escrow orders, quotes: one each, whatever the number of tenants.
    expect(queries).toHaveLength(4)
  })

  it("expires one tenant's payment when its clock passes the expiry, with a fixed number of queries; the others stay open", async () => {
    const [first, second] = tenants
    let advanced: Awaited<ReturnType<PayboxClient['sandbox']['advanceMerchantClock']>> | undefined
    const queries = await sweepQueriesDuring(async () => {
      advanced = await sandbox.admin.sandbox.advanceMerchantClock(first!.id, { seconds: 31 * 60 })
    })
    expect(advanced!.processed.expiredPayments).toBe(1)
    // The payments sweep looks again in its transaction (where the executor counts it), the other kinds once.
    expect(queries.length).toBeGreaterThanOrEqual(4)
    expect(queries.length).toBeLessThanOrEqual(5)
    // Four kinds: the look again in a transaction claims its rows (PostgreSQL's SKIP LOCKED) but is the same query.
    expect(new Set(queries.map((text) => text.replace(/ for update of \S+ skip locked/i, ''))).size).toBe(4)
    expect((await first!.client.payments.get(first!.payment)).status).toBe('expired')
    expect((await second!.client.payments.get(second!.payment)).status).toBe('open')
  })

  it('fits the default limit of 1,000 tenants exactly', async () => {
    expect((await sandbox.admin.sandbox.listTenants()).data).toHaveLength(TENANTS)
  })
})
