// The sandbox's PostgreSQL backend, for a sandbox shared by several processes (replicas):
// kysely's PostgresDialect over a pg pool. Write transactions of all replicas run in parallel,
// each on a pooled connection, ordered by the row locks their own statements take, opened in one
// round trip with their deferred writes sent at COMMIT (postgres-write-transactions.ts,
// postgres-deferred-writes.ts). After each commit the other replicas are notified
// (LISTEN/NOTIFY, off the request's path) and wake their change listeners as they do for their
// own commits. PAYBOX_POSTGRES_SERIAL_WRITES=1 runs every write transaction under one
// sandbox-wide advisory lock instead (group commit), the control to measure against.
import { randomUUID } from 'node:crypto'
import { type CompiledQuery, Kysely, PostgresDialect, type Transaction, sql, type Driver, type PostgresDialectConfig } from 'kysely'
import pg from 'pg'
import { GroupCommit, ParallelTransactions, TransactionOpener } from './postgres-write-transactions.js'
import { ConnectionPreparations } from './postgres-deferred-writes.js'
import { errorCode, SQLSTATE } from './error-codes.js'
import { EventPositions } from './postgres-event-positions.js'
import { LOCK_KEYS } from './postgres-lock-keys.js'
import { redactDatabaseLocation } from '../../src/database-location.js'
import { SandboxConfigError } from '../config-error.js'
import { ApiError, badRequest } from '../errors.js'
import { migrateToLatest } from './migrate.js'
import { postgresMigrationProvider } from './migrations/index.js'
import type { Database } from './schema.js'

/** The notification channel of commits; its payload is the committing process's token. */
export const CHANGES_CHANNEL = 'paybox_changes'
/** Announcements to the other replicas (a topic, such as 'clock'); payload `token:topic`, or `token:topic:detail`. */
export const ANNOUNCEMENTS_CHANNEL = 'paybox_announcements'
/** The longest detail an announcement carries: NOTIFY takes payloads under 8000 bytes, this leaves room for the token and topic. */
export const ANNOUNCEMENT_DETAIL_LIMIT = 7_500
/** How often a replica that does not lead tries to become the leader. */
export const LEADER_RETRY_MS = 1_000

export interface PostgresOptions {
  url: string
  /** Connections in the pool (default 10). */
  poolSize?: number
  /** How long a request waits for a connection or a lock before it fails, in ms. */
  timeoutMs?: number
  /**
   * A schema of its own instead of the URL's, created if missing: a scratch state beside the
   * sandbox's (a reset's fresh genesis). Such a database neither listens to the replicas nor leads.
   */
  schema?: string
  /**
   * Every write transaction under one sandbox-wide advisory lock, grouped into shared COMMITs
   * (the old model, kept as the control to re-measure against: PAYBOX_POSTGRES_SERIAL_WRITES=1).
   * Off, transactions of all replicas run in parallel and each invariant holds by its own rows' locks.
   */
  serialWrites?: boolean
}

/** int8, numeric: numbers, as SQLite gives the same columns back (amounts stay below 2^53). */
const NUMBER_TYPES = new Set([20, 1700])

function parseNumber(text: string): number {
  const value = Number(text)
  if (!Number.isSafeInteger(value) && Number.isInteger(value)) throw new Error(`${text} is beyond the sandbox's integer range`)
  return value
}

export const NUMBERS_AS_NUMBERS: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    NUMBER_TYPES.has(oid) && format !== 'binary'
      ? parseNumber
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
}

/** What the database module needs of an open PostgreSQL database. */
export interface PostgresBackend {
  db: Kysely<Database>
  /** The migrations this open applied. */
  applied: string[]
  /**
   * `claim`: a name no other transaction of any replica may hold meanwhile (ClaimTakenError, at
   * once, if one does). `prefetch`: a read the work sends first, sent with the claim. `writesOnly`:
   * the work reads nothing but the prefetch, so both wait for its writes (runTransaction).
   */
  transaction<T>(
    work: (trx: Transaction<Database>) => Promise<T>,
    claim?: string,
    prefetch?: CompiledQuery,
    writesOnly?: boolean,
  ): Promise<T>
  /** Calls `listener` after each commit of this process or another one; returns its stop. */
  onCommit(listener: () => void): () => void
  /** Whether this process leads: runs what happens once per interval (timer-mode ledger closes, folding count deltas). */
  isLeader(): boolean
  /** Tells the other replicas about `topic` (and `detail`, at most ANNOUNCEMENT_DETAIL_LIMIT characters) when `trx` commits. */
  announce(trx: Transaction<Database>, topic: string, detail?: string): Promise<void>
  /**
   * Tells the other replicas about `topic` now, from the LISTEN connection: for what has already
   * committed, where holding the notify lock through a COMMIT would order the writers (ChangeChannel).
   * Best effort: a replica that dies before sending it leaves the others unaware.
   */
  announceCommitted(topic: string, detail?: string): void
  /** Calls `listener` with its detail when another replica announces `topic`; returns its stop. */
  onAnnouncement(topic: string, listener: (detail: string | undefined) => void): () => void
  /** How many replicas hold the serving lock (postgres-serving-lock.ts) now, this one included once it entered. */
  servingReplicas(trx: Transaction<Database>): Promise<number>
}

