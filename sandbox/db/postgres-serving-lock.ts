// The "serving" lock of a sandbox shared on PostgreSQL: every replica holds it SHARED (a session
// advisory lock, on a connection of its own) while it answers requests, and a replica replacing
// the state (restore, reset) takes it EXCLUSIVE, which PostgreSQL grants only once every other
// replica let go of it. A replica that dies ends its session, and its hold with it. The same
// connection LISTENs on a channel of its own, for the messages that ask the replicas to pause
// (snapshots/postgres-serving-barrier.ts speaks the protocol; this file only holds the lock).
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { errorCode, SQLSTATE } from './error-codes.js'
import { LOCK_KEYS } from './postgres-lock-keys.js'

/** The channel of the serving barrier's messages; payload `token:message`. */
const BARRIER_CHANNEL = 'paybox_barrier'
/** How soon a lost session is connected again. */
const RECONNECT_MS = 500

export interface ServingSessionHooks {
  /** A message another replica sent on the barrier channel. */
  heard(message: string): void
  /** The session was lost while it held the lock shared: PostgreSQL released it. */
  lost(): void
  /** The session is back and holds the lock shared again (the state may have been replaced meanwhile). */
  regained(): void
}

type Held = 'none' | 'shared' | 'exclusive'

/**
 * One connection holding the serving lock. Its operations run one after another (they share the
 * connection); a shared hold lost with the connection is taken again once it reconnects.
 */
export class ServingSession {
  readonly #token = randomUUID()
  #client: pg.Client | undefined
  #held: Held = 'none'
  /** Whether the lock should be held shared: after share(), until unshare() or exclusive(). */
  #wantShared = false
  #stopped = false
  #retry: NodeJS.Timeout | undefined
  #queue: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly url: string,
    private readonly hooks: ServingSessionHooks,
    private readonly connectTimeoutMs = 10_000,
  ) {}

  /** Holds the lock shared, waiting (without a bound) while another replica holds it exclusive. */
  share(): Promise<void> {
    this.#wantShared = true
    return this.#run(async () => {
      while (!this.#stopped && this.#held !== 'shared') {
        try {
          const client = await this.#connect()
          if (this.#held === 'exclusive') await this.#unlock(client, 'exclusive')
          await client.query('select pg_advisory_lock_shared($1)', [LOCK_KEYS.serving])
          this.#held = 'shared'
        } catch {
          // The server is out of reach: the lock cannot be held anyway; try again shortly.
          await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS).unref())
        }
      }
    })
  }

  /** Lets go of a shared hold (so that a replacement may take the lock exclusive). */
  unshare(): Promise<void> {
    this.#wantShared = false
    return this.#run(async () => {
      if (this.#held === 'shared' && this.#client) await this.#unlock(this.#client, 'shared').catch(() => {})
      this.#held = 'none'
    })
  }

  /**
   * Takes the lock exclusive, letting go of a shared hold first: 'busy' if other replicas still
   * held it after `timeoutMs`, 'unreachable' if the server could not be asked.
   */
  exclusive(timeoutMs: number): Promise<'held' | 'busy' | 'unreachable'> {
    this.#wantShared = false
    return this.#run(async () => {
      let client: pg.Client
      try {
        client = await this.#connect()
        if (this.#held === 'shared') await this.#unlock(client, 'shared')
        this.#held = 'none'
        await client.query(`select set_config('lock_timeout', $1, false)`, [`${Math.max(1, Math.ceil(timeoutMs))}ms`])
      } catch {
        return 'unreachable'
      }
      try {
        await client.query('select pg_advisory_lock($1)', [LOCK_KEYS.serving])
        this.#held = 'exclusive'
        return 'held'
      } catch (error) {
        return errorCode(error) === SQLSTATE.lockNotAvailable ? 'busy' : 'unreachable'
      } finally {
        await client.query(`select set_config('lock_timeout', '0', false)`).catch(() => {})
      }
    })
  }

  /** Lets go of an exclusive hold. */
  unexclusive(): Promise<void> {
    return this.#run(async () => {
      if (this.#held === 'exclusive' && this.#client) await this.#unlock(this.#client, 'exclusive').catch(() => {})
      if (this.#held === 'exclusive') this.#held = 'none'
    })
  }

  /** Sends `message` to the other replicas at once; a lost connection drops it (they fall back on their timers). */
  send(message: string): Promise<void> {
    return this.#run(async () => {
      try {
        const client = await this.#connect()
        await client.query('select pg_notify($1, $2)', [BARRIER_CHANNEL, `${this.#token}:${message}`])
      } catch {
        // Dropped: see above.
      }
    })
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#retry)
    const client = this.#client
    this.#client = undefined
    this.#held = 'none'
    client?.removeAllListeners('end')
    await client?.end().catch(() => {})
  }

  #run<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(operation)
    this.#queue = result.catch(() => {})
    return result
  }

  async #unlock(client: pg.Client, held: 'shared' | 'exclusive'): Promise<void> {
    await client.query(held === 'shared' ? 'select pg_advisory_unlock_shared($1)' : 'select pg_advisory_unlock($1)', [LOCK_KEYS.serving])
    this.#held = 'none'
  }

  async #connect(): Promise<pg.Client> {
    if (this.#client) return this.#client
    if (this.#stopped) throw new Error('The serving session is stopped')
    // No statement or lock timeout: a shared hold waits for as long as a replacement runs.
    const client = new pg.Client({ connectionString: this.url, application_name: 'paybox', connectionTimeoutMillis: this.connectTimeoutMs })
    client.on('notification', (message) => {
      const payload = message.payload ?? ''
      if (message.channel !== BARRIER_CHANNEL || payload.startsWith(`${this.#token}:`)) return
      this.hooks.heard(payload.slice(payload.indexOf(':') + 1))
    })
    client.on('error', () => this.#lost(client))
    client.on('end', () => this.#lost(client))
    try {
      await client.connect()
      await client.query(`listen ${BARRIER_CHANNEL}`)
    } catch (error) {
      client.removeAllListeners('end')
      await client.end().catch(() => {})
      throw error
    }
    if (this.#stopped) {
      await client.end().catch(() => {})
      throw new Error('The serving session is stopped')
    }
    this.#client = client
    return client
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return
    this.#client = undefined
    const held = this.#held
    this.#held = 'none'
    client.removeAllListeners('end')
    void client.end().catch(() => {})
    if (this.#stopped || !this.#wantShared || held !== 'shared' || this.#retry) return
    this.hooks.lost()
    this.#retry = setTimeout(() => {
      this.#retry = undefined
      // share() waits for the server to come back; then the state is looked at again.
      if (this.#wantShared) void this.share().then(() => !this.#stopped && this.#held === 'shared' && this.hooks.regained())
    }, RECONNECT_MS)
    this.#retry.unref()
  }
}
