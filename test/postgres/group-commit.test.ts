// Group commit on PostgreSQL (postgres-database.ts): transactions started together share one
// locked transaction and its COMMIT, yet each commits or rolls back alone from its caller's view,
// and nothing is visible from outside before its caller is told it committed.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onCommit, openDatabase, runTransaction, type SandboxDb } from '../../sandbox/db/database.js'
import { MAX_GROUP_MEMBERS } from '../../sandbox/db/postgres-database.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'

describe('group commit on PostgreSQL', () => {
  let database: TestDatabase
  let db: SandboxDb
  beforeAll(async () => {
    database = await createTestDatabase('paybox_group')
    db = await openDatabase({ file: database.url })
    await sql`create table group_rows (name text primary key)`.execute(db)
  })
  afterAll(async () => {
    await db?.destroy()
    await database?.drop()
  })

  const names = async () =>
    (await queryFromOutside<{ name: string }>(database.url, 'select name from group_rows order by name')).map((row) => row.name)

  it('commits the members that succeed and rolls back the one that fails, each settling after the shared COMMIT', async () => {
    let commits = 0
    const stop = onCommit(db, () => commits++)
    const seenAtSettle: string[][] = []
    const insert = (name: string, fail = false) =>
      runTransaction(db, async (trx) => {
        await sql`insert into group_rows (name) values (${name})`.execute(trx)
        if (fail) throw new Error(`${name} refused`)
        return name
      }).then(
        async (value) => {
          seenAtSettle.push(await names())
          return value
        },
        (error: Error) => error.message,
      )
    // A duplicate key fails inside PostgreSQL (the transaction is aborted until rolled back to
    // the savepoint); a thrown error fails in the caller's code.
    const results = await Promise.all([insert('a'), insert('b', true), insert('a'), insert('c'), insert('d')])
    stop()
    expect(results[0]).toBe('a')
    expect(results[1]).toBe('b refused')
    expect(results[2]).toMatch(/duplicate key/)
    expect(results.slice(3)).toEqual(['c', 'd'])
    expect(await names()).toEqual(['a', 'c', 'd'])
    // Settled only once committed: whoever settled saw every surviving row from outside.
    for (const seen of seenAtSettle) expect(seen).toEqual(['a', 'c', 'd'])
    expect(commits).toBe(1)
  })

  it('runs more members than one group holds in several groups, in order', async () => {
    const count = MAX_GROUP_MEMBERS * 2 + 5
    let commits = 0
    const stop = onCommit(db, () => commits++)
    const ran: number[] = []
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        runTransaction(db, async (trx) => {
          ran.push(i)
          await sql`insert into group_rows (name) values (${`n${String(i).padStart(4, '0')}`})`.execute(trx)
          return i
        }),
      ),
    )
    stop()
    expect(results).toEqual(Array.from({ length: count }, (_, i) => i))
    // Every call arrived before the first group began: full groups, then the rest, run in the order called.
    expect(commits).toBe(Math.ceil(count / MAX_GROUP_MEMBERS))
    expect(ran).toEqual(Array.from({ length: count }, (_, i) => i))
    expect((await names()).filter((name) => name.startsWith('n'))).toHaveLength(count)
  })
})
