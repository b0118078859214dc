// Parallel write transactions on PostgreSQL (postgres-database.ts): one that PostgreSQL undoes to
// break a real deadlock runs again, with nothing of its undone attempt left over, and one undone
// every time gives up after CONFLICT_ATTEMPTS with a 503 and Retry-After, never a 500; one that
// waits in a lock's queue past LOCK_QUEUE_LIMIT_MS leaves it and runs again. Parallel
// mode by name: it is what these prove, whatever PAYBOX_POSTGRES_SERIAL_WRITES says.
import { sql, type Transaction } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../sandbox/db/schema.js'
import { openPostgres, type PostgresBackend } from '../../sandbox/db/postgres-database.js'
import { CONFLICT_ATTEMPTS, LOCK_QUEUE_LIMIT_MS } from '../../sandbox/db/postgres-write-transactions.js'
import { ApiError } from '../../sandbox/errors.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { waitFor } from '../../harness/wait.js'

/** A promise to wait on and the function that settles it. */
function latch(): { open: () => void; opened: Promise<void> } {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

describe('deadlocks between parallel write transactions on PostgreSQL', () => {
  let database: TestDatabase
  let backend: PostgresBackend
  beforeAll(async () => {
    database = await createTestDatabase('paybox_conflicts')
    // Deadlocks found within milliseconds rather than PostgreSQL's default second.
    await queryFromOutside(database.url, `alter database "${database.name}" set deadlock_timeout = '20ms'`)
    backend = await openPostgres({ url: database.url, serialWrites: false })
    await sql`create table conflict_rows (name text primary key, n int not null)`.execute(backend.db)
  }, 60_000)
  afterAll(async () => {
    await backend?.db.destroy()
    await database?.drop()
  })
  beforeEach(async () => {
    await queryFromOutside(database.url, `delete from conflict_rows; insert into conflict_rows values ('a', 0), ('b', 0)`)
  })

  const counts = async () =>
    Object.fromEntries(
      (await queryFromOutside<{ name: string; n: number }>(database.url, 'select name, n from conflict_rows order by name')).map((row) => [
        row.name,
        row.n,
      ]),
    )
  /** Adds 1 to row `name`, noting the SQLSTATE of a refusal in `refusals` (a busy one comes as a 503 with the driver's error as its cause). */
  /**
   * A session outside the sandbox's pool, in a transaction holding row a (until its rollback or
   * end); `before` runs first, outside the transaction (its session settings).
   */
  const holdRowA = async (before?: (holder: pg.Client) => Promise<unknown>): Promise<pg.Client> => {
    const holder = new pg.Client({ connectionString: database.url })
    await holder.connect()
    await before?.(holder)
    await holder.query('begin')
    await holder.query(`update conflict_rows set n = n + 100 where name = 'a'`)
    return holder
  }

  const bump = (trx: Transaction<Database>, name: string, refusals: string[]) =>
    sql`update conflict_rows set n = n + 1 where name = ${name}`
      .execute(trx)
      .catch((error: { code?: string; cause?: { code?: string } }) => {
        refusals.push(error.code ?? error.cause?.code ?? String(error))
        throw error
      })

  it('runs again the one of two transactions locking two rows in opposite orders that PostgreSQL undid, with none of its first attempt kept', async () => {
    const aLocked = latch()
    const bLocked = latch()
    const refusals: string[] = []
    const transactions: Array<Transaction<Database>> = []
    let commits = 0
    const stop = backend.onCommit(() => commits++)
    const crosswise = (first: string, second: string, mine: ReturnType<typeof latch>, theirs: ReturnType<typeof latch>) =>
      backend.transaction(async (trx) => {
        transactions.push(trx)
        await bump(trx, first, refusals)
        mine.open()
        await theirs.opened
        await bump(trx, second, refusals)
        return `${first} then ${second}`
      })
    try {
      expect(await Promise.all([crosswise('a', 'b', aLocked, bLocked), crosswise('b', 'a', bLocked, aLocked)])).toEqual([
        'a then b',
        'b then a',
      ])
    } finally {
      stop()
    }
    expect(refusals).toEqual(['40P01'])
    // Three attempts, each with a Transaction of its own; two commits, each row moved once by each.
    expect(transactions).toHaveLength(3)
    expect(new Set(transactions).size).toBe(3)
    expect(commits).toBe(2)
    expect(await counts()).toEqual({ a: 2, b: 2 })
    // A statement sent late through any of them, the undone one included, is refused: it would
    // run in whatever transaction its pooled connection serves next.
    for (const trx of transactions) await expect(sql`select 1`.execute(trx)).rejects.toThrow('This transaction has ended')
  })

  it(`leaves a lock's queue after ${LOCK_QUEUE_LIMIT_MS} ms and queues again, with none of the attempt kept, until the holder lets go`, async () => {
    const holder = await holdRowA()
    const refusals: string[] = []
    let attempts = 0
    let commits = 0
    const stop = backend.onCommit(() => commits++)
    try {
      const done = backend.transaction(async (trx) => {
        attempts++
        await bump(trx, 'b', refusals)
        await bump(trx, 'a', refusals)
      })
      // Held past two waits in the queue: each attempt gives up and the transaction runs again.
      await waitFor('two attempts to leave the queue', () => refusals.length >= 2, 10_000)
      await holder.query('rollback')
      await done
    } finally {
      stop()
      await holder.end()
    }
    expect(new Set(refusals)).toEqual(new Set(['55P03']))
    expect(attempts).toBe(refusals.length + 1)
    expect(commits).toBe(1)
    expect(await counts()).toEqual({ a: 1, b: 1 })
  })

  it("answers 503 with Retry-After once its lock waits have spent the session's lock timeout, nothing of it kept", async () => {
    // A backend whose lock waits may last 1 s in all, as the default 10 s would, only sooner.
    const impatient = await openPostgres({ url: database.url, serialWrites: false, timeoutMs: 1_000 })
    const holder = await holdRowA()
    const refusals: string[] = []
    try {
      const error = await impatient
        .transaction(async (trx) => {
          await bump(trx, 'b', refusals)
          await bump(trx, 'a', refusals)
        })
        .catch((refused: unknown) => refused)
      expect(error).toBeInstanceOf(ApiError)
      expect(error).toMatchObject({ statusCode: 503, headers: { 'Retry-After': '1' }, cause: { code: '55P03' } })
      await holder.query('rollback')
    } finally {
      await holder.end()
      await impatient.db.destroy()
    }
    // Queued again after each limit until the second was spent.
    expect(refusals.length).toBeGreaterThanOrEqual(2)
    expect(new Set(refusals)).toEqual(new Set(['55P03']))
    expect(await counts()).toEqual({ a: 0, b: 0 })
  })

  it('answers 503 with Retry-After, not a 500, once every attempt was undone by a deadlock', async () => {
    // A session outside holds row a and, at each attempt, asks for row b (which the attempt holds)
    // before the attempt asks for a: the attempt, last to wait, finds the deadlock and is undone.
    const holder = await holdRowA((session) => session.query(`set deadlock_timeout = '60s'`))
    const refusals: string[] = []
    let attempts = 0
    let commits = 0
    const stop = backend.onCommit(() => commits++)
    try {
      const { rows } = await holder.query<{ pid: number }>('select pg_backend_pid() as pid')
      const holderWaits = async () =>
        (await queryFromOutside(database.url, 'select 1 from pg_locks where pid = ? and not granted', [rows[0]!.pid])).length > 0
      const refused = backend
        .transaction(async (trx) => {
          await bump(trx, 'b', refusals)
          attempts++
          await waitFor('the holder to wait for row b', holderWaits)
          await bump(trx, 'a', refusals)
        })
        .catch((error: unknown) => error)
      for (let attempt = 1; attempt <= CONFLICT_ATTEMPTS; attempt++) {
        await waitFor(`attempt ${attempt} to hold row b`, () => attempts >= attempt)
        await holder.query('savepoint before_b')
        // Granted once PostgreSQL has undone the attempt; the savepoint lets row b go again.
        await holder.query(`update conflict_rows set n = n + 100 where name = 'b'`)
        await holder.query('rollback to savepoint before_b')
      }
      const error = await refused
      expect(error).toBeInstanceOf(ApiError)
      expect(error).toMatchObject({ statusCode: 503, headers: { 'Retry-After': '1' }, cause: { code: '40P01' } })
      await holder.query('rollback')
    } finally {
      stop()
      await holder.end()
    }
    expect(attempts).toBe(CONFLICT_ATTEMPTS)
    expect(refusals).toEqual(Array.from({ length: CONFLICT_ATTEMPTS }, () => '40P01'))
    expect(commits).toBe(0)
    expect(await counts()).toEqual({ a: 0, b: 0 })
  })
})
