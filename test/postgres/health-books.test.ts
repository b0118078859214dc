// GET /health checks the ledger's books (XLM in accounts plus fees = total coins) as of one
// moment: on PostgreSQL, commits of other replicas land between any two reads of a READ COMMITTED
// caller, and a check that read the open ledger before one and the accounts after it would call
// sound books broken (503). The commits here are the test's own, on a connection of its own, so
// that the books are sound at every commit whatever the ledger's code does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

/** Commits made while /health is asked again and again. */
const COMMITS = 400

describe('the health check of the ledger while another replica commits', () => {
  let database: TestDatabase
  let sandbox: TestSandbox
  let writer: pg.Client

  beforeAll(async () => {
    database = await createTestDatabase('paybox_health_books')
    sandbox = await startTestSandbox({ db: database.url, dueWorkIntervalMs: 0 })
    writer = new pg.Client({ connectionString: database.url })
    await writer.connect()
  }, 60_000)
  afterAll(async () => {
    await writer?.end()
    await sandbox?.stop()
    await database?.drop()
  })

  it('finds the books sound at every look, whatever commits between its reads', async () => {
    const { rows } = await writer.query<{ account: string }>(`select account_id as account from merchants where id = $1`, [
      sandbox.merchants[0]!.id,
    ])
    const account = rows[0]!.account
    let writing = true
    // Each commit moves 1 XLM stroop from an account into the fee pool: the books stay sound at every commit.
    const commits = (async () => {
      for (let i = 0; i < COMMITS; i++) {
        await writer.query('begin')
        await writer.query(`update ledger_accounts set xlm_balance = xlm_balance - 1 where public_key = $1`, [account])
        await writer.query(`update ledger_ledgers set fee_pool = (fee_pool::numeric + 1)::text where closed_at is null`)
        await writer.query('commit')
      }
      writing = false
    })()
    const failing: string[] = []
    let looks = 0
    while (writing) {
      const response = await fetch(`${sandbox.url}/health`)
      looks++
      if (response.status !== 200) failing.push(await response.text())
    }
    await commits
    expect(looks).toBeGreaterThan(10)
    expect(failing.slice(0, 3)).toEqual([])
  }, 60_000)
})
