// Group commit on PostgreSQL (postgres-database.ts, serial mode, whatever
// PAYBOX_POSTGRES_SERIAL_WRITES says): transactions started together share one locked transaction
// and its COMMIT, yet each commits or rolls back alone from its caller's view, and nothing is
// visible from outside before its caller is told it committed.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { ClaimTakenError } from '../../sandbox/db/claim-taken-error.js'
import { openPostgres, type PostgresBackend } from '../../sandbox/db/postgres-database.js'
import { claimLockKeys, MAX_GROUP_MEMBERS } from '../../sandbox/db/postgres-write-transactions.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'

describe('group commit on PostgreSQL', () => {
  let database: TestDatabase
  let backend: PostgresBackend
  beforeAll(async () => {
    database = await createTestDatabase('paybox_group')
    backend = await openPostgres({ url: database.url, serialWrites: true })
    await sql`create table group_rows (name text primary key)`.execute(backend.db)
  })
  afterAll(async () => {
    await backend?.db.destroy()
    await database?.drop()
  })

  const names = async () =>
    (await queryFromOutside<{ name: string }>(database.url, 'select name from group_rows order by name')).map((row) => row.name)

  it('commits the members that succeed and rolls back the one that fails, each settling after the shared COMMIT', async () => {
    let commits = 0
    const stop = backend.onCommit(() => commits++)
    const seenAtSettle: string[][] = []
    const insert = (name: string, fail = false) =>
      backend
        .transaction(async (trx) => {
          await sql`insert into group_rows (name) values (${name})`.execute(trx)
          if (fail) throw new Error(`${name} refused`)
          return name
        })
        .then(
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
    const stop = backend.onCommit(() => commits++)
    const ran: number[] = []
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        backend.transaction(async (trx) => {
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

  it('fails alone the member whose claim a transaction elsewhere holds, the rest of its group committing', async () => {
    const holder = new pg.Client({ connectionString: database.url })
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query(`select pg_advisory_xact_lock(${claimLockKeys('$1')})`, ['held'])
      const insert = (name: string, claim?: string) =>
        backend
          .transaction(async (trx) => {
            await sql`insert into group_rows (name) values (${name})`.execute(trx)
            return name
          }, claim)
          .catch((error: unknown) => error)
      const results = await Promise.all([insert('claim-a', 'free'), insert('claim-b', 'held'), insert('claim-c', 'also free')])
      expect(results[0]).toBe('claim-a')
      expect(results[1]).toBeInstanceOf(ClaimTakenError)
      expect(results[2]).toBe('claim-c')
      expect((await names()).filter((name) => name.startsWith('claim-'))).toEqual(['claim-a', 'claim-c'])
    } finally {
      await holder.end()
    }
  })
})
