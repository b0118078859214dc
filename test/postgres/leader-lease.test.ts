// One leader for a shared sandbox (issue 17): of the processes on one PostgreSQL database, one
// holds the leader lease and runs the sandbox-wide timers (ledger closes, due-work sweeps, webhook
// sending); when its connection ends, another takes the lease within seconds.
import { afterAll, describe, expect, it } from 'vitest'
import { isLeader, openDatabase, type SandboxDb } from '../../sandbox/db/database.js'
import { LEADER_RETRY_MS } from '../../sandbox/db/postgres-database.js'
import { LOCK_KEYS } from '../../sandbox/db/postgres-lock-keys.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { waitFor } from '../../harness/wait.js'

describe('the leader lease', () => {
  let database: TestDatabase
  const opened: SandboxDb[] = []
  afterAll(async () => {
    for (const db of opened) await db.destroy().catch(() => {})
    await database?.drop()
  })

  it('is held by exactly one process at a time, and passes on when the leader goes', async () => {
    database = await createTestDatabase('paybox_lease')
    const first = await openDatabase({ file: database.url })
    opened.push(first)
    const second = await openDatabase({ file: database.url })
    opened.push(second)
    const third = await openDatabase({ file: database.url })
    opened.push(third)
    expect([first, second, third].map(isLeader)).toEqual([true, false, false])

    await first.destroy()
    const next = await waitFor(
      'another process to lead',
      () => {
        const leaders = [second, third].filter(isLeader)
        return leaders.length > 0 ? leaders : undefined
      },
      3 * LEADER_RETRY_MS + 2_000,
    )
    expect(next).toHaveLength(1)
    // PostgreSQL's own view: one session holds the lease's advisory lock.
    const holders = await queryFromOutside<{ n: number }>(
      database.url,
      "select count(*) as n from pg_locks where locktype = 'advisory' and granted and objid = ?",
      [LOCK_KEYS.leader],
    )
    expect(holders[0]!.n).toBe(1)
  }, 30_000)
})