export async function openPostgres(options: PostgresOptions): Promise<PostgresBackend> {
  const url = parseUrl(options.url)
  const timeoutMs = options.timeoutMs ?? 10_000
  const config: pg.PoolConfig = {
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: timeoutMs,
    // A statement or a lock wait past this fails instead of holding a request forever.
    statement_timeout: timeoutMs,
    lock_timeout: timeoutMs,
    // A replica that stalls mid-transaction (paused, hung) would hold the write lock of every
    // replica; the server ends such a session, and its lock, after this long idle.
    idle_in_transaction_session_timeout: timeoutMs,
    types: NUMBERS_AS_NUMBERS,
    application_name: 'paybox',
    options: [SESSION_OPTIONS, ...(options.schema === undefined ? [] : [`-c search_path=${quoteIdentifier(options.schema)}`])].join(' '),
  }
  const pool = new pg.Pool(config)
  // An idle connection dropped by the server is an event, not a crash; the next query reconnects.
  pool.on('error', () => {})
  const token = randomUUID()
  const announcement = (topic: string, detail: string | undefined) => {
    if (detail !== undefined && detail.length > ANNOUNCEMENT_DETAIL_LIMIT)
      throw new Error(`An announcement's detail is at most ${ANNOUNCEMENT_DETAIL_LIMIT} characters`)
    return detail === undefined ? `${token}:${topic}` : `${token}:${topic}:${detail}`
  }
  const listeners = new Set<() => void>()
  const notify = () => {
    for (const listener of [...listeners]) listener()
  }
  const announcementListeners = new Set<{ topic: string; listener: (detail: string | undefined) => void }>()
  const hear = (announcement: string) => {
    const colon = announcement.indexOf(':')
    const [topic, detail] = colon === -1 ? [announcement, undefined] : [announcement.slice(0, colon), announcement.slice(colon + 1)]
    for (const each of [...announcementListeners]) if (each.topic === topic) each.listener(detail)
  }
  // Every commit may have written events to place (postgres-event-positions.ts): another
  // replica's in case it died before placing them itself.
  const heard = () => {
    notify()
    positions.placeAfterOthers()
  }
  const channel = new ChangeChannel(config, token, heard, hear)
  const lease = new LeaderLease(config, heard)
  // db.destroy() (how every owner closes a database) also ends the channel's and the lease's connections.
  const closeSessions = async () => {
    await positions.stop()
    await channel.stop()
    await lease.stop()
  }
  const dialect = new ClosingPostgresDialect({ pool: guardedPool(pool) }, closeSessions)
  const db = new Kysely<Database>({ dialect })
  // Placed events wake this process's readers now and the other replicas' through the commit notice.
  const positions = new EventPositions(db, LOCK_KEYS.eventPositions, () => {
    notify()
    channel.noteCommit()
  })
  const opener = new TransactionOpener(db, dialect)
  const serialWrites = options.serialWrites ?? process.env.PAYBOX_POSTGRES_SERIAL_WRITES === '1'
  const writes = serialWrites
    ? new GroupCommit(opener, { channel: CHANGES_CHANNEL, token }, () => {
        notify()
        positions.placeSoon()
      })
    : new ParallelTransactions(
        opener,
        () => {
          notify()
          channel.noteCommit()
          positions.placeSoon()
        },
        timeoutMs,
      )
  let applied: string[]
  try {
    if (options.schema !== undefined) await sql`create schema if not exists ${sql.id(options.schema)}`.execute(db)
    applied = await migrate(db, options.schema)
    if (options.schema === undefined) {
      await channel.start()
      await lease.start()
    }
    // Rows a replica committed but did not live to place (the others place them too when they hear its commit).
    positions.placeSoon()
  } catch (error) {
    await db.destroy()
    throw connectionProblem(error, url) ?? error
  }
  return {
    db,
    applied,
    transaction: (work, claim, prefetch, writesOnly) => writes.run(work, claim, prefetch, writesOnly),
    onCommit: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    isLeader: () => lease.held,
    announce: async (trx, topic, detail) => {
      await sql`select pg_notify(${ANNOUNCEMENTS_CHANNEL}, ${announcement(topic, detail)})`.execute(trx)
    },
    announceCommitted: (topic, detail) => channel.announce(announcement(topic, detail)),
    onAnnouncement: (topic, listener) => {
      const entry = { topic, listener }
      announcementListeners.add(entry)
      return () => announcementListeners.delete(entry)
    },
    servingReplicas: async (trx) => {
      // A one-key advisory lock shows as classid 0, objid the key, objsubid 1.
      const { rows } = await sql<{ count: number }>`select count(*)::int as count from pg_locks
        where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())
        and classid = 0 and objid = ${LOCK_KEYS.serving} and objsubid = 1 and granted`.execute(trx)
      return rows[0]?.count ?? 0
    },
  }
}

