// Opens the sandbox's SQLite database, tunes it for a shared, crash-safe file, and migrates it.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, PostgresAdapter, type CompiledQuery, type Transaction } from 'kysely'
import { SandboxConfigError } from '../config-error.js'
import { errorCode } from './error-codes.js'
import { migrateToLatest } from './migrate.js'
import { createFromBaseline } from './sqlite-baseline.js'
import { migrationProvider, postgresMigrationProvider } from './migrations/index.js'
import { isPostgresUrl } from '../../src/database-location.js'
import type { PostgresBackend } from './postgres-database.js'
export { ClaimTakenError } from './claim-taken-error.js'
import type { Database } from './schema.js'
import { ImmediateSqliteDialect, type CommitListener } from './sqlite-driver.js'
import type { WalCheckpointerData } from './wal-checkpointer.js'

export type SandboxDb = Kysely<Database>

export interface OpenDatabaseOptions {
  /** A file path, ':memory:', or a postgres:// URL (a sandbox shared by several processes). */
  file: string
  /** synchronous=FULL instead of NORMAL: survive power loss, at the cost of write speed. */
  durable?: boolean
  /** How long a write waits for another process's lock before failing, in ms. */
  busyTimeoutMs?: number
  /** A serialized database to load into memory instead of opening `file` (restoring a snapshot into a :memory: sandbox). */
  image?: Buffer
  /** Refuse a file others may read, instead of making it private (the sandbox's --shared mode). */
  refuseOpenModes?: boolean
  /** On PostgreSQL, a scratch schema of its own instead of the sandbox's (postgres-database.ts). */
  postgresSchema?: string
}

/** The better-sqlite3 handle under each kysely instance, for what kysely cannot do (online backup). */
const sqliteHandles = new WeakMap<SandboxDb, BetterSqlite3.Database>()
const postgresBackends = new WeakMap<SandboxDb, PostgresBackend>()

/** Whether `db` (or the database of a transaction) is a PostgreSQL one. */
export function isPostgres(db: SandboxDb): boolean {
  return postgresBackends.has(db) || db.getExecutor().adapter instanceof PostgresAdapter
}
const dialects = new WeakMap<SandboxDb, ImmediateSqliteDialect>()

/** The raw better-sqlite3 handle of a database opened by openDatabase. */
const checkpointers = new WeakMap<SandboxDb, { started: () => boolean }>()

/** Whether the database's checkpoint worker thread runs (it starts after COMMITS_BEFORE_CHECKPOINTER commits). */
export const checkpointWorkerStarted = (db: SandboxDb): boolean => checkpointers.get(db)?.started() ?? false

export function sqliteHandleOf(db: SandboxDb): BetterSqlite3.Database {
  const handle = sqliteHandles.get(db)
  if (!handle) throw new Error('This database is not an SQLite database opened by openDatabase')
  return handle
}

/**
 * Runs `work` on the raw handle while holding the database's only connection, after every
 * finished transaction is committed (they may share a pending COMMIT: sqlite-driver.ts), so it
 * sees exactly the committed state and nothing else can change it meanwhile.
 */
export function withCommittedHandle<T>(db: SandboxDb, work: (handle: BetterSqlite3.Database) => Promise<T> | T): Promise<T> {
  return db.connection().execute(async () => {
    dialects.get(db)?.commitPending()
    return work(sqliteHandleOf(db))
  })
}

/**
 * Runs `work` in one transaction: everything it writes commits together or not at all, and it
 * returns once committed. The sandbox's transactions all start here: it is
 * `db.transaction().execute(work)` without kysely's layers around each query (sqlite-driver.ts).
 * `claim` (PostgreSQL): a name no other transaction of any replica may hold meanwhile; if one
 * does, this fails at once with ClaimTakenError rather than wait. SQLite ignores it: there, only
 * the process itself can run a twin, and its caller keeps track of those.
 * `prefetch` (PostgreSQL, with a claim): a read `work` sends first, sent with the opening instead
 * and answered from there, saving its round trip (a statement's `query`: statement.ts). It may see
 * the state just before the claim was taken, so it must be a read whose rows the work checks again
 * against a backstop (the idempotency record's primary key).
 * `writesOnly` (PostgreSQL, with a claim and a prefetch): `work` reads nothing but the prefetch,
 * only writes; so the claim goes with its first statement sent (its COMMIT) and the prefetch is
 * taken to answer no rows, saving the opening's round trip; the backstop catches the rows it would
 * have found.
 */
