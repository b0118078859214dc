// The driver's group commit (sandbox/db/sqlite-driver.ts): transactions that finish in one turn
// of the event loop share a COMMIT, yet each still returns only once its write is durable, fails
// alone, and never reports success for a write the shared COMMIT lost. Each case runs with
// kysely's own transactions and with the dialect's (the sandbox's runTransaction).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, sql, type Transaction } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ImmediateSqliteDialect, runStatement } from '../../sandbox/db/sqlite-driver.js'

interface Schema {
  items: { id: number; owner: number | null }
  owners: { id: number }
}

type Runner = (dialect: ImmediateSqliteDialect, db: Kysely<Schema>, work: (trx: Transaction<Schema>) => Promise<void>) => Promise<void>
const runners: Array<[string, Runner]> = [
  ['db.transaction().execute', (_dialect, db, work) => db.transaction().execute(work)],
  ['dialect.transaction', (dialect, _db, work) => dialect.transaction<Schema, void>(work)],
]

describe.each(runners)('group commit through %s', (_name, run) => {
  let file: string
  let raw: BetterSqlite3.Database
  let dialect: ImmediateSqliteDialect
  let db: Kysely<Schema>
  /** Another connection to the same file: it sees only what is committed. */
  let observer: BetterSqlite3.Database
  const committedIds = () =>
    observer
      .prepare('select id from items order by id')
      .all()
      .map((row) => (row as { id: number }).id)

  beforeEach(() => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'paybox-group-commit-')), 'db.sqlite')
    raw = new BetterSqlite3(file)
    raw.pragma('journal_mode = WAL')
    raw.pragma('foreign_keys = ON')
    raw.exec(`create table owners (id integer primary key);
      create table items (id integer primary key, owner integer references owners (id) deferrable initially deferred);
      insert into owners values (1);`)
    dialect = new ImmediateSqliteDialect(raw)
    db = new Kysely<Schema>({ dialect })
    dialect.serve(db)
    observer = new BetterSqlite3(file, { readonly: true })
  })
  afterEach(async () => {
    observer.close()
    await db.destroy()
    fs.rmSync(path.dirname(file), { recursive: true, force: true })
  })

  const insertItem = (id: number, owner: number | null = 1) =>
    run(dialect, db, async (trx) => {
      await trx.insertInto('items').values({ id, owner }).execute()
    })

  it('shares one COMMIT among transactions finishing together, each returning once its row is committed', async () => {
    let commits = 0
    dialect.commitListeners.add(() => commits++)
    const seenOnReturn: number[][] = []
    await Promise.all([1, 2, 3, 4, 5].map((id) => insertItem(id).then(() => seenOnReturn.push(committedIds()))))
    expect(commits).toBe(1)
    for (const seen of seenOnReturn) expect(seen).toEqual([1, 2, 3, 4, 5])

    // One at a time, each is its own group.
    await insertItem(6)
    await insertItem(7)
    expect(commits).toBe(3)
    expect(committedIds()).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('rolls back a failing transaction alone: the others of its group commit', async () => {
    const outcomes = await Promise.allSettled([
      insertItem(1),
      run(dialect, db, async (trx) => {
        await trx.insertInto('items').values({ id: 2, owner: 1 }).execute()
        throw new Error('changed my mind')
      }),
      insertItem(3),
      insertItem(1), // a duplicate key: fails on its statement
    ])
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected'])
    expect(committedIds()).toEqual([1, 3])
  })

  it('reports the failure of a shared COMMIT to every transaction in it, and keeps none of their rows', async () => {
    // A deferred foreign key is checked at COMMIT: item 2's missing owner fails the whole group.
    const outcomes = await Promise.allSettled([insertItem(1), insertItem(2, 99), insertItem(3)])
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(committedIds()).toEqual([])
    // The connection is usable again afterwards.
    await insertItem(4)
    expect(committedIds()).toEqual([4])
  })

  it('makes a write outside any transaction durable before it returns, with the group it joined', async () => {
    const grouped = insertItem(1)
    // Once the transaction above has begun, the write below waits for the connection and runs
    // after it finished, before the COMMIT scheduled for the next turn (only microtasks run here).
    for (let turns = 0; !raw.inTransaction; turns++) {
      if (turns > 1000) throw new Error('the transaction never began')
      await Promise.resolve()
    }
    const single = sql`insert into items (id, owner) values (2, 1)`.execute(db).then(() => committedIds())
    expect(await single).toEqual([1, 2])
    await grouped
  })

  it('lets readers of this connection see finished transactions before their COMMIT', async () => {
    const finished = insertItem(1)
    const read = await db.selectFrom('items').select('id').execute()
    // Only microtasks have run since: the COMMIT, due in the next turn, has not happened yet.
    const committedWhenRead = committedIds()
    await finished
    expect(read.map((row) => row.id)).toEqual([1])
    expect(committedWhenRead).toEqual([])
    expect(committedIds()).toEqual([1])
  })

  it('refuses a query on a transaction that has ended', async () => {
    let kept: Transaction<Schema> | undefined
    await run(dialect, db, async (trx) => {
      kept = trx
      await trx.insertInto('items').values({ id: 1, owner: 1 }).execute()
    })
    await expect(kept!.insertInto('items').values({ id: 2, owner: 1 }).execute()).rejects.toThrow(/already (ended|committed)/)
    expect(committedIds()).toEqual([1])
  })

  it('runs a statement on a transaction inside it, and a root one after the transaction holding the connection', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const transaction = run(dialect, db, async (trx) => {
      await runStatement(trx, 'insert into items (id, owner) values (?, ?)', [1, 1])
      await held
      await runStatement(trx, 'insert into items (id, owner) values (?, ?)', [2, 1])
    })
    for (let turns = 0; !raw.inTransaction; turns++) {
      if (turns > 1000) throw new Error('the transaction never began')
      await Promise.resolve()
    }
    // Issued while the transaction holds the connection: it must not see the transaction half done.
    const count = runStatement<{ n: number }>(db, 'select count(*) as n from items', [])
    release()
    expect((await count).rows).toEqual([{ n: 2 }])
    await transaction
    expect(committedIds()).toEqual([1, 2])

    // A root write outside any transaction is durable on return.
    await runStatement(db, 'insert into items (id, owner) values (?, ?)', [3, 1])
    expect(committedIds()).toEqual([1, 2, 3])
  })

  it('runs the queries of an instance derived from the transaction (withoutPlugins) inside it', async () => {
    const failed = run(dialect, db, async (trx) => {
      await trx.withoutPlugins().insertInto('items').values({ id: 1, owner: 1 }).execute()
      expect(await trx.selectFrom('items').select('id').execute()).toEqual([{ id: 1 }])
      throw new Error('changed my mind')
    })
    await expect(failed).rejects.toThrow('changed my mind')
    expect(committedIds()).toEqual([])
  })

  it('rolls back what a transaction ran through runStatement when it fails', async () => {
    const failed = run(dialect, db, async (trx) => {
      await runStatement(trx, 'insert into items (id, owner) values (?, ?)', [1, 1])
      throw new Error('changed my mind')
    })
    await expect(failed).rejects.toThrow('changed my mind')
    await insertItem(2)
    expect(committedIds()).toEqual([2])
  })
})
