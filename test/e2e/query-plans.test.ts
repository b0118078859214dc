// The queries behind the busiest requests and the background due-work find their rows through
// an index: none reads a whole large table. The SQL is what the sandbox itself prepares while
// serving them (captured at the driver's prepare), and SQLite's EXPLAIN QUERY PLAN judges it.
import { expect, it, onTestFinished } from 'vitest'
import { sqliteHandleOf } from '../../sandbox/db/database.js'
import { LARGE_TABLES, readsALargeTable, runBusyQueries } from '../../harness/busy-queries.js'
import { sandboxForSuite, startTestSandbox } from '../../harness/sandbox.js'

/** A plan step reading a whole table: "SCAN t", not "SCAN t USING [COVERING] INDEX i" (an index range or walk). */
const FULL_SCAN = new RegExp(`^SCAN (${LARGE_TABLES.join('|')})$`)

const sandbox = sandboxForSuite({ dueWorkIntervalMs: 0 })

type SqliteHandle = ReturnType<typeof sqliteHandleOf>

/** The SQL the sandbox prepares while `work` runs (statements are prepared once per connection). */
async function preparedDuring(handle: SqliteHandle, work: () => Promise<unknown>): Promise<string[]> {
  const prepared: string[] = []
  const prepare = handle.prepare.bind(handle)
  handle.prepare = ((source: string) => {
    prepared.push(source)
    return prepare(source)
  }) as typeof handle.prepare
  try {
    await work()
  } finally {
    handle.prepare = prepare
  }
  return prepared
}

/** SQLite's plan of a statement, a detail per step (every parameter null). */
function planOf(handle: SqliteHandle, source: string): string[] {
  const parameters = (source.match(/\?/g) ?? []).map(() => null)
  return (handle.prepare(`explain query plan ${source}`).all(parameters) as Array<{ detail: string }>).map((step) => step.detail)
}

it('serves payment reads, every list filter, settlement, the fee tier, webhook and invoice lists and the due-work sweep without a full table scan', async () => {
  const handle = sqliteHandleOf(sandbox.context.db)
  const prepared = await preparedDuring(handle, () => runBusyQueries(sandbox))

  const judged = [...new Set(prepared)].filter(readsALargeTable)
  const scans: string[] = []
  for (const source of judged) {
    for (const detail of planOf(handle, source)) if (FULL_SCAN.test(detail)) scans.push(`${detail} in: ${source}`)
  }
  expect(scans).toEqual([])
  // The capture saw the queries it is meant to judge: the page and count of each list, the reads, the sweep.
  expect(judged.length).toBeGreaterThanOrEqual(12)
})

it("finds a payment's webhook log entries through the subject index, not by walking the merchant's whole log", async () => {
  // Its own sandbox: statements are prepared once per connection, and the first test's prepared these.
  const fresh = await startTestSandbox({ dueWorkIntervalMs: 0 })
  onTestFinished(() => fresh.stop())
  const handle = sqliteHandleOf(fresh.context.db)
  const prepared = await preparedDuring(handle, () => fresh.direct.webhooks.list({ checkout_id: 'pt_none' }))
  const filtered = prepared.filter((source) => source.includes('"subject_id" = ?'))
  expect(filtered.length).toBeGreaterThanOrEqual(2) // the page and its count
  for (const source of filtered) {
    expect(planOf(handle, source).join('; ')).toMatch(/USING (COVERING )?INDEX webhook_deliveries_by_subject/)
  }
})