export function runTransaction<T>(
  db: SandboxDb,
  work: (trx: Transaction<Database>) => Promise<T>,
  options: { claim?: string; prefetch?: CompiledQuery; writesOnly?: boolean } = {},
): Promise<T> {
  if (db.isTransaction) throw new Error('A transaction cannot start another one: pass it on instead')
  const postgres = postgresBackends.get(db)
  if (postgres) return postgres.transaction(work, options.claim, options.prefetch, options.writesOnly)
  const dialect = dialects.get(db)
  if (!dialect) throw new Error('This database was not opened by openDatabase')
  return dialect.transaction<Database, T>(work)
}

/**
 * Runs `work` on one moment of the committed state, taking no lock a writer waits for: reads that
 * must agree (the ledger's books, a snapshot's tables) see no commit land between them. SQLite:
 * its one connection, which no write comes between; PostgreSQL: a REPEATABLE READ transaction (in
 * a READ COMMITTED one, each statement sees the commits landed since the one before).
 */
export function inOneSnapshot<T>(db: SandboxDb, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (isPostgres(db)) return db.transaction().setIsolationLevel('repeatable read').execute(work)
  return db.connection().execute(work)
}

/**
 * Whether this process runs what must happen once per interval for the whole sandbox (timer-mode
 * ledger closes, folding count deltas): always on SQLite, and on PostgreSQL while it holds the
 * leader lease. Webhooks and due-work sweeps run on every replica, claiming their rows.
 */
export function isLeader(db: SandboxDb): boolean {
  return postgresBackends.get(db)?.isLeader() ?? true
}

/**
 * Tells the other processes sharing the database about `topic` once `trx` commits (on
 * PostgreSQL; an SQLite sandbox has no replicas to tell). `root` is the database `trx` runs on;
 * `detail`, if any, is at most ANNOUNCEMENT_DETAIL_LIMIT characters (postgres-database.ts).
 */
export async function announce(root: SandboxDb, trx: Transaction<Database>, topic: string, detail?: string): Promise<void> {
  await postgresBackends.get(root)?.announce(trx, topic, detail)
}

/**
 * Tells the other processes about `topic` now, for what this one has committed (PostgreSQL), off
 * any transaction: no commit waits on another's notify lock. Best effort, unlike `announce`.
 */
export function announceCommitted(root: SandboxDb, topic: string, detail?: string): void {
  postgresBackends.get(root)?.announceCommitted(topic, detail)
}

/** Calls `listener` with the detail when another process announces `topic`; returns a function that stops it. */
export function onAnnouncement(db: SandboxDb, topic: string, listener: (detail: string | undefined) => void): () => void {
  return postgresBackends.get(db)?.onAnnouncement(topic, listener) ?? (() => {})
}

/**
 * How many replicas serve the sandbox now (hold the serving lock; this one counted once it entered
 * the barrier), read in `trx`; undefined on SQLite, which one process serves.
 */
export async function servingReplicas(root: SandboxDb, trx: Transaction<Database>): Promise<number | undefined> {
  return postgresBackends.get(root)?.servingReplicas(trx)
}

const commitListeners = new WeakMap<SandboxDb, Set<CommitListener>>()

