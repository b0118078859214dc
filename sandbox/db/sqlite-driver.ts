// A kysely driver for better-sqlite3 that differs from kysely's own in what the sandbox needs
// (docs/performance.md has the figures):
// - write transactions start with BEGIN IMMEDIATE, so two processes sharing one database file
//   queue on the busy timeout instead of failing with SQLITE_BUSY on lock upgrade;
// - prepared statements are cached by SQL text;
// - transactions that finish in the same turn of the event loop share one COMMIT (group commit):
//   each is a SAVEPOINT inside one BEGIN IMMEDIATE … COMMIT, still returns only once that COMMIT
//   is done, and one that fails rolls back to its savepoint alone;
// - transaction() and runStatement() run queries on the held connection without kysely's
//   per-query executors and queues;
// - listeners hear of each commit, so the webhook dispatcher sends new work at once.
import type BetterSqlite3 from 'better-sqlite3'
import {
  CompiledQuery,
  DefaultQueryExecutor,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  Transaction,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely'
import { LRUCache } from 'lru-cache'

const STATEMENT_CACHE_SIZE = 500

export type CommitListener = () => void

/** One hold of the connection, from acquire to release; its transaction, if it began one. */
class Lease implements DatabaseConnection {
  /** Inside its transaction (between BEGIN and COMMIT/ROLLBACK). */
  inTransaction = false
  #release: (() => void) | undefined

  constructor(
    private readonly driver: ImmediateSqliteDriver,
    release: () => void,
  ) {
    this.#release = release
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return Promise.resolve(this.driver.run<R>(compiledQuery.sql, compiledQuery.parameters, this.inTransaction))
  }

  /** A statement of this lease's transaction (registered for runStatement); refused once it has ended. */
  async runStatement<R>(sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    assertOpen(this)
    return this.driver.run<R>(sql, parameters, true)
  }

  /** Lets the next caller have the connection; idempotent. */
  release(): void {
    const release = this.#release
    this.#release = undefined
    release?.()
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not used by the sandbox')
  }
}

/** Runs a transaction's queries as statements of its lease (refused once it has ended). */
class TransactionExecutor extends DefaultQueryExecutor {
  readonly #lease: Lease

  constructor(compiler: SqliteQueryCompiler, adapter: SqliteAdapter, lease: Lease) {
    // What asks for the connection itself (kysely's own executors, as withPlugin makes) gets the lease.
    super(compiler, adapter, {
      provideConnection: async (consumer) => {
        assertOpen(lease)
        return consumer(lease)
      },
    })
    this.#lease = lease
  }

  override executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.#lease.runStatement<R>(compiledQuery.sql, compiledQuery.parameters)
  }
}

function assertOpen(lease: Lease): void {
  if (!lease.inTransaction) throw new Error('This transaction has already ended: its queries must finish before it returns')
}

interface GroupMember {
  resolve(): void
  reject(error: unknown): void
}

/** One connection, handed to one caller at a time (better-sqlite3 is synchronous). */
class ImmediateSqliteDriver implements Driver {
  readonly #db: BetterSqlite3.Database
  readonly #statements = new LRUCache<string, BetterSqlite3.Statement>({ max: STATEMENT_CACHE_SIZE })
  readonly #commitListeners: Set<CommitListener>
  readonly #beforeClose: (() => Promise<void>) | undefined
  #queue: Promise<void> = Promise.resolve()
  /** Holders and waiters of the connection. */
  #claims = 0
  /** The open outer transaction's finished members, waiting for its COMMIT; undefined when none is open. */
  #group: GroupMember[] | undefined
  #commitScheduled = false

  constructor(db: BetterSqlite3.Database, commitListeners: Set<CommitListener>, beforeClose?: () => Promise<void>) {
    this.#db = db
    this.#commitListeners = commitListeners
    this.#beforeClose = beforeClose
  }

  async init(): Promise<void> {}