/**
 * The pool as kysely sees it, with two translations at the boundary:
 * - PostgreSQL text cannot hold U+0000, which SQLite stores. A read looking for such a value finds
 *   nothing, as it would on SQLite (no stored text has one); a write of one is the client's 400.
 * - A server that cannot be reached, or that drops the connection, is a 503 the client may retry
 *   (never a 500): the pool reconnects by itself once PostgreSQL is back.
 */
function guardedPool(pool: pg.Pool): PostgresDialectConfig['pool'] {
  // One guard per connection, so that kysely, which keeps its own wrapper per client object, makes one too.
  const guards = new WeakMap<pg.PoolClient, pg.PoolClient>()
  const guard = (client: pg.PoolClient): pg.PoolClient => {
    // Called through the client at each query (not bound once), as a test's patch of pg's Client.query expects.
    const query = ((...args: unknown[]) => (client.query as (...a: unknown[]) => Promise<unknown>)(...args)) as ((
      text: string,
      values?: unknown[],
    ) => Promise<pg.QueryResult>) &
      ((config: pg.QueryConfig) => Promise<pg.QueryResult>)
    // The deferred writes prepared on this connection (postgres-deferred-writes.ts).
    const preparations = new ConnectionPreparations()
    const guarded = async (text: string, values?: unknown[]) => {
      if (values?.some((value) => typeof value === 'string' && value.includes('\0'))) {
        if (/^\s*select\b/i.test(text)) return { command: 'SELECT', rowCount: 0, rows: [], fields: [], oid: 0 }
        throw badRequest('Text may not contain the NUL character (U+0000)')
      }
      // A statement with parameters is prepared once per connection under a name of its text
      // (parse and plan saved on every later run); one without goes as a simple query.
      const name = values !== undefined && values.length > 0 ? statementName(text) : undefined
      const run = name === undefined ? preparations.send(text, (sent) => query(sent, values)) : query({ name, text, values })
      return run.then(
        // A simple query of several statements answers with each one's result; kysely reads one: the last's.
        (result: pg.QueryResult | pg.QueryResult[]) => (Array.isArray(result) ? result.at(-1) : result),
        (error: unknown) => {
          throw asUnavailable(error) ?? error
        },
      )
    }
    return Object.assign(Object.create(client) as pg.PoolClient, { query: guarded })
  }
  return {
    connect: async () => {
      const client = await pool.connect().catch((error: unknown) => {
        throw asUnavailable(error) ?? error
      })
      let guarded = guards.get(client)
      if (guarded === undefined) {
        // A connection lost while checked out errors on the client itself: the query in flight
        // fails, and without a listener the process would crash.
        client.on('error', () => {})
        guards.set(client, (guarded = guard(client)))
      }
      return guarded
    },
    end: () => pool.end(),
  }
}

/**
 * What every sandbox session runs with (its connection's options):
 * - no JIT: the sandbox's statements are short, and JIT compiled every one whose estimate ran high
 *   (a webhook claim's read, estimating a whole backlog) for tens of ms, far longer than it ran;
 * - generic plans: each named statement (statementName) is planned once per connection. By
 *   default PostgreSQL planned again at every run the statements whose generic plan it estimated
 *   dearer, those with a LIMIT or an array parameter: a webhook claim's read spent 0.53 ms
 *   planning to 0.86 ms running, a list's page 0.15 ms to 0.17 ms. A rule this asks of the SQL:
 *   a value that selects a partial index is written into the statement, not passed as a parameter
 *   (test/postgres/query-plans.test.ts judges the generic plans).
 */
