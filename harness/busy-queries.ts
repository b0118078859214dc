// The requests behind the busiest queries and the background due-work, for the query-plan tests
// of both backends: each checks that the SQL these make finds its rows through an index.
import { processDueWork } from '../sandbox/simulation/clock-service.js'
import type { TestSandbox } from './sandbox.js'

/** Tables that grow with use; a full scan of one is a bench figure waiting to collapse. */
export const LARGE_TABLES = [
  'payments',
  'payment_events',
  'webhook_deliveries',
  'invoices',
  'refunds',
  'idempotency_keys',
  'ledger_transactions',
  'ledger_operations',
]

/** Whether `sql` is a read that names a large table: what the plan tests judge. */
export const readsALargeTable = (sql: string): boolean =>
  /^\s*select\b/i.test(sql) && new RegExp(`\\b(${LARGE_TABLES.join('|')})\\b`).test(sql)

/** Payment reads, every list filter, settlement, the fee tier, webhook and invoice lists, the next invoice number, the due-work sweep and the dashboard's Overview. */
export async function runBusyQueries(sandbox: TestSandbox): Promise<void> {
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
  await client.invoices.settings()
  await processDueWork(sandbox.context)
  // The dashboard's Overview, signed in as admin: its figures read the kept counts and a range of the deliveries index.
  const signIn = await fetch((await sandbox.admin.sandbox.dashboardLink()).url, { redirect: 'manual' })
  const cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  const overview = await fetch(`${sandbox.url}/dashboard/overview`, { headers: { cookie } })
  if (overview.status !== 200) throw new Error(`GET /dashboard/overview answered ${overview.status}`)
}
