// A kysely driver for better-sqlite3 that differs from kysely's own in two ways the sandbox
// needs: write transactions start with BEGIN IMMEDIATE (so two processes sharing one database
// file queue on the busy timeout instead of failing with SQLITE_BUSY on lock upgrade), and
// prepared statements are cached by SQL text instead of being prepared anew for every query.
// It also tells listeners after each commit, so the webhook dispatcher sends new work at once.
import type BetterSqlite3 from 'better-sqlite3'
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely'

const STATEMENT_CACHE_SIZE = 500

class CachedStatementConnection implements DatabaseConnection {
  readonly #db: BetterSqlite3.Database
  readonly #statements = new Map<string, BetterSqlite3.Statement>()

  constructor(db: BetterSqlite3.Database) {
    this.#db = db
  }

  #prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sql)
    if (statement === undefined) {
      statement = this.#db.prepare(sql)
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value
        if (oldest !== undefined) this.#statements.delete(oldest)
      }
      this.#statements.set(sql, statement)
    }
    return statement
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.#prepare(compiledQuery.sql)
    const parameters = compiledQuery.parameters as unknown[]
    if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] })
    const { changes, lastInsertRowid } = statement.run(parameters)
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] })
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not used by the sandbox')
  }
}

export type CommitListener = () => void

/** One connection, handed to one caller at a time (better-sqlite3 is synchronous). */
class ImmediateSqliteDriver implements Driver {
  readonly #db: BetterSqlite3.Database
  readonly #connection: CachedStatementConnection
  readonly #commitListeners: Set<CommitListener>
  readonly #beforeClose: (() => Promise<void>) | undefined
  #queue: Promise<void> = Promise.resolve()

  constructor(db: BetterSqlite3.Database, commitListeners: Set<CommitListener>, beforeClose?: () => Promise<void>) {
    this.#db = db
    this.#connection = new CachedStatementConnection(db)
    this.#commitListeners = commitListeners
    this.#beforeClose = beforeClose
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void
    const previous = this.#queue
    this.#queue = new Promise<void>((resolve) => (release = resolve))
    await previous
    this.#release = release
    return this.#connection
  }

  #release: (() => void) | undefined

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
    for (const listener of this.#commitListeners) listener()
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release
    this.#release = undefined
    release?.()
  }

  async destroy(): Promise<void> {
    await this.#beforeClose?.()
    if (this.#db.open) this.#db.close()
  }
}

export class ImmediateSqliteDialect implements Dialect {
  readonly #db: BetterSqlite3.Database
  /** Called after every committed transaction (not after autocommitted single statements). */
  readonly commitListeners = new Set<CommitListener>()
  readonly #beforeClose: (() => Promise<void>) | undefined

  /** `beforeClose` runs when the database is destroyed, before its connection closes. */
  constructor(db: BetterSqlite3.Database, options: { beforeClose?: () => Promise<void> } = {}) {
    this.#db = db
    this.#beforeClose = options.beforeClose
  }

  createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#db, this.commitListeners, this.#beforeClose)
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler()
  }

  createAdapter() {
    return new SqliteAdapter()
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db)
  }
}
