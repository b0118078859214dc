// The sandbox's PostgreSQL backend, for a sandbox shared by several processes (replicas):
// kysely's PostgresDialect over a pg pool. Every write transaction takes one advisory lock
// first, so transactions of all replicas apply one after another, as on SQLite's one writer:
// every rule the services check inside a transaction (balances, sequences, idempotency,
// invoice numbers) holds across replicas. Each commit notifies the others (LISTEN/NOTIFY), who
// wake their change listeners as they do for their own commits.
import { randomUUID } from 'node:crypto'
import { Kysely, PostgresDialect, sql, type Driver, type PostgresDialectConfig, type Transaction } from 'kysely'
import pg from 'pg'
import { redactDatabaseLocation } from '../../src/database-location.js'
import { SandboxConfigError } from '../config-error.js'
import { ApiError, badRequest } from '../errors.js'
import { migrateToLatest } from './migrate.js'
import { postgresMigrationProvider } from './migrations/index.js'
import type { Database } from './schema.js'

/** The notification channel of commits; its payload is the committing process's token. */
export const CHANGES_CHANNEL = 'paybox_changes'
/** Announcements to the other replicas (a topic, such as 'clock'); payload `token:topic`. */
export const ANNOUNCEMENTS_CHANNEL = 'paybox_announcements'
/** Advisory lock keys (pg_advisory_*), in paybox's own space: 0x7061_79xx ("pay"). */
export const LOCK_KEYS = {
  write: 0x7061_7901,
  migrate: 0x7061_7902,
  leader: 0x7061_7903,
  claims: 0x7061_7904,
  // Held shared by every replica while it serves, exclusive by one replacing the state (postgres-serving-lock.ts).
  serving: 0x7061_7905,
} as const
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
}

/** int8, numeric: numbers, as SQLite gives the same columns back (amounts stay below 2^53). */
const NUMBER_TYPES = new Set([20, 1700])

function parseNumber(text: string): number {
  const value = Number(text)
  if (!Number.isSafeInteger(value) && Number.isInteger(value)) throw new Error(`${text} is beyond the sandbox's integer range`)
  return value
}