/** Calls `listener` after each transaction committed on this database; returns a function that stops it. */
export function onCommit(db: SandboxDb, listener: CommitListener): () => void {
  const postgres = postgresBackends.get(db)
  if (postgres) return postgres.onCommit(listener)
  const listeners = commitListeners.get(db)
  if (!listeners) return () => {}
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<SandboxDb> {
  if (isPostgresUrl(options.file)) {
    // Loaded only for PostgreSQL: an SQLite sandbox's start does not pay for the driver (docs/performance.md).
    const { openPostgres } = await import('./postgres-database.js')
    const backend = await openPostgres({ url: options.file, timeoutMs: options.busyTimeoutMs, schema: options.postgresSchema })
    postgresBackends.set(backend.db, backend)
    appliedOnOpen.set(backend.db, backend.applied)
    return backend.db
  }
  const onDisk = options.file !== ':memory:' && !options.image
  if (onDisk) prepareDatabaseFile(options.file)
  const sqlite = openSqlite(options)
  try {
    sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 10_000}`)
    sqlite.pragma('journal_mode = WAL')
    sqlite.pragma(`synchronous = ${options.durable ? 'FULL' : 'NORMAL'}`)
    sqlite.pragma('foreign_keys = ON')
    // Every transaction is a savepoint (group commit, sqlite-driver.ts): its sub-journal in memory, not a temporary file.
    sqlite.pragma('temp_store = MEMORY')
    sqlite.pragma('cache_size = -32768')
  } catch (error) {
    sqlite.close()
    throw notADatabase(error, options.file) ?? error
  }
  try {
    if (onDisk) keepPrivate(options.file, options.refuseOpenModes ?? false)
  } catch (error) {
    sqlite.close()
    throw error
  }
  let fromBaseline: string[] | undefined
  try {
    fromBaseline = createFromBaseline(sqlite)
  } catch (error) {
    sqlite.close()
    throw error
  }
  let checkpointer: ReturnType<typeof startWalCheckpointer>
  const dialect = new ImmediateSqliteDialect(sqlite, { beforeClose: () => checkpointer?.stop() ?? Promise.resolve() })
  if (options.file !== ':memory:' && !options.image) checkpointer = startWalCheckpointer(sqlite, options, dialect.commitListeners)
  const db = new Kysely<Database>({ dialect })
  dialect.serve(db)
  sqliteHandles.set(db, sqlite)
  if (checkpointer) checkpointers.set(db, checkpointer)
  dialects.set(db, dialect)
  commitListeners.set(db, dialect.commitListeners)
  try {
    appliedOnOpen.set(db, await migrate(db, fromBaseline))
  } catch (error) {
    await db.destroy()
    throw error
  }
  return db
}

/** The files of a database: the file itself, then those SQLite keeps beside it. */
const databaseFiles = (file: string) => [file, `${file}-wal`, `${file}-shm`]

/**
 * Makes sure `file` can be the database, creating it private: the database holds merchants' API
 * secrets. A user's mistake (a folder, a SQLite URI, an unwritable place) is a SandboxConfigError.
 */
function prepareDatabaseFile(file: string): void {
  // better-sqlite3 takes no URIs: `file:x.db?mode=ro` would be a file of that name, and writable.
  if (/^file:/i.test(file)) throw new SandboxConfigError(`--db ${file}: SQLite URIs are not supported; pass a file path (or :memory:)`)
  const found = statOf(file)
  if (found?.isDirectory())
    throw new SandboxConfigError(`--db ${file} is a folder: name a database file, such as ${path.join(file, 'sandbox.db')}`)
  if (found && !found.isFile()) throw new SandboxConfigError(`--db ${file} is not a regular file: name a database file`)
  try {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
    // A new file is readable by its owner only, and SQLite gives its -wal and -shm files the same mode.
    fs.closeSync(fs.openSync(file, 'a', 0o600))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new SandboxConfigError(`--db ${file} cannot be created or opened for writing (${code ?? String(error)}): choose a writable place`)
  }
}

/** An existing database others may read is made private, or, if so asked, refused. */
function keepPrivate(file: string, refuseOpenModes: boolean): void {
  for (const each of databaseFiles(file)) {
    const mode = statOf(each)?.mode
    if (mode === undefined || (mode & 0o077) === 0) continue
    const octal = (mode & 0o777).toString(8).padStart(4, '0')
    if (refuseOpenModes) {
      throw new SandboxConfigError(
        `${each} has mode ${octal}, readable by other users: a shared sandbox needs it private (chmod 600 ${each})`,
      )
    }
    // An older file, or one copied in: made private as a new one would be.
    fs.chmodSync(each, 0o600)
  }
}

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file)
  } catch {
    return undefined
  }
}

function openSqlite(options: OpenDatabaseOptions): BetterSqlite3.Database {
  try {
    return new BetterSqlite3(options.image ?? options.file)
  } catch (error) {
    throw notADatabase(error, options.file) ?? error
  }
}

/** SQLite's "file is not a database", as the user's mistake it is. */
function notADatabase(error: unknown, file: string): SandboxConfigError | undefined {
  const code = errorCode(error)
  if (code !== 'SQLITE_NOTADB' && code !== 'SQLITE_CORRUPT') return undefined
  return new SandboxConfigError(
    `--db ${file} is not a paybox database (SQLite: ${(error as Error).message}): name another file, or move this one away`,
  )
}

/**
 * WAL pages after which a request's commit checkpoints by itself, which is also when the WAL
 * starts over under steady writes; that commit stalls, so it should be rare (docs/performance.md,
 * "WAL restarts").
 */
export const WAL_FALLBACK_CHECKPOINT_PAGES = 40_000

/** How often the worker copies the WAL into the database file. */
export const WAL_CHECKPOINT_INTERVAL_MS = 100

/**
 * The worker's file: from the sources (vitest, tsx) the .ts beside this one, run through tsx;
 * from dist/, the compiled .js (scripts/bundle-cli.ts puts one beside the bundled database code).
 */
function checkpointerWorker(data: WalCheckpointerData): Worker {
  // None of this process's flags: `node --input-type=module -e` would make the worker refuse its file.
  const options = { workerData: data, execArgv: [] }
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./wal-checkpointer.js', import.meta.url), options)
  // Node runs no TypeScript by itself: the worker loads tsx first, as the test runner did for this file.
  const source = new URL('./wal-checkpointer.ts', import.meta.url).href
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(source)}, __filename))`, {
    ...options,
    eval: true,
  })
}

