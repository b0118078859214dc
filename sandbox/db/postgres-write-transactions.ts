// Write transactions on PostgreSQL, in the two modes postgres-database.ts chooses between:
// ParallelTransactions (the default: each on its own pooled connection, ordered only by the row
// locks its statements take, conflicts retried) and GroupCommit (PAYBOX_POSTGRES_SERIAL_WRITES=1,
// the control: one sandbox-wide lock, transactions as savepoints of one). Both open a transaction
// in one round trip through TransactionOpener, with an idempotent request's claim in it.
import { CompiledQuery, Transaction, sql, type DatabaseConnection, type Driver, type Kysely, type PostgresDialect } from 'kysely'
import pg from 'pg'
import { ClaimTakenError } from './claim-taken-error.js'
import { errorCode, SQLSTATE } from './error-codes.js'
import { DeferringConnection, inlineParameters } from './postgres-deferred-writes.js'
import { LOCK_KEYS } from './postgres-lock-keys.js'
import { ApiError } from '../errors.js'
import type { Database } from './schema.js'

/** The dialect a transaction is built beside, with the driver kysely made of it. */
export type DialectWithDriver = PostgresDialect & { driver: Driver | undefined }

/**
 * How long a write transaction may sit waiting on its replica before PostgreSQL ends it (and its
 * locks): a replica frozen mid-transaction (a long GC pause, a suspended VM) would otherwise stall
 * every replica's writes to the rows it holds, the ledger's lock among them, for the whole freeze
 * (test/postgres/frozen-replica.test.ts). A live one waits milliseconds between its statements.
 */
export const WRITE_IDLE_LIMIT_MS = 500

/**
 * How long a write transaction waits in a row lock's queue before it leaves it and starts again.
 * Below WRITE_IDLE_LIMIT_MS, so that the transactions a frozen replica had queued on a lock give
 * up before its holder is ended, rather than inherit the lock one after another, each for the idle
 * limit (test/postgres/frozen-replica.test.ts). A live replica's transaction starts again. Below
 * deadlock_timeout (1 s) too: of two transactions in a deadlock, the one that queued first leaves.
 */
export const LOCK_QUEUE_LIMIT_MS = 250

/** How many times a transaction that lost a deadlock or a serialization check runs again before its caller gets a 503. */
export const CONFLICT_ATTEMPTS = 5

/** PostgreSQL chose this transaction to undo, to break a deadlock or keep it serializable; running it again is safe. */
const isConflict = (error: unknown): boolean => {
  const code = errorCode(error)
  return code === SQLSTATE.deadlockDetected || code === SQLSTATE.serializationFailure
}

/** The wait in a lock's queue ran past LOCK_QUEUE_LIMIT_MS (already a busy 503, its cause the driver's error). */
const isLockQueueTimeout = (error: unknown): boolean =>
  (errorCode(error) ?? errorCode((error as { cause?: unknown }).cause)) === SQLSTATE.lockNotAvailable

/**
 * The two int4 keys of a claim's advisory lock, from a 64-bit hash of its name (`name`: an SQL
 * text expression). The two-key form (objsubid 2 in pg_locks) is the claims' alone: every key of
 * LOCK_KEYS is taken in the one-key form, so no claim can stand for one of them.
 */
export function claimLockKeys(name: string): string {
  const hash = `hashtextextended(${name}, 0)`
  return `(${hash} >> 32)::int, ((${hash} << 32) >> 32)::int`
}

/**
 * A claim tried without waiting, for the end of a transaction's or a member's opening: a column
 * `claimed`. Its name goes as a literal, escaped by pg, so that the opening stays one simple query.
 */
const tryClaim = (claim: string) => `pg_try_advisory_xact_lock(${claimLockKeys(pg.escapeLiteral(claim))}) as claimed`

/** The first row an opening's last statement answered: `claimed` when it tried a claim. */
type Opened = { claimed?: boolean } | undefined

/** Marks the columns of an opening that tried a claim and ran a prefetch (claimWithPrefetch). */
const CLAIMED_COLUMN = 'paybox_claimed'
const PREFETCHED_COLUMN = 'paybox_prefetched'

