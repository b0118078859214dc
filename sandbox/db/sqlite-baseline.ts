// A new SQLite database gets the schema its migrations would leave in one step, the statements of
// sqlite-baseline-schema.ts (npm run db:baseline), and their names as applied: a first start
// does not run every migration through kysely (docs/performance.md). An older database migrates
// as before. test/unit/sqlite-baseline.test.ts fails when the baseline and the migrations differ.
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { migrateToLatest } from './migrate.js'
import { migrationProvider } from './migrations/index.js'
import { SQLITE_BASELINE } from './migrations/sqlite-baseline-schema.js'
import type { Database } from './schema.js'

export interface SqliteSchema {
  /** The migrations whose result this is, oldest first. */
  migrations: readonly string[]
  /** CREATE statements: tables, then indexes, then triggers, each in the order made. */
  statements: readonly string[]
}

/**
 * On a database with no schema yet, creates the baseline's and records its migrations as kysely's
 * Migrator does; the names recorded, or undefined for a database that already has a schema.
 */
export function createFromBaseline(
  sqlite: BetterSqlite3.Database,
  now = new Date(),
  baseline: SqliteSchema = SQLITE_BASELINE,
): string[] | undefined {
  const created = sqlite.transaction(() => {
    if (sqlite.prepare('select count(*) from sqlite_master').pluck().get() !== 0) return undefined
    for (const statement of baseline.statements) sqlite.exec(statement)
    sqlite.prepare("insert into kysely_migration_lock (id, is_locked) values ('migration_lock', 0)").run()
    const record = sqlite.prepare('insert into kysely_migration (name, timestamp) values (?, ?)')
    for (const name of baseline.migrations) record.run(name, now.toISOString())
    return [...baseline.migrations]
  })
  return created.immediate() as string[] | undefined
}

/** The schema a database has, as statements in the order createFromBaseline runs them. */
export function schemaOf(sqlite: BetterSqlite3.Database): string[] {
  const rows = sqlite
    .prepare("select type, sql from sqlite_master where sql is not null and name not like 'sqlite_%' order by rowid")
    .all() as Array<{ type: string; sql: string }>
  return ['table', 'index', 'trigger', 'view'].flatMap((type) => rows.filter((row) => row.type === type).map((row) => row.sql))
}

/** What the migrations leave in a new database (npm run db:baseline writes it down). */
export async function migratedSchema(): Promise<SqliteSchema> {
  const sqlite = new BetterSqlite3(':memory:')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
  try {
    const migrations = await migrateToLatest(db, migrationProvider)
    return { migrations, statements: schemaOf(sqlite) }
  } finally {
    await db.destroy()
  }
}
