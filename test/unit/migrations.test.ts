// Migrations run in one transaction (SQLite's DDL is transactional): a new database is migrated
// in one commit rather than one per statement, and a migration that fails leaves nothing behind.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, Migrator, sql, type Migration } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { ImmediateSqliteDialect } from '../../sandbox/db/sqlite-driver.js'

describe('migrations', () => {
  let db: Kysely<unknown> | undefined
  afterEach(() => db?.destroy())

  it('are all undone when one fails: no table of an earlier migration in the same run stays', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'paybox-migrate-')), 'db.sqlite')
    const raw = new BetterSqlite3(file)
    raw.pragma('journal_mode = WAL')
    const dialect = new ImmediateSqliteDialect(raw)
    db = new Kysely<unknown>({ dialect })
    dialect.serve(db)
    const migrations: Record<string, Migration> = {
      '1-first': { up: async (trx) => void (await sql`CREATE TABLE first (id INTEGER PRIMARY KEY)`.execute(trx)) },
      '2-broken': {
        up: async (trx) => {
          await sql`CREATE TABLE second (id INTEGER PRIMARY KEY)`.execute(trx)
          await sql`INSERT INTO nowhere VALUES (1)`.execute(trx)
        },
      },
    }
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest()
    expect(error).toBeDefined()
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('first', 'second')").all()
    expect(tables).toEqual([])
  })
})