/**
 * A claim tried and a read run in one statement: one row with `paybox_claimed`, then the read's
 * columns and `paybox_prefetched` true for each of its rows (left joined: none, one row of nulls).
 * The read's snapshot is the statement's, so it may not yet see what a twin holding the claim
 * committed just before the claim was granted; its caller has a backstop for that.
 */
const claimWithPrefetch = (claim: string, read: string) =>
  `select c.${CLAIMED_COLUMN}, q.* from (select pg_try_advisory_xact_lock(${claimLockKeys(pg.escapeLiteral(claim))}) as ${CLAIMED_COLUMN}) c
    left join lateral (select true as ${PREFETCHED_COLUMN}, r.* from (${read}) r) q on true`

/** The claim's outcome and the read's rows from the rows of claimWithPrefetch. */
function splitPrefetch(rows: Array<Record<string, unknown>>): { claimed: boolean; rows: Array<Record<string, unknown>> } {
  const read = rows
    .filter((row) => row[PREFETCHED_COLUMN] === true)
    .map(({ [CLAIMED_COLUMN]: _claimed, [PREFETCHED_COLUMN]: _prefetched, ...columns }) => columns)
  return { claimed: rows[0]?.[CLAIMED_COLUMN] === true, rows: read }
}

/**
 * Transactions opened by one simple query (BEGIN and what goes with it), their work then given a
 * kysely Transaction on that connection: kysely's db.transaction() sends BEGIN alone, a round trip
 * of its own. A fresh Transaction each time, so nothing keyed by one outlives its attempt.
 */
export class TransactionOpener {
  readonly #props: { config: { dialect: DialectWithDriver }; dialect: DialectWithDriver; driver: Driver }

  constructor(
    private readonly db: Kysely<Database>,
    dialect: DialectWithDriver,
  ) {
    if (dialect.driver === undefined) throw new Error('Open the Kysely instance over the dialect first')
    this.#props = { config: { dialect }, dialect, driver: dialect.driver }
  }