const SESSION_SETTINGS = { jit: 'off', plan_cache_mode: 'force_generic_plan' } as const
/** SESSION_SETTINGS as a connection's `options`. */
export const SESSION_OPTIONS = Object.entries(SESSION_SETTINGS)
  .map(([name, value]) => `-c ${name}=${value}`)
  .join(' ')

/** Prepared statements of a connection, by SQL text: kysely's SQL text is the same for each use. */
const MAX_NAMED_STATEMENTS = 500
const statementNames = new Map<string, string>()
/** The name a statement is prepared under; undefined (unnamed, parsed each time) past MAX_NAMED_STATEMENTS texts. */
function statementName(text: string): string | undefined {
  let name = statementNames.get(text)
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) statementNames.set(text, (name = `paybox_${statementNames.size}`))
  return name
}

/** A connection lost: the socket's codes, and the server's end of an idle transaction. */
const LOST_CONNECTION = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', SQLSTATE.idleInTransactionTimeout])

/**
 * Errors of a lost or refused connection (SQLSTATE classes 08 and 57P, or the socket's own), and
 * of a statement or lock wait past its timeout: a 503 to retry, not a 500.
 */
function asUnavailable(error: unknown): ApiError | undefined {
  const code = errorCode(error)
  const { message } = error as { message?: unknown }
  const busy = code === SQLSTATE.queryCanceled || code === SQLSTATE.lockNotAvailable
  const lost =
    // An idle transaction's end: past its limit (WRITE_IDLE_LIMIT_MS) the server ends it, and its session.
    (code !== undefined && (/^(08|57P)/.test(code) || LOST_CONNECTION.has(code))) ||
    (typeof message === 'string' && /Connection terminated|is not queryable|timeout exceeded when trying to connect/i.test(message))
  if (!busy && !lost) return undefined
  const unavailable = new ApiError(
    503,
    'Service Unavailable',
    busy
      ? 'The sandbox database is busy (a statement or lock wait ran out of time); retry shortly'
      : 'The sandbox cannot reach its PostgreSQL database right now; retry shortly',
    { 'Retry-After': '1' },
  )
  return Object.assign(unavailable, { cause: error })
}

class ClosingPostgresDialect extends PostgresDialect {
  /** The driver kysely made of this dialect, which a Transaction built beside kysely's names too. */
  driver: Driver | undefined

  constructor(
    config: PostgresDialectConfig,
    private readonly beforeDestroy: () => Promise<void>,
  ) {
    super(config)
  }

  override createDriver(): Driver {
    const driver = super.createDriver()
    const destroy = driver.destroy.bind(driver)
    driver.destroy = async () => {
      await this.beforeDestroy()
      await destroy()
    }
    this.driver = driver
    return driver
  }
}

/** Migrations run by one process at a time: the first creates the schema, later ones find it. */
async function migrate(db: Kysely<Database>, schema: string | undefined): Promise<string[]> {
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${LOCK_KEYS.migrate})`.execute(connection)
    try {
      return await migrateToLatest(db, postgresMigrationProvider, schema)
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_KEYS.migrate})`.execute(connection)
    }
  })
}

/** The application_name of the channel's session, which sends the notes of parallel commits (pg_locks readers tell it apart). */
export const CHANNEL_APPLICATION_NAME = 'paybox-channel'

/**
 * A connection that LISTENs for other processes' commits, reconnecting after a loss (each
 * reconnection also wakes the listeners, here and on the other replicas: a commit may have been
 * missed meanwhile). It also sends the notes of this process's parallel commits, after them: a
 * NOTIFY inside a write transaction holds, from the start of its COMMIT to its end, the one lock
 * PostgreSQL orders every notifying commit of the cluster by (pg_locks: object 1262/0/0,
 * AccessExclusiveLock), so every writer of every replica would commit one at a time. Sent here,
 * it costs the request no round trip, and the commits made while one is in flight share the next.
 */
