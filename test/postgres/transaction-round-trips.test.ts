// What a write transaction costs in round trips to PostgreSQL besides its own statements: its
// opening (BEGIN, the idempotency claim if any; in serial mode also the write lock and the note
// the other replicas hear at commit) goes as one simple query, and its COMMIT as another. In
// parallel mode the note goes after the commit on the channel's connection, off the request's
// path. Counted on the transaction's own connection (harness/postgres-statements.ts).
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgres, type PostgresBackend } from '../../sandbox/db/postgres-database.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { statementsSentBy } from '../../harness/postgres-statements.js'

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
