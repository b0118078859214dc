// On PostgreSQL too, the queries behind the busiest requests and the due-work sweep find their
// rows through an index. The SQL and values are what the sandbox sends while serving them
// (captured at pg's Client.query, named or not); EXPLAIN judges each with sequential scans disabled, so a
// sequential scan left in a plan means no index can serve the query (a tiny table alone would
// otherwise be scanned by choice). Each is judged by its generic plan, the one the sandbox's
// sessions run (SESSION_OPTIONS): a partial index chosen by a parameter's value would not serve it.
import { sql } from 'kysely'
import pg from 'pg'
import { expect, it } from 'vitest'
import { LARGE_TABLES, readsALargeTable, runBusyQueries } from '../../harness/busy-queries.js'
import { queriesSentBy } from '../../harness/postgres-statements.js'
import { sandboxForSuite } from '../../harness/sandbox.js'
import { processDueWork } from '../../sandbox/simulation/clock-service.js'
import { SESSION_OPTIONS } from '../../sandbox/db/postgres-database.js'

const sandbox = sandboxForSuite({ dueWorkIntervalMs: 0 })

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  Plans?: PlanNode[]
}

/** A client whose sessions plan as the sandbox's do. */
async function plannerClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: sandbox.dbFile, options: SESSION_OPTIONS })
  await client.connect()
  return client
}

let prepared = 0
/** The plan the sandbox's sessions run `text` with: its generic plan, whatever the values (EXECUTE is given nulls). */
async function sessionPlan(client: pg.Client, text: string, values: readonly unknown[]): Promise<PlanNode> {
  const name = `judged_${++prepared}`
  await client.query(`prepare ${name} as ${text}`)
  const args = values.length === 0 ? '' : `(${values.map(() => 'null').join(', ')})`
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`explain (format json) execute ${name}${args}`)
  return rows[0]!['QUERY PLAN'][0]!.Plan
}

const seqScansOf = (node: PlanNode): string[] => [
  ...(node['Node Type'] === 'Seq Scan' && LARGE_TABLES.includes(node['Relation Name'] ?? '') ? [node['Relation Name']!] : []),
  ...(node.Plans ?? []).flatMap(seqScansOf),
]

it('serves payment reads, every list filter, settlement, the fee tier, webhook and invoice lists and the due-work sweep through indexes', async () => {
  const sent = new Map<string, unknown[]>()
  for (const { text, values } of await queriesSentBy(() => runBusyQueries(sandbox)))
    if (readsALargeTable(text) && !sent.has(text)) sent.set(text, values)

  const client = await plannerClient()
  const scans: string[] = []
  try {
    await client.query('set enable_seqscan = off')
    for (const [text, values] of sent) {
      for (const table of seqScansOf(await sessionPlan(client, text, values))) scans.push(`Seq Scan on ${table} in: ${text}`)
    }
  } finally {
    await client.end()
  }
  expect(scans).toEqual([])
  // The capture saw the queries it is meant to judge: the page and count of each list, the reads, the sweep.
  expect(sent.size).toBeGreaterThanOrEqual(12)
})

it('sweeps expired payments from the expiry index however many payments are open, not by scanning them all', async () => {
  const payment = await sandbox.direct.payments.create({ amount: { value: 1600, currency: 'USD' }, description: 'Open for long' })
  const client = await plannerClient()
  try {
    // 20,000 more open payments, none due; statistics that know it, as a busy sandbox's would.
    await client.query(
      `insert into payments select (jsonb_populate_record(p, jsonb_build_object('id', 'pt_open_' || i, 'memo', 'memo-open-' || i, 'short_code', 'open' || i))).*
         from payments p cross join generate_series(1, 20000) i where p.id = $1`,
      [payment.id],
    )
    await client.query('analyze payments')
    const sent = (await queriesSentBy(() => processDueWork(sandbox.context))).filter(
      ({ text }) => /\bexpires_at\b/.test(text) && /\bpayments\b/.test(text),
    )
    expect(sent.length).toBeGreaterThan(0)
    for (const { text, values } of sent) expect(seqScansOf(await sessionPlan(client, text, values)), text).toEqual([])
  } finally {
    await client.end()
  }
})

it("compiles no statement with JIT and plans each named statement once: the sandbox's sessions' settings", async () => {
  // PostgreSQL's default (jit = on, with jit_above_cost 100,000) compiled every statement whose
  // estimate ran high, a webhook claim's read among them, for longer than it ran; and planned a
  // statement with a LIMIT again at every run.
  const { rows } = await sql<{ jit: string; plans: string }>`select current_setting('jit') as jit,
    current_setting('plan_cache_mode') as plans`.execute(sandbox.context.db)
  expect(rows).toEqual([{ jit: 'off', plans: 'force_generic_plan' }])
})
