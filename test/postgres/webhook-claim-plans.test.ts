// A webhook claim's reads stay cheap while the outbox's statistics lag a burst: a backlog queued
// in one transaction is claimed at once, long before autovacuum's ANALYZE counts its rows, and a
// plan chosen for the table as it was (a few rows) must not scan the whole backlog per delivery.
// The SQL and values are what claimDeliveries sends (captured at pg's Client.query); EXPLAIN
// (ANALYZE, BUFFERS) of each of its reads counts the pages it touched.
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openDatabase, type SandboxDb } from '../../sandbox/db/database.js'
import { claimDeliveries, refreshStaleOutboxStatistics, type ClaimRequest } from '../../sandbox/webhooks/delivery-claim-repository.js'
import { copyMerchant, maintenanceCount, type TestDatabase } from '../../harness/postgres.js'
import { createSandboxDatabase } from '../../harness/sandbox-database.js'
import { queriesSentBy } from '../../harness/postgres-statements.js'
import { waitFor } from '../../harness/wait.js'

const BACKLOG = 10_000
const MERCHANTS = 10

let database: TestDatabase
let db: SandboxDb
let merchants: string[]

beforeAll(async () => {
  const made = await createSandboxDatabase('paybox_claim_plans')
  database = made.database
  const template = made.merchantIds[0]!
  merchants = await copyMerchant(database.url, template, MERCHANTS - 1)
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    const queue = (count: number, status: string, prefix: string) =>
      client.query(
        `insert into webhook_deliveries (id, merchant_id, subject_type, subject_id, event_type, url, status, request_payload, attempt_count, created_at, updated_at)
          select gen_random_uuid()::text, ($2::text[])[1 + i % $3], 'payment', $5 || i, 'transaction_updated',
            'http://127.0.0.1:9/' || (i % $3), $4, '{}', 1, 0, 0
          from generate_series(1, $1::int) i`,
        [count, merchants, MERCHANTS, status, prefix],
      )
    // An outbox whose pending index has room from an earlier, larger backlog, logged since, so the
    // next backlog does not double it on disk; and statistics of an outbox that held only logged
    // deliveries, more of them than the next backlog (a sandbox's history), counting every change
    // before them (the session's counts flushed first), kept as they are while that backlog lands.
    await queue(2 * BACKLOG, 'pending', 'pt_earlier_')
    await client.query(`update webhook_deliveries set status = 'success' where subject_id like 'pt_earlier_%'`)
    await client.query('vacuum webhook_deliveries')
    await queue(300, 'success', 'pt_logged_')
    await client.query('select pg_stat_force_next_flush()')
    await client.query('analyze webhook_deliveries')
    await client.query('alter table webhook_deliveries set (autovacuum_enabled = false)')
    await queue(BACKLOG, 'pending', 'pt_backlog_')
  } finally {
    await client.end()
  }
  db = await openDatabase({ file: database.url })
}, 60_000)

afterAll(async () => {
  await db?.destroy()
  await database?.drop()
})

const request = (by: string, limit = 64): ClaimRequest => ({
  by,
  now: Date.now(),
  leaseMs: 15_000,
  limit,
  caps: { perMerchant: 10, perOrigin: 10, originOf: (url) => new URL(url).pathname },
})

/** The statements (not the locks) a claim sends that touch the outbox, with their values; the statistics refreshed first unless told. */
async function statementsOfAClaim(by: string, refreshFirst = true): Promise<Array<{ text: string; values: unknown[] }>> {
  const sent = await queriesSentBy(async () => {
    if (refreshFirst) await refreshStaleOutboxStatistics(db)
    return claimDeliveries(db, request(by))
  })
  return sent.filter(({ text }) => /^\s*(with|select)\b/i.test(text) && /webhook_deliveries/.test(text))
}

/** The pages each statement touched, run again under EXPLAIN (ANALYZE, BUFFERS) on a connection of its own. */
async function pagesOf(statements: Array<{ text: string; values: unknown[] }>): Promise<Array<{ text: string; pages: number }>> {
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  const pages: Array<{ text: string; pages: number }> = []
  try {
    for (const { text, values } of statements) {
      const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }> }>(
        `explain (analyze, buffers, format json) ${text}`,
        values,
      )
      const plan = rows[0]!['QUERY PLAN'][0]!.Plan
      pages.push({ text: text.replace(/\s+/g, ' ').slice(0, 80), pages: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'] })
    }
  } finally {
    await client.end()
  }
  return pages
}

// First: the statistics are still those from before the backlog, every pending index estimated empty.
it("claims from a backlog the statistics have not counted yet by the deliveries' ids and subjects, not through the pending index", async () => {
  const statements = await statementsOfAClaim('replica-early', false)
  const claims = statements.filter(({ text }) => /^\s*with taken\b/i.test(text))
  expect(claims).toHaveLength(1)
  // 64 candidates, each found by its id and its subject checked for older pending deliveries: a
  // few pages each, where one walk of the pending index per candidate touches 100,000 and more.
  const [claim] = await pagesOf(claims)
  expect(claim!.pages).toBeLessThan(5_000)
  // Its claims released, so the next tests find every share free.
  await sql`delete from webhook_live_claims`.execute(db)
})

it('analyzes an outbox once a backlog lands on statistics that counted none pending, however long its history', async () => {
  const before = await maintenanceCount(database.url, 'analyze', 'webhook_deliveries')
  await refreshStaleOutboxStatistics(db)
  await waitFor(
    'an ANALYZE of the outbox',
    async () => (await maintenanceCount(database.url, 'analyze', 'webhook_deliveries')) > before,
    5_000,
  )
})

it('reads a few pages per claim of a backlog whose statistics lag, with other claims live', async () => {
  // One claimer's deliveries on the wire, then another's claim: the one every claim mid-drain makes.
  await refreshStaleOutboxStatistics(db)
  expect((await claimDeliveries(db, request('replica-a', 30))).claimed).toHaveLength(30)
  const reads = await statementsOfAClaim('replica-b')
  expect(reads.length).toBeGreaterThanOrEqual(2)
  const pages = await pagesOf(reads)
  // A claim of 64 probes each merchant's head and each candidate's subject: hundreds of pages,
  // where a plan that reads the backlog per candidate touches millions.
  expect(pages.filter((read) => read.pages > 5_000)).toEqual([])
}, 120_000)
