// Opens the sandbox's SQLite database, tunes it for a shared, crash-safe file, and migrates it.
import fs from 'node:fs'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, Migrator } from 'kysely'
import { migrationProvider } from './migrations/index.js'
import type { Database } from './schema.js'
import { ImmediateSqliteDialect, type CommitListener } from './sqlite-driver.js'

export type SandboxDb = Kysely<Database>

export interface OpenDatabaseOptions {
  /** A file path, or ':memory:'. */
  file: string
  /** synchronous=FULL instead of NORMAL: survive power loss, at the cost of write speed. */
  durable?: boolean
  /** How long a write waits for another process's lock before failing, in ms. */
  busyTimeoutMs?: number
  /** A serialized database to load into memory instead of opening `file` (restoring a snapshot into a :memory: sandbox). */
  image?: Buffer
}

/** The better-sqlite3 handle under each kysely instance, for what kysely cannot do (online backup). */
const sqliteHandles = new WeakMap<SandboxDb, BetterSqlite3.Database>()

/** The raw better-sqlite3 handle of a database opened by openDatabase. */
export function sqliteHandleOf(db: SandboxDb): BetterSqlite3.Database {
  const handle = sqliteHandles.get(db)
  if (!handle) throw new Error('This database was not opened by openDatabase')
  return handle
}

const commitListeners = new WeakMap<SandboxDb, Set<CommitListener>>()

/** Calls `listener` after each transaction committed on this database; returns a function that stops it. */
export function onCommit(db: SandboxDb, listener: CommitListener): () => void {
  const listeners = commitListeners.get(db)
  if (!listeners) return () => {}
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<SandboxDb> {
  if (options.file !== ':memory:' && !options.image) fs.mkdirSync(path.dirname(path.resolve(options.file)), { recursive: true })
  const sqlite = new BetterSqlite3(options.image ?? options.file)
  try {
    sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 10_000}`)
    sqlite.pragma('journal_mode = WAL')
    sqlite.pragma(`synchronous = ${options.durable ? 'FULL' : 'NORMAL'}`)
    sqlite.pragma('foreign_keys = ON')
  } catch (error) {
    sqlite.close()
    throw error
  }
  const dialect = new ImmediateSqliteDialect(sqlite)
  const db = new Kysely<Database>({ dialect })
  sqliteHandles.set(db, sqlite)
  commitListeners.set(db, dialect.commitListeners)
  try {
    await migrate(db)
  } catch (error) {
    await db.destroy()
    throw error
  }
  return db
}

async function migrate(db: SandboxDb): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName
    throw new Error(`Database migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}