const types: pg.CustomTypesConfig = {
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
  /** `claim`: a name no other transaction of any replica may hold meanwhile (ClaimTakenError if one does). */
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>, claim?: string): Promise<T>
  /** Calls `listener` after each commit of this process or another one; returns its stop. */
  onCommit(listener: () => void): () => void
  /** Whether this process leads: runs the sandbox-wide timers (ledger closes, sweeps, webhook sending). */
  isLeader(): boolean
  /** Tells the other replicas about `topic` when `trx` commits. */
  announce(trx: Transaction<Database>, topic: string): Promise<void>
  /** Calls `listener` when another replica announces `topic`; returns its stop. */
  onAnnouncement(topic: string, listener: () => void): () => void
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
    types,
    application_name: 'paybox',
    ...(options.schema === undefined ? {} : { options: `-c search_path=${quoteIdentifier(options.schema)}` }),
  }
  const pool = new pg.Pool(config)
  // An idle connection dropped by the server is an event, not a crash; the next query reconnects.
  pool.on('error', () => {})
  const token = randomUUID()
  const listeners = new Set<() => void>()
  const notify = () => {
    for (const listener of [...listeners]) listener()
  }
  const announcementListeners = new Set<{ topic: string; listener: () => void }>()
  const hear = (topic: string) => {
    for (const each of [...announcementListeners]) if (each.topic === topic) each.listener()
  }
  const channel = new ChangeChannel(config, token, notify, hear)
  const lease = new LeaderLease(config, notify)
  // db.destroy() (how every owner closes a database) also ends the channel's and the lease's connections.
  const closeSessions = async () => {
    await channel.stop()
    await lease.stop()
  }
  const db = new Kysely<Database>({ dialect: new ClosingPostgresDialect({ pool: guardedPool(pool) }, closeSessions) })
  let applied: string[]
  try {
    if (options.schema !== undefined) await sql`create schema if not exists ${sql.id(options.schema)}`.execute(db)
    applied = await migrate(db, options.schema)
    if (options.schema === undefined) {
      await channel.start()
      await lease.start()
    }
  } catch (error) {
    await db.destroy()
    throw connectionProblem(error, url) ?? error
  }
  return {
    db,
    applied,
    transaction: async (work, claim) => {
      const result = await db.transaction().execute(async (trx) => {
        // One round trip: the lock that orders writers, and the note the others hear at commit.
        if (claim === undefined) {
          await sql`select pg_advisory_xact_lock(${LOCK_KEYS.write}), pg_notify(${CHANGES_CHANNEL}, ${token})`.execute(trx)
        } else {
          // The claim is tried first and never waited for: held elsewhere, the transaction ends
          // at once; taken, it is kept until commit, while this one waits for the write lock.
          const { rows } = await sql<{ taken: boolean }>`with claim as (
              select pg_try_advisory_xact_lock(${LOCK_KEYS.claims}, hashtext(${claim})) as taken)
            select taken, case when taken then pg_advisory_xact_lock(${LOCK_KEYS.write}) end, pg_notify(${CHANGES_CHANNEL}, ${token})
            from claim`.execute(trx)
          if (rows[0]?.taken !== true) throw new ClaimTakenError(claim)
        }
        return work(trx)
      })
      notify()
      return result
    },
    onCommit: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    isLeader: () => lease.held,
    announce: async (trx, topic) => {
      await sql`select pg_notify(${ANNOUNCEMENTS_CHANNEL}, ${`${token}:${topic}`})`.execute(trx)
    },
    onAnnouncement: (topic, listener) => {
      const entry = { topic, listener }
      announcementListeners.add(entry)
      return () => announcementListeners.delete(entry)
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
  const listened = new WeakSet<pg.PoolClient>()
  const guard = (client: pg.PoolClient): pg.PoolClient => {
    const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>
    const guarded = async (text: string, values?: unknown[]) => {
      if (values?.some((value) => typeof value === 'string' && value.includes('\0'))) {
        if (/^\s*select\b/i.test(text)) return { command: 'SELECT', rowCount: 0, rows: [], fields: [], oid: 0 }
        throw badRequest('Text may not contain the NUL character (U+0000)')
      }
      return query(text, values).catch((error: unknown) => {
        throw asUnavailable(error) ?? error
      })
    }
    return Object.assign(Object.create(client) as pg.PoolClient, { query: guarded })
  }
  return {
    connect: async () => {
      const client = await pool.connect().catch((error: unknown) => {
        throw asUnavailable(error) ?? error
      })
      // A connection lost while checked out errors on the client itself: the query in flight
      // fails, and without a listener the process would crash.
      if (!listened.has(client)) {
        listened.add(client)
        client.on('error', () => {})
      }
      return guard(client)
    },
    end: () => pool.end(),
  }
}

/** Errors of a lost or refused connection (SQLSTATE classes 08 and 57P, or the socket's own). */
function asUnavailable(error: unknown): ApiError | undefined {
  const { code, message } = error as { code?: unknown; message?: unknown }
  const lost =
    (typeof code === 'string' && (/^(08|57P)/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code))) ||
    (typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect/i.test(message))
  if (!lost) return undefined
  const unavailable = new ApiError(
    503,
    'Service Unavailable',
    'The sandbox cannot reach its PostgreSQL database right now; retry shortly',
    {
      'Retry-After': '1',
    },
  )
  return Object.assign(unavailable, { cause: error })
}

class ClosingPostgresDialect extends PostgresDialect {
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
    return driver
  }
}

/** A transaction's claim is held by another transaction, of this replica or another one. */
export class ClaimTakenError extends Error {
  constructor(readonly claim: string) {
    super('Claimed by another transaction')
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

/**
 * A connection that LISTENs for other processes' commits, reconnecting after a loss (each
 * reconnection also wakes the listeners: a commit may have been missed meanwhile).
 */
class ChangeChannel {
  #client: pg.Client | undefined
  #stopped = false
  #retry: NodeJS.Timeout | undefined

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly token: string,
    private readonly wake: () => void,
    private readonly hear: (topic: string) => void,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client(this.config)
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
      this.start().then(this.wake, () => this.#reconnectSoon())
    }, 500).unref()
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
 * Leadership of the sandbox's timers: a session advisory lock held on a connection of its own.
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

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET', '28P01', '28000', '3D000'])

/** A database that cannot be reached or entered is the user's to fix: one line naming it. */
function connectionProblem(error: unknown, url: string): SandboxConfigError | undefined {
  if (error instanceof ApiError && error.statusCode === 503 && error.cause !== undefined) return connectionProblem(error.cause, url)
  const code = (error as { code?: unknown }).code
  if (typeof code !== 'string' || !UNREACHABLE.has(code)) return undefined
  return new SandboxConfigError(`--db ${redact(url)}: PostgreSQL refused or could not be reached (${(error as Error).message})`)
}
