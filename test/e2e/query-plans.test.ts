// The queries behind the busiest requests and the background due-work find their rows through
// an index: none reads a whole large table. The SQL is what the sandbox itself prepares while
// serving them (captured at the driver's prepare), and SQLite's EXPLAIN QUERY PLAN judges it.
import { expect, it } from 'vitest'
import { sqliteHandleOf } from '../../sandbox/db/database.js'
import { processDueWork } from '../../sandbox/simulation/clock-service.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

/** Tables that grow with use; a full scan of one is a bench figure waiting to collapse. */
const LARGE_TABLES = [
  'payments',
  'payment_events',
  'webhook_deliveries',
  'invoices',
  'refunds',
  'idempotency_keys',
  'ledger_transactions',
  'ledger_operations',
]
const NAMES_A_LARGE_TABLE = new RegExp(`\\b(${LARGE_TABLES.join('|')})\\b`)
/** A plan step reading a whole table: "SCAN t", not "SCAN t USING [COVERING] INDEX i" (an index range or walk). */
const FULL_SCAN = new RegExp(`^SCAN (${LARGE_TABLES.join('|')})$`)

const sandbox = sandboxForSuite({ dueWorkIntervalMs: 0 })

it('serves payment reads, every list filter, settlement, the fee tier, webhook and invoice lists and the due-work sweep without a full table scan', async () => {
  const handle = sqliteHandleOf(sandbox.context.db)
  const prepared: string[] = []
  const prepare = handle.prepare.bind(handle)
  handle.prepare = ((source: string) => {
    prepared.push(source)
    return prepare(source)
  }) as typeof handle.prepare
  try {
    const client = sandbox.direct
    const payment = await client.payments.create({ amount: { value: 1500, currency: 'USD' }, description: 'Planned', storeId: 'store-1' })
    await client.payments.get(payment.id)
    const day = { startDate: '2026-01-01T00:00:00Z', endDate: '2026-01-08T00:00:00Z' }
    for (const query of [
      {},
      { status: 'open' },
      { storeId: 'store-1' },
      day,
      { status: 'open', ...day },
      { storeId: 'store-1', startDate: day.startDate },
      { page: 50 },
    ]) {
      await client.payments.list({ limit: 20, ...query })
    }
    // Paying settles it (ledgers close per transaction here): the settlement lookup; then the fee tier's settled volume.
    await client.sandbox.pay(payment.id)
    await client.merchant.feeTier()
    await client.webhooks.list({ checkout_id: payment.id })
    await client.invoices.list()
    await processDueWork(sandbox.context)
  } finally {
    handle.prepare = prepare
  }

  const judged = [...new Set(prepared)].filter((source) => /^\s*select\b/i.test(source) && NAMES_A_LARGE_TABLE.test(source))
  const scans: string[] = []
  for (const source of judged) {
    const parameters = (source.match(/\?/g) ?? []).map(() => null)
    const plan = handle.prepare(`explain query plan ${source}`).all(parameters) as Array<{ detail: string }>
    for (const { detail } of plan) if (FULL_SCAN.test(detail)) scans.push(`${detail} in: ${source}`)
  }
  expect(scans).toEqual([])
  // The capture saw the queries it is meant to judge: the page and count of each list, the reads, the sweep.
  expect(judged.length).toBeGreaterThanOrEqual(12)
})
