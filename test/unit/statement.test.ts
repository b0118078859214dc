// defineStatement (sandbox/db/statement.ts): a query built once per set of parameters, then run
// with each call's values bound by name, on the database or on a transaction.
import { sql, type Kysely } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, runTransaction, type SandboxDb } from '../../sandbox/db/database.js'
import { defineStatement } from '../../sandbox/db/statement.js'

describe('defineStatement', () => {
  let db: SandboxDb
  beforeEach(async () => {
    db = await openDatabase({ file: ':memory:' })
  })
  afterEach(() => db.destroy())

  it('builds its query once and binds each call’s values by name, whatever order the query uses them in', async () => {
    let builds = 0
    const insert = defineStatement((db, row: { value: string; key: string }) => {
      builds++
      return db.insertInto('sandbox_state').values({ value: row.value, key: row.key }).compile()
    })
    const find = defineStatement((db, p: { key: string }) =>
      db.selectFrom('sandbox_state').select(['key', 'value']).where('key', '=', p.key).compile(),
    )
    await insert(db, { key: 'a', value: '1' })
    await insert(db, { key: 'b', value: '2' })
    expect(builds).toBe(1)
    expect(await find(db, { key: 'b' })).toEqual([{ key: 'b', value: '2' }])
  })

  it('leaves out a parameter that is undefined, as kysely’s values() does, with a query of its own', async () => {
    await sql`create table defaults (key text primary key, value text not null default 'default')`.execute(db)
    // A table of this test's own, outside the sandbox's schema.
    const untyped = (db: SandboxDb) => db as unknown as Kysely<{ defaults: { key: string; value: string | undefined } }>
    const insert = defineStatement((db, row: { key: string; value?: string }) => untyped(db).insertInto('defaults').values(row).compile())
    await insert(db, { key: 'a', value: undefined })
    await insert(db, { key: 'b', value: 'given' })
    expect(await untyped(db).selectFrom('defaults').select(['key', 'value']).orderBy('key').execute()).toEqual([
      { key: 'a', value: 'default' },
      { key: 'b', value: 'given' },
    ])
  })

  it('runs raw SQL, and runs on a transaction that rolls back with it', async () => {
    const insert = defineStatement((db, p: { key: string }) =>
      sql`insert into sandbox_state (key, value) values (${p.key}, 'x')`.compile(db),
    )
    await expect(
      runTransaction(db, async (trx) => {
        await insert(trx, { key: 'gone' })
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    await runTransaction(db, (trx) => insert(trx, { key: 'kept' }))
    expect((await db.selectFrom('sandbox_state').select('key').execute()).map((row) => row.key)).toEqual(['kept'])
  })

  it('refuses a query that binds a value other than its parameters', async () => {
    const wrong = defineStatement((db, p: { key: string }) =>
      db.selectFrom('sandbox_state').selectAll().where('key', '=', p.key).where('value', '=', 'literal').compile(),
    )
    await expect(wrong(db, { key: 'a' })).rejects.toThrow('not one of its parameters')
  })
})