  /**
   * `deferWrites`: the transaction's deferrable writes go with its COMMIT (postgres-deferred-writes.ts);
   * `lazyOpening`, with it: an opening whose answer is not read goes with the first statement sent.
   * `prefetch`: a read the work sends first, answered from the opening's rows or, with
   * `prefetchAssumedEmpty`, as no rows without asking (its caller checks that at COMMIT).
   */
  run<T>(
    opening: string,
    work: (trx: Transaction<Database>, opened: Opened) => Promise<T>,
    options: { deferWrites?: boolean; lazyOpening?: boolean; prefetch?: CompiledQuery; prefetchAssumedEmpty?: boolean } = {},
  ): Promise<T> {
    return this.db.getExecutor().provideConnection(async (connection) => {
      let ended = false
      const deferring = options.deferWrites ? new DeferringConnection(connection, options.lazyOpening ? opening : undefined) : undefined
      const target = deferring ?? connection
      // As kysely's own transactions do, a statement sent once the work is over fails: it would
      // run in whichever transaction the pooled connection serves next.
      const executor = this.db.getExecutor().withConnectionProvider({
        provideConnection: <R>(consume: (connection: DatabaseConnection) => Promise<R>) =>
          ended ? Promise.reject(new Error('This transaction has ended')) : consume(target),
      })
      const trx = new Transaction<Database>({ ...this.#props, executor })
      try {
        let opened: Opened
        if (options.prefetch !== undefined && options.prefetchAssumedEmpty === true) deferring?.answerOnce(options.prefetch, [])
        if (deferring?.sent !== false) {
          const { rows } = await connection.executeQuery<Record<string, unknown>>(CompiledQuery.raw(opening))
          if (options.prefetch === undefined || deferring === undefined) opened = rows[0]
          else {
            const split = splitPrefetch(rows)
            opened = { claimed: split.claimed }
            deferring.answerOnce(options.prefetch, split.rows)
          }
        }
        const value = await work(trx, opened).finally(() => (ended = true))
        await (deferring ? deferring.commit() : connection.executeQuery(CompiledQuery.raw('commit')))
        return value
      } catch (error) {
        ended = true
        // Also after a failed opening or COMMIT, where PostgreSQL only warns; a lost connection
        // fails this too, and the pool drops that connection when it is released. Nothing sent: nothing to end.
        if (deferring?.sent !== false) await connection.executeQuery(CompiledQuery.raw('rollback')).catch(() => {})
        throw error
      }
    })
  }
}

/**
 * Write transactions with nothing sandbox-wide: each on its own connection, ordered only by the
 * row locks its statements take. One that PostgreSQL undoes to break a deadlock (or a
 * serialization failure) runs again, up to CONFLICT_ATTEMPTS times, then is a 503 with Retry-After.
 */
export class ParallelTransactions {
  constructor(
    private readonly opener: TransactionOpener,
    /** Wakes this process's listeners and notes the commit to the others (ChangeChannel), after it. */
    private readonly committed: () => void,
    /** How long a transaction may keep queueing on locks, over all its attempts, before it is a 503 (the session's lock_timeout). */
    private readonly lockWaitMs: number,
  ) {}

  /**
   * `writesOnly` (with a claim and a prefetch): the work reads nothing but the prefetch, so the
   * claim is taken, and the prefetch assumed to answer no rows, in the round trip of the
   * transaction's first statement sent, for a POST /payments its COMMIT: one round trip in all. A
   * held claim fails the transaction there (ClaimTakenError); rows the prefetch would have found
   * must fail it through a backstop (the idempotency record's primary key).
   */
  async run<T>(work: (trx: Transaction<Database>) => Promise<T>, claim?: string, prefetch?: CompiledQuery, writesOnly = false): Promise<T> {
    // One round trip: BEGIN, the idle and lock-queue limits and the claim, if any (its name a literal, escaped, so
    // that the statements go as one simple query), and with the claim the prefetched read, if it can go as text.
    const begin = `begin; set local idle_in_transaction_session_timeout = ${WRITE_IDLE_LIMIT_MS}; set local lock_timeout = ${LOCK_QUEUE_LIMIT_MS}`
    const startedAt = performance.now()
    const atCommit = claim !== undefined && prefetch !== undefined && writesOnly
    const read = claim === undefined || prefetch === undefined || atCommit ? undefined : inlineParameters(prefetch)
    const opening =
      claim === undefined
        ? begin
        : atCommit
          ? `${begin}; select paybox_take_claim(${claimLockKeys(pg.escapeLiteral(claim))})`
          : read === undefined
            ? `${begin}; select ${tryClaim(claim)}`
            : `${begin}; ${claimWithPrefetch(claim, read)}`
    for (let conflicts = 0; ;) {
      try {
        const value = await this.opener.run(
          opening,
          async (trx, opened) => {
            // Held by a transaction of any replica: this one ends at once rather than wait. Taken,
            // it ends with this transaction, before its caller answers.
            if (claim !== undefined && !atCommit && opened?.claimed !== true) throw new ClaimTakenError(claim)
            return work(trx)
          },
          {
            deferWrites: true,
            lazyOpening: claim === undefined || atCommit,
            ...(atCommit ? { prefetch, prefetchAssumedEmpty: true } : read === undefined ? {} : { prefetch }),
          },
        )
        this.committed()
        return value
      } catch (error) {
        if (claim !== undefined && errorCode(error) === SQLSTATE.claimHeld) throw new ClaimTakenError(claim)
        // Out of a lock's queue: in it again, until the session's lock wait is spent (then a 503, busy).
        const requeue = isLockQueueTimeout(error) && performance.now() - startedAt < this.lockWaitMs
        if (!requeue && !isConflict(error)) throw error
        if (!requeue && ++conflicts >= CONFLICT_ATTEMPTS) throw conflictUnavailable(error)
        // A short, random pause, so the transactions that collided do not meet again in step.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * Math.max(1, conflicts)))
      }
    }
  }
}

function conflictUnavailable(error: unknown): ApiError {
  const unavailable = new ApiError(
    503,
    'Service Unavailable',
    'The sandbox database kept refusing this request for a conflict with concurrent ones; retry shortly',
    { 'Retry-After': '1' },
  )
  return Object.assign(unavailable, { cause: error })
}

/** At most this many transactions share one COMMIT (the rest start the next group). */
export const MAX_GROUP_MEMBERS = 64

interface GroupMember {
  work: (trx: Transaction<Database>) => Promise<unknown>
  claim: string | undefined
  resolve(value: unknown): void
  reject(error: unknown): void
}

/** A member's savepoint, then its claim if it has one, tried without waiting. */
const memberOpening = (claim: string | undefined) => `savepoint member${claim === undefined ? '' : `; select ${tryClaim(claim)}`}`

/**
 * Group commit, as the SQLite driver does it (sqlite-driver.ts): the write transactions that
 * arrive while a group is open run one after another as savepoints of one PostgreSQL
 * transaction, which takes the write lock once and commits once for all of them. Under load the
 * round trips of BEGIN, the lock and COMMIT, and the COMMIT's WAL flush, are shared by the group
 * instead of paid, each under the lock, by every transaction.
 * From each caller's view nothing changes: its promise settles only after the shared COMMIT
 * (nothing is acknowledged before it is durable); a transaction that fails rolls back to its
 * savepoint alone and its caller gets its error; a failed COMMIT (or a lost connection) fails
 * every transaction of the group. The advisory lock still orders every writer of every replica:
 * a group holds it from its first statement to its COMMIT. Members see the writes of the members
 * before them, as they would have seen them committed under the lock. A member's claim is held
 * until the group's COMMIT; one held elsewhere fails that member alone.
 */
export class GroupCommit {
  /** The group accepting members, in order; undefined when none is. */
  #open: GroupMember[] | undefined

  constructor(
    private readonly opener: TransactionOpener,
    /** The commit notice its opening sends (pg_notify on the changes channel, with this process's token). */
    private readonly notice: { channel: string; token: string },
    private readonly committed: () => void,
  ) {}

  run<T>(work: (trx: Transaction<Database>) => Promise<T>, claim?: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const member: GroupMember = { work, claim, resolve: resolve as (value: unknown) => void, reject }
      if (this.#open) this.#open.push(member)
      else this.#start([member])
    })
  }

  #start(members: GroupMember[]): void {
    this.#open = members
    void this.#runGroup(members)
  }

