// Issue 25: a snapshot on PostgreSQL is copied in one REPEATABLE READ transaction, so writes
// through both replicas go on while it copies, and what it holds is of one moment (its count
// tables agree with its own rows). Run with PAYBOX_POSTGRES_SERIAL_WRITES=0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { snapshotSchema } from '../../sandbox/snapshots/postgres-snapshot-store.js'

/** Rows that make the copy take long enough for writes to be timed against it (an unlogged table, not counted anywhere). */
const BULK_ROWS = 400_000
/** Writes that complete while the snapshot copies, at the least, when nothing blocks them (four writers, about 1 s of copy). */
const WRITES_DURING_COPY = 4

describe('a snapshot taken while both replicas write', () => {
  let database: TestDatabase
  let a: TestSandbox
  let b: TestSandbox
  let sql: pg.Client

  beforeAll(async () => {
    database = await createTestDatabase('paybox_snapshot_copy')
    a = await startTestSandbox({ db: database.url, dueWorkIntervalMs: 0 })
    b = await startTestSandbox({ db: database.url, dueWorkIntervalMs: 0 })
    sql = new pg.Client({ connectionString: database.url })
    await sql.connect()
  }, 60_000)
  afterAll(async () => {
    await sql?.end()
    await b?.stop()
    await a?.stop()
    await database?.drop()
  })

  it('lets writes through both replicas complete during the copy, and holds counts that match its own rows', async () => {
    await sql.query(
      `insert into seen_signatures (signature, expires_at) select 'bulk-' || i, 9000000000000 from generate_series(1, ${BULK_ROWS}) as i`,
    )
    let copying = true
    const completed: Array<{ startedAt: number; endedAt: number }> = []
    // Four writers, two per replica, each creating payments one after another until the copy ends.
    const writer = async (sandbox: TestSandbox, n: number) => {
      for (let i = 0; copying; i++) {
        const startedAt = performance.now()
        await sandbox.direct.payments.create({ amount: { value: 100 + i, currency: 'USD' }, description: `Writer ${n} #${i}` })
        completed.push({ startedAt, endedAt: performance.now() })
      }
    }
    const writers = [writer(a, 0), writer(b, 1), writer(a, 2), writer(b, 3)]
    // The writers are under way before the copy starts.
    await waitFor('the writers under way', () => completed.length >= 8)
    const saveStartedAt = performance.now()
    await b.admin.snapshots.save({ name: 'under-load' })
    const saveEndedAt = performance.now()
    copying = false
    await Promise.all(writers)

    // Started once the copy was well under way (a quarter in) and done before it ended: a copy
    // that locked the tables would let none of them through.
    const underWay = saveStartedAt + (saveEndedAt - saveStartedAt) / 4
    const during = completed.filter((write) => write.startedAt > underWay && write.endedAt < saveEndedAt)
    expect(during.length, `${during.length} writes in a copy of ${Math.round(saveEndedAt - saveStartedAt)} ms`).toBeGreaterThanOrEqual(
      WRITES_DURING_COPY,
    )

    const schema = snapshotSchema('under-load')
    const { rows } = await sql.query<{ payments: number; counted: number; by_day: number }>(
      `select (select count(*) from "${schema}".payments)::int as payments,
        (select coalesce(sum(count), 0) from "${schema}".payment_counts)::int + deltas.sum as counted,
        (select coalesce(sum(count), 0) from "${schema}".payment_day_counts)::int + deltas.sum as by_day
      from (select coalesce(sum(delta), 0)::int as sum from "${schema}".payment_count_deltas) as deltas`,
    )
    const copy = rows[0]!
    expect(copy.payments).toBeGreaterThan(8)
    expect(copy).toEqual({ payments: copy.payments, counted: copy.payments, by_day: copy.payments })
  }, 120_000)

  it('saves one of two snapshots of one name asked at once through both replicas, and answers the other 409', async () => {
    const saves = await Promise.allSettled([a.admin.snapshots.save({ name: 'twice' }), b.admin.snapshots.save({ name: 'twice' })])
    expect(saves.filter((save) => save.status === 'fulfilled')).toHaveLength(1)
    const refused = saves.find((save) => save.status === 'rejected')
    expect((refused?.reason as { statusCode?: number } | undefined)?.statusCode).toBe(409)
  }, 60_000)
})
