// What a write transaction costs in round trips to PostgreSQL besides its own statements: its
// opening (BEGIN, the idempotency claim if any; in serial mode also the write lock and the note
// the other replicas hear at commit) goes as one simple query, and its COMMIT as another. In
// parallel mode the note goes after the commit on the channel's connection, off the request's
// path. Counted on the transaction's own connection (harness/postgres-statements.ts).
import { CompiledQuery, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgres, type PostgresBackend } from '../../sandbox/db/postgres-database.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { statementsSentBy } from '../../harness/postgres-statements.js'
import { markDeferrable } from '../../sandbox/db/deferrable-statements.js'

describe.each([
  { mode: 'parallel', serialWrites: false },
  { mode: 'serial', serialWrites: true },
])('round trips of a write transaction on PostgreSQL ($mode)', ({ mode, serialWrites }) => {
  let database: TestDatabase
  let backend: PostgresBackend
  beforeAll(async () => {
    database = await createTestDatabase(`paybox_trips_${mode}`)
    // A scratch schema: no LISTEN connection or leader lease whose queries the count would include.
    backend = await openPostgres({ url: database.url, schema: 'trips', serialWrites })
    await sql`create table trip_rows (name text primary key)`.execute(backend.db)
  }, 60_000)
  afterAll(async () => {
    await backend?.db.destroy()
    await database?.drop()
  })

  /** The round trips of the one transaction `transaction` opens (event-position passes run meanwhile, off its connection). */
  const roundTrips = async (transaction: () => Promise<unknown>) => {
    const { transactions } = await statementsSentBy(transaction)
    expect(transactions).toHaveLength(1)
    return transactions[0]!.length
  }
  const insert = (name: string) => async (trx: Parameters<Parameters<PostgresBackend['transaction']>[0]>[0]) => {
    await sql`insert into trip_rows (name) values (${name})`.execute(trx)
  }

  it('costs a plain write transaction two round trips besides its statement: its opening and its COMMIT', async () => {
    expect(await roundTrips(() => backend.transaction(insert(`plain-${mode}`)))).toBe(3)
  })

  it('takes the idempotency claim in the same opening, at no extra round trip', async () => {
    expect(await roundTrips(() => backend.transaction(insert(`claimed-${mode}`), `idempotency:m:${mode}`))).toBe(3)
  })
})

// Deferred writes (db/postgres-deferred-writes.ts): parallel mode only; the serial control sends each at once.
describe('deferred writes of a PostgreSQL write transaction', () => {
  let database: TestDatabase
  let backend: PostgresBackend
  beforeAll(async () => {
    database = await createTestDatabase('paybox_trips_deferred')
    backend = await openPostgres({ url: database.url, schema: 'trips', serialWrites: false })
    await sql`create table trip_rows (name text primary key)`.execute(backend.db)
  }, 60_000)
  afterAll(async () => {
    await backend?.db.destroy()
    await database?.drop()
  })

  type Trx = Parameters<Parameters<PostgresBackend['transaction']>[0]>[0]
  const deferredInsert = (trx: Trx, name: string) =>
    trx.executeQuery(markDeferrable(CompiledQuery.raw('insert into trip_rows (name) values ($1)', [name])))
  const names = async (prefix: string) =>
    (await sql<{ name: string }>`select name from trip_rows where name like ${`${prefix}%`} order by name`.execute(backend.db)).rows.map(
      (row) => row.name,
    )

  it('sends a plain transaction of deferred writes as one round trip: begin, the writes, commit', async () => {
    const { transactions } = await statementsSentBy(() =>
      backend.transaction(async (trx) => {
        await deferredInsert(trx, 'one-a')
        await deferredInsert(trx, 'one-b')
      }),
    )
    expect(transactions.map((sent) => sent.length)).toEqual([1])
    expect(await names('one-')).toEqual(['one-a', 'one-b'])
  })

  it('sends them with the COMMIT after a claimed opening: two round trips', async () => {
    const { transactions } = await statementsSentBy(() =>
      backend.transaction((trx) => deferredInsert(trx, 'claimed-a'), 'idempotency:m:deferred'),
    )
    expect(transactions.map((sent) => sent.length)).toEqual([2])
    expect(await names('claimed-')).toEqual(['claimed-a'])
  })

  it('writes text as given, whatever quotes, backslashes or $n it holds', async () => {
    const tricky = [
      "text-'quoted'",
      'text-\\back\\slash\\',
      "text-E'\\x41'",
      'text-$1 $2',
      'text-ünï €😀',
      'text-line\nbreak',
      'text-;commit;',
    ]
    await backend.transaction(async (trx) => {
      for (const name of tricky) await deferredInsert(trx, name)
    })
    expect((await names('text-')).sort()).toEqual([...tricky].sort())
  })

  it('sends them before a later statement of the transaction, which sees them', async () => {
    const seen = await backend.transaction(async (trx) => {
      await deferredInsert(trx, 'seen-a')
      return (await sql<{ n: number }>`select count(*)::int as n from trip_rows where name = 'seen-a'`.execute(trx)).rows[0]!.n
    })
    expect(seen).toBe(1)
  })

  it('sends a deferred insert as an EXECUTE of a statement its connection prepared once, with the first', async () => {
    const sent: string[] = []
    for (const name of ['prep-a', 'prep-b', 'prep-c']) {
      const { transactions } = await statementsSentBy(() => backend.transaction((trx) => deferredInsert(trx, name)))
      sent.push(...transactions.flat())
    }
    expect(sent).toHaveLength(3)
    for (const text of sent) expect(text).toMatch(/; execute paybox_deferred_\w+_trip_rows\('prep-.'\); commit$/)
    // A connection prepares it in its first such transaction only (a background pass may take the last one's connection).
    expect(sent.filter((text) => /prepare paybox_deferred_\w+ as insert into trip_rows/.test(text)).length).toBeLessThan(3)
    expect(await names('prep-')).toEqual(['prep-a', 'prep-b', 'prep-c'])
  })

  it('prepares the insert again on a connection that lost it, after the one transaction that found it gone', async () => {
    await backend.transaction((trx) => deferredInsert(trx, 'lost-a'))
    const dropped = backend.transaction(async (trx) => {
      const { rows } = await sql<{
        name: string
      }>`select name from pg_prepared_statements where name like 'paybox_deferred_%_trip_rows'`.execute(trx)
      for (const { name } of rows) await sql.raw(`deallocate ${name}`).execute(trx)
      await deferredInsert(trx, 'lost-b')
    })
    await expect(dropped).rejects.toMatchObject({ code: '26000' })
    await backend.transaction((trx) => deferredInsert(trx, 'lost-c'))
    expect(await names('lost-')).toEqual(['lost-a', 'lost-c'])
  })

  it('fails the transaction when a deferred write fails at the COMMIT, keeping none of its writes', async () => {
    await backend.transaction((trx) => deferredInsert(trx, 'dup-a'))
    const failed = backend.transaction(async (trx) => {
      await deferredInsert(trx, 'dup-b')
      await deferredInsert(trx, 'dup-a')
    })
    await expect(failed).rejects.toMatchObject({ code: '23505' })
    expect(await names('dup-')).toEqual(['dup-a'])
    // The connection is usable again: the failed transaction was rolled back.
    await backend.transaction((trx) => deferredInsert(trx, 'dup-c'))
    expect(await names('dup-')).toEqual(['dup-a', 'dup-c'])
  })
})