  #prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql)
    if (statement === undefined) {
      statement = this.#db.prepare(sql)
      this.#statements.set(sql, statement)
    }
    return statement
  }

  #exec(sql: string): void {
    this.#prepare(sql).run()
  }

  /** Runs one statement on the connection; the caller holds it (or nobody does and nobody waits). */
  run<R>(sql: string, parameters: readonly unknown[], inTransaction: boolean): QueryResult<R> {
    const statement = this.#prepare(sql)
    if (statement.reader) return { rows: statement.all(parameters) as R[] }
    try {
      const { changes, lastInsertRowid } = statement.run(parameters)
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
    } finally {
      // A write outside any transaction is durable when it returns, like an autocommit one.
      if (!inTransaction && this.#group !== undefined) this.#commitGroup()
    }
  }

  /** A statement outside any transaction (registered for runStatement on a root instance). */
  async runStatement<R>(sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    // Nobody holds or waits for the connection: running now is what the queue would do next.
    if (this.#claims === 0) return this.run<R>(sql, parameters, false)
    const release = await this.#acquire()
    try {
      return this.run<R>(sql, parameters, false)
    } finally {
      release()
    }
  }

  #acquire(): Promise<() => void> {
    this.#claims++
    let release!: () => void
    const previous = this.#queue
    this.#queue = new Promise<void>((resolve) => {
      let released = false
      release = () => {
        if (released) return
        released = true
        this.#claims--
        resolve()
      }
    })
    return previous.then(() => release)
  }

  async acquireConnection(): Promise<Lease> {
    return new Lease(this, await this.#acquire())
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    // SQLite ended the open transaction by itself after an error: its waiting members are told.
    if (this.#group !== undefined && !this.#db.inTransaction) this.#commitGroup()
    if (this.#group === undefined) {
      this.#exec('begin immediate')
      this.#group = []
    }
    try {
      this.#exec('savepoint member')
    } catch (error) {
      if (this.#group.length === 0) this.#endEmptyGroup()
      throw error
    }
    lease.inTransaction = true
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    this.#exec('release member')
    lease.inTransaction = false
    const committed = new Promise<void>((resolve, reject) => this.#group!.push({ resolve, reject }))
    // The next transaction waiting for the connection joins this group.
    lease.release()
    this.#scheduleCommit()
    await committed
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    // kysely also calls this when the shared COMMIT failed: that transaction is over already.
    if (!lease.inTransaction) return
    lease.inTransaction = false
    // SQLite rolls back the whole transaction by itself on some errors (disk full, I/O); then
    // the members waiting for its COMMIT are told it failed.
    if (!this.#db.inTransaction) return this.#commitGroup()
    this.#exec('rollback to member')
    this.#exec('release member')
    if (this.#group?.length === 0) this.#endEmptyGroup()
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    ;(connection as Lease).release()
  }

  /** kysely's TransactionBuilder.execute, step for step, with `work` given the lease itself. */
  async transaction<T>(work: (lease: Lease) => Promise<T>): Promise<T> {
    const lease = await this.acquireConnection()
    try {
      await this.beginTransaction(lease)
      try {
        const result = await work(lease)
        await this.commitTransaction(lease)
        return result
      } catch (error) {
        await this.rollbackTransaction(lease)
        throw error
      }
    } finally {
      lease.release()
    }
  }

  /** Commits the group once the transactions already waiting for the connection have joined it. */
  #scheduleCommit(): void {
    if (this.#commitScheduled) return
    this.#commitScheduled = true
    setImmediate(() => {
      this.#commitScheduled = false
      void this.#acquire().then((release) => {
        try {
          this.commitPending()
        } finally {
          release()
        }
      })
    })
  }

  #commitGroup(): void {
    const members = this.#group ?? []
    this.#group = undefined
    try {
      if (!this.#db.inTransaction) throw new Error('SQLite rolled the transaction back after an error')
      this.#exec('commit')
    } catch (error) {
      if (this.#db.inTransaction) this.#exec('rollback')
      for (const member of members) member.reject(error)
      return
    }
    for (const member of members) member.resolve()
    for (const listener of this.#commitListeners) listener()
  }

  /** Ends an outer transaction no member finished in (its only one failed). */
  #endEmptyGroup(): void {
    this.#group = undefined
    if (this.#db.inTransaction) this.#exec('rollback')
  }

  /** Commits the finished transactions waiting for it now; only while holding the connection. */
  commitPending(): void {
    if (this.#group !== undefined) this.#commitGroup()
  }

  async destroy(): Promise<void> {
    const release = await this.#acquire()
    try {
      this.commitPending()
    } finally {
      release()
    }
    await this.#beforeClose?.()
    if (this.#db.open) this.#db.close()
  }
}

/** SQLite runs DDL in transactions: a new database's migrations are one transaction, not a commit per statement. */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true
  }
}

export class ImmediateSqliteDialect implements Dialect {
  readonly #db: BetterSqlite3.Database
  /** Called after every COMMIT (not after autocommitted single statements). */
  readonly commitListeners = new Set<CommitListener>()
  readonly #beforeClose: (() => Promise<void>) | undefined
  #driver: ImmediateSqliteDriver | undefined
  // Shared by the transactions of transaction(): compiling is synchronous and keeps no state between queries.
  readonly #compiler = new SqliteQueryCompiler()
  readonly #adapter = new TransactionalDdlSqliteAdapter()

  /** `beforeClose` runs when the database is destroyed, before its connection closes. */
  constructor(db: BetterSqlite3.Database, options: { beforeClose?: () => Promise<void> } = {}) {
    this.#db = db
    this.#beforeClose = options.beforeClose
  }

  createDriver(): Driver {
    this.#driver = new ImmediateSqliteDriver(this.#db, this.commitListeners, this.#beforeClose)
    return this.#driver
  }

  /** Commits the finished transactions waiting for it now; only while holding the connection. */
  commitPending(): void {
    this.#driver?.commitPending()
  }

  /**
   * Runs `work` in a transaction of the kysely instance over this dialect: what
   * `db.transaction().execute(work)` does, without kysely's layers around each query.
   */
  transaction<DB, T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    const driver = this.#createdDriver()
    return driver.transaction((lease) => {
      const trx = new Transaction<DB>({
        config: { dialect: this },
        dialect: this,
        driver,
        executor: new TransactionExecutor(this.#compiler, this.#adapter, lease),
      })
      statementTargets.set(trx, lease)
      return work(trx)
    })
  }

  /** Lets runStatement run on `db`, the kysely instance created over this dialect. */
  serve(db: QueryRunner): void {
    statementTargets.set(db, this.#createdDriver())
  }

  #createdDriver(): ImmediateSqliteDriver {
    if (this.#driver === undefined) throw new Error('The dialect has no driver yet: create a Kysely instance with it first')
    return this.#driver
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler()
  }

  createAdapter() {
    return new TransactionalDdlSqliteAdapter()
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db)
  }
}

/** What runStatement needs of a kysely instance, whatever its database type. */
export interface QueryRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>
}

interface StatementTarget {
  runStatement<R>(sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>>
}

/** Root instances (served by their dialect) and the transactions of ImmediateSqliteDialect.transaction(). */
const statementTargets = new WeakMap<object, StatementTarget>()

/**
 * Runs one SQL text with its parameters for `db`: on its connection if it is a transaction of
 * ImmediateSqliteDialect.transaction(), through the connection queue if it is a root instance its
 * dialect serves, and through kysely otherwise. Same result as
 * `db.executeQuery(CompiledQuery.raw(sql, parameters))`, without kysely's layers.
 */
export function runStatement<R>(db: QueryRunner, sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
  const target = statementTargets.get(db)
  return target === undefined ? db.executeQuery<R>(CompiledQuery.raw(sql, [...parameters])) : target.runStatement<R>(sql, parameters)
}
