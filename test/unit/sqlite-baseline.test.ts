// A new SQLite database is made from the baseline (sandbox/db/sqlite-baseline.ts) instead of by
// running every migration: the baseline must be exactly what the migrations leave, and a database
// made from it must be one the migrations would have made, down to kysely's own bookkeeping.
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrateDatabase, openDatabase, sqliteHandleOf } from '../../sandbox/db/database.js'
import { SQLITE_BASELINE } from '../../sandbox/db/migrations/sqlite-baseline-schema.js'
import { createFromBaseline, migratedSchema, schemaOf } from '../../sandbox/db/sqlite-baseline.js'
import { temporaryDir } from '../../harness/sandbox.js'

const tablesOf = (sqlite: BetterSqlite3.Database) =>
  sqlite.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").pluck().all() as string[]

describe('the SQLite baseline', () => {
  it('is what the migrations leave: every migration, every statement (npm run db:baseline writes it)', async () => {
    expect(SQLITE_BASELINE).toEqual(await migratedSchema())
  })

  it("makes a new database the migrations' way: the same schema, kysely's records, and no rows", async () => {
    const file = path.join(temporaryDir('paybox-baseline-'), 'new.db')
    const migrated = await migratedSchema()
    expect(await migrateDatabase(file)).toEqual({ applied: migrated.migrations, latest: migrated.migrations.at(-1) })
    const db = await openDatabase({ file })
    try {
      const sqlite = sqliteHandleOf(db)
      expect(schemaOf(sqlite)).toEqual(migrated.statements)
      expect(sqlite.prepare('select name from kysely_migration order by name').pluck().all()).toEqual(migrated.migrations)
      // Made in one step from the baseline, not migration by migration: one time for all of them.
      expect(sqlite.prepare('select count(distinct timestamp) from kysely_migration').pluck().get()).toBe(1)
      expect(sqlite.prepare('select id, is_locked from kysely_migration_lock').all()).toEqual([{ id: 'migration_lock', is_locked: 0 }])
      for (const table of tablesOf(sqlite).filter((name) => !name.startsWith('kysely_')))
        expect([table, sqlite.prepare(`select count(*) from "${table}"`).pluck().get()]).toEqual([table, 0])
    } finally {
      await db.destroy()
    }
    // Opened again, it is up to date: kysely's Migrator finds nothing to run.
    expect(await migrateDatabase(file)).toEqual({ applied: [], latest: migrated.migrations.at(-1) })
  })

  it('leaves a database that has a schema alone, and undoes itself if a statement fails', () => {
    const used = new BetterSqlite3(':memory:')
    used.exec('create table mine (id integer)')
    expect(createFromBaseline(used)).toBeUndefined()
    expect(tablesOf(used)).toEqual(['mine'])

    // A database whose schema cannot take the baseline (here a clashing trigger name is the last statement) keeps nothing of it.
    const clash = new BetterSqlite3(':memory:')
    const lastTrigger = SQLITE_BASELINE.statements.findLast((statement) => /^CREATE TRIGGER/i.test(statement))!
    expect(lastTrigger).toBeDefined()
    const broken = { ...SQLITE_BASELINE, statements: [...SQLITE_BASELINE.statements, lastTrigger] }
    expect(() => createFromBaseline(clash, new Date(), broken)).toThrow(/already exists/)
    expect(tablesOf(clash)).toEqual([])
  })
})