  async #runGroup(members: GroupMember[]): Promise<void> {
    const finished: Array<{ member: GroupMember; value: unknown }> = []
    let taken = 0
    const close = () => {
      // Members beyond the group's size start the next group (and new arrivals join that one).
      if (this.#open !== members) return
      const rest = members.splice(taken)
      this.#open = undefined
      if (rest.length > 0) this.#start(rest)
    }
    // One round trip: BEGIN, the lock that orders writers, the note the others hear at commit,
    // and the first member's savepoint and claim. Literals only, so they go as one simple query.
    const opening = `begin; select pg_advisory_xact_lock(${LOCK_KEYS.write}), pg_notify('${this.notice.channel}', '${this.notice.token}'); ${memberOpening(members[0]?.claim)}`
    try {
      await this.opener.run(opening, async (trx, opened) => {
        while (taken < members.length && taken < MAX_GROUP_MEMBERS) {
          const member = members[taken++]!
          // After the first: the previous member's savepoint released (or rolled back), a new one
          // and its claim, in one round trip.
          if (taken > 1)
            opened = (await sql.raw<NonNullable<Opened>>(`release savepoint member; ${memberOpening(member.claim)}`).execute(trx)).rows[0]
          if (member.claim !== undefined && opened?.claimed !== true) {
            member.reject(new ClaimTakenError(member.claim))
            continue
          }
          try {
            finished.push({ member, value: await member.work(trx) })
          } catch (error) {
            // If this fails too (the connection is lost), the whole group fails below.
            await sql.raw('rollback to savepoint member').execute(trx)
            member.reject(error)
          }
        }
        close()
      })
    } catch (error) {
      // The shared transaction failed (its lock wait timed out, the connection was lost, its
      // COMMIT failed): every member of the group fails with it, as each would have alone.
      if (this.#open === members) this.#open = undefined
      for (const { member } of finished) member.reject(error)
      for (const member of members) member.reject(error)
      return
    }
    for (const { member, value } of finished) member.resolve(value)
    if (finished.length > 0) this.committed()
  }
}