class ChangeChannel {
  #client: pg.Client | undefined
  #stopped = false
  #retry: NodeJS.Timeout | undefined
  #noting = false
  #noteAgain = false

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly token: string,
    private readonly wake: () => void,
    private readonly hear: (topic: string) => void,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ ...this.config, application_name: CHANNEL_APPLICATION_NAME })
    client.on('notification', (message) => {
      const payload = message.payload ?? ''
      if (message.channel === CHANGES_CHANNEL) {
        if (payload !== this.token) this.wake()
      } else if (!payload.startsWith(`${this.token}:`)) this.hear(payload.slice(payload.indexOf(':') + 1))
    })
    client.on('error', () => this.#reconnectSoon())
    client.on('end', () => this.#reconnectSoon())
    await client.connect()
    await client.query(`listen ${CHANGES_CHANNEL}`)
    await client.query(`listen ${ANNOUNCEMENTS_CHANNEL}`)
    this.#client = client
  }

  #reconnectSoon(): void {
    if (this.#stopped || this.#retry) return
    const lost = this.#client
    this.#client = undefined
    lost?.removeAllListeners('end')
    void lost?.end().catch(() => {})
    this.#retry = setTimeout(() => {
      this.#retry = undefined
      this.start().then(
        () => {
          this.wake()
          this.noteCommit()
        },
        () => this.#reconnectSoon(),
      )
    }, 500).unref()
  }

  /** Tells the other replicas that this one committed: at once, or after the note in flight, for all that came meanwhile. */
  noteCommit(): void {
    if (this.#noting) {
      this.#noteAgain = true
      return
    }
    this.#noting = true
    void this.#sendNotes()
  }

  async #sendNotes(): Promise<void> {
    try {
      do {
        this.#noteAgain = false
        // Without a connection (lost, or never opened for a scratch schema) the note waits for
        // the reconnection, which sends one.
        await this.#client?.query('select pg_notify($1, $2)', [CHANGES_CHANNEL, this.token]).catch(() => {})
      } while (this.#noteAgain && !this.#stopped)
    } finally {
      this.#noting = false
    }
  }

  /** Sends an announcement (its payload) now; without a connection it is lost, as is one sent as the connection drops. */
  announce(payload: string): void {
    void this.#client?.query('select pg_notify($1, $2)', [ANNOUNCEMENTS_CHANNEL, payload]).catch(() => {})
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#retry)
    const client = this.#client
    this.#client = undefined
    client?.removeAllListeners('end')
    await client?.end().catch(() => {})
  }
}

/**
 * Leadership of the once-per-interval work: a session advisory lock held on a connection of its own.
 * PostgreSQL releases it when that connection ends (the process died or lost the server), and
 * another replica's next try, within LEADER_RETRY_MS, takes it over.
 */
class LeaderLease {
  held = false
  #client: pg.Client | undefined
  #timer: NodeJS.Timeout | undefined
  #stopped = false

  constructor(
    private readonly config: pg.ClientConfig,
    /** Called on becoming the leader: the work left by the previous one is looked at now. */
    private readonly onLead: () => void,
  ) {}

  async start(): Promise<void> {
    await this.#try()
    this.#timer = setInterval(() => void this.#try(), LEADER_RETRY_MS).unref()
  }

  async #try(): Promise<void> {
    if (this.held || this.#stopped) return
    try {
      if (this.#client === undefined) {
        const client = new pg.Client(this.config)
        client.on('error', () => this.#lost(client))
        client.on('end', () => this.#lost(client))
        await client.connect()
        this.#client = client
      }
      const { rows } = await this.#client.query<{ taken: boolean }>('select pg_try_advisory_lock($1) as taken', [LOCK_KEYS.leader])
      if (rows[0]?.taken === true && !this.#stopped) {
        this.held = true
        this.onLead()
      }
    } catch {
      if (this.#client) this.#lost(this.#client)
    }
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return
    this.#client = undefined
    this.held = false
    client.removeAllListeners('end')
    void client.end().catch(() => {})
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearInterval(this.#timer)
    const client = this.#client
    this.#client = undefined
    this.held = false
    client?.removeAllListeners('end')
    await client?.end().catch(() => {})
  }
}

/** A name as a PostgreSQL identifier, quoted (for settings, where kysely's sql.id cannot go). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

function parseUrl(location: string): string {
  let url: URL
  try {
    url = new URL(location)
  } catch {
    throw new SandboxConfigError(`--db ${redact(location)} is not a valid PostgreSQL URL (postgres://user@host:port/dbname)`)
  }
  if (url.pathname.length <= 1)
    throw new SandboxConfigError(`--db ${redact(location)}: name the database (postgres://user@host:port/dbname)`)
  return location
}

const redact = redactDatabaseLocation

const UNREACHABLE = new Set<string>([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'ECONNRESET',
  SQLSTATE.invalidPassword,
  SQLSTATE.invalidAuthorization,
  SQLSTATE.invalidCatalogName,
])

/** A database that cannot be reached or entered is the user's to fix: one line naming it. */
function connectionProblem(error: unknown, url: string): SandboxConfigError | undefined {
  if (error instanceof ApiError && error.statusCode === 503 && error.cause !== undefined) return connectionProblem(error.cause, url)
  const code = errorCode(error)
  if (code === undefined || !UNREACHABLE.has(code)) return undefined
  return new SandboxConfigError(`--db ${redact(url)}: PostgreSQL refused or could not be reached (${(error as Error).message})`)
}