/** Commits after which the checkpoint worker starts: a barely used sandbox does without its thread (an isolate of its own). */
export const COMMITS_BEFORE_CHECKPOINTER = 200

/**
 * Moves WAL checkpoints out of the requests into a worker thread (wal-checkpointer.ts), from the
 * COMMITS_BEFORE_CHECKPOINTER-th commit on; the request connection keeps an automatic checkpoint
 * at a higher mark, so the WAL stays bounded even if the worker cannot keep up.
 */
function startWalCheckpointer(
  sqlite: BetterSqlite3.Database,
  options: OpenDatabaseOptions,
  commitListeners: Set<CommitListener>,
): { stop: () => Promise<void>; started: () => boolean } | undefined {
  if (sqlite.pragma('journal_mode', { simple: true }) !== 'wal') return undefined
  sqlite.pragma(`wal_autocheckpoint = ${WAL_FALLBACK_CHECKPOINT_PAGES}`)
  let worker: Worker | undefined
  let exited: Promise<void> | undefined
  let commits = 0
  const countCommit = () => {
    if (++commits < COMMITS_BEFORE_CHECKPOINTER) return
    commitListeners.delete(countCommit)
    worker = checkpointerWorker({
      file: path.resolve(options.file),
      synchronous: options.durable ? 'FULL' : 'NORMAL',
      intervalMs: WAL_CHECKPOINT_INTERVAL_MS,
    })
    worker.unref()
    // A failing checkpointer only costs speed: the request connection's own checkpoint remains.
    worker.on('error', () => {})
    const running = worker
    exited = new Promise<void>((resolve) => running.once('exit', () => resolve()))
  }
  commitListeners.add(countCommit)
  return {
    started: () => worker !== undefined,
    stop: async () => {
      commitListeners.delete(countCommit)
      if (!worker) return
      // Referenced again while it closes: an unreferenced worker would let the process end mid-stop.
      worker.ref()
      worker.postMessage('stop')
      await exited
    },
  }
}

/** `fromBaseline`: the migrations a new database got from the baseline; the rest, if any, run as usual. */
async function migrate(db: SandboxDb, fromBaseline: string[] = []): Promise<string[]> {
  const covered = new Set(fromBaseline)
  if (Object.keys(await migrationProvider.getMigrations()).every((name) => covered.has(name))) return fromBaseline
  return [...fromBaseline, ...(await migrateToLatest(db, migrationProvider))]
}

/** What openDatabase applied, per database. */
const appliedOnOpen = new WeakMap<SandboxDb, string[]>()

export interface MigrationReport {
  /** The migrations this run applied, oldest first (none when the schema was up to date). */
  applied: string[]
  /** The newest migration of the schema now. */
  latest: string | undefined
}

/** Brings the database at `location` to the latest schema without starting a sandbox (`paybox sandbox migrate`). */
export async function migrateDatabase(location: string): Promise<MigrationReport> {
  const provider = isPostgresUrl(location) ? postgresMigrationProvider : migrationProvider
  const names = Object.keys(await provider.getMigrations()).sort()
  const db = await openDatabase({ file: location })
  try {
    return { applied: appliedOnOpen.get(db) ?? [], latest: names.at(-1) }
  } finally {
    await db.destroy()
  }
}
