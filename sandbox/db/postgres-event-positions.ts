// Positions of payment events on PostgreSQL, in commit order, so that a reader paging by position
// (`listen`, its Last-Event-ID, the webhook feed) never passes a row that commits late.
//
// Replicas commit in parallel, so an identity taken at INSERT is not commit order: T1 takes 100,
// T2 takes 101 and commits first, a reader moves its cursor to 101, and 100 appears behind it.
// Instead an event row arrives without a position (`sequence` null, keyed by `arrival`), and once
// committed it is placed: a pass takes this advisory lock, reads the highest position, gives the
// unplaced rows the next ones (in arrival order) and commits. Why a reader then skips nothing:
// - Passes run one at a time, from the lock to their COMMIT. A pass asks for the lock, and only
//   then (a new statement, so a new snapshot under READ COMMITTED) reads the highest position,
//   so it sees every earlier pass committed (PostgreSQL makes a commit visible before it lets go
//   of the transaction's locks): each pass's positions are above all earlier ones, are unique,
//   and are never changed.
// - So any snapshot that sees a position sees every lower one: the placed rows a reader sees are
//   always a prefix of position order, and a row placed later gets a position above its cursor.
// - Every committed row is placed: the commit wakes a pass on its own replica at once (its commit
//   listeners) and on every other one a little later (the commit's NOTIFY; by then the writer has
//   placed its rows, unless it died first), each started after the commit is visible. A pass that
//   finds unplaced rows waits for the lock rather than skip while another holds it; a failed pass
//   is tried again.
// SQLite needs none of this: its one writer commits in INSERT order, so its rowid is final.
import { sql, type Kysely } from 'kysely'
import type { Database } from './schema.js'

/** How long after a failed pass (a lost connection, a restore replacing the rows) the next one starts. */
const RETRY_MS = 200
/**
 * How long a replica leaves another's commit to that replica before it looks itself: the writer
 * places its own rows in a few ms, so the others' passes would mostly queue for the lock to find nothing.
 */
const STANDBY_MS = 50

export class EventPositions {
  #running: Promise<void> | undefined
  #again = false
  #retry: NodeJS.Timeout | undefined
  #standby: NodeJS.Timeout | undefined
  #stopped = false

  constructor(
    private readonly db: Kysely<Database>,
    /** The advisory lock that orders passes. */
    private readonly lockKey: number,
    /** Wakes the readers of this process and of the other replicas once a pass placed rows (after its COMMIT). */
    private readonly placed: () => void,
  ) {}

  /** After this replica's commit: places what it wrote, now or in the pass after the running one. */
  placeSoon(): void {
    if (this.#stopped) return
    if (this.#running) {
      this.#again = true
      return
    }
    this.#running = this.#passes().finally(() => {
      this.#running = undefined
      if (this.#again) this.placeSoon()
    })
  }

  /** After another replica's commit: places what it wrote if that replica has not (STANDBY_MS later). */
  placeAfterOthers(): void {
    if (this.#stopped || this.#standby) return
    this.#standby = setTimeout(() => {
      this.#standby = undefined
      this.placeSoon()
    }, STANDBY_MS).unref()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#retry)
    clearTimeout(this.#standby)
    await this.#running
  }

  async #passes(): Promise<void> {
    try {
      do {
        this.#again = false
        if (await this.#pass()) this.placed()
      } while (this.#again && !this.#stopped)
    } catch {
      this.#again = false
      if (this.#stopped) return
      clearTimeout(this.#retry)
      this.#retry = setTimeout(() => this.placeSoon(), RETRY_MS).unref()
    }
  }

  /** One pass; whether it placed any row. */
  async #pass(): Promise<boolean> {
    // Without the lock first: most commits wrote no event, and this reads an index that is empty but for them.
    const { rows } = await sql<{ waiting: boolean }>`select exists (select from payment_events where sequence is null) as waiting`.execute(
      this.db,
    )
    if (rows[0]?.waiting !== true) return false
    // Not runTransaction: a pass neither waits for the write lock nor joins a group of writers, only its own lock.
    // Read committed, whatever the server's default: the highest position is read after the lock is granted.
    return this.db
      .transaction()
      .setIsolationLevel('read committed')
      .execute(async (trx) => {
        await sql.raw(`select pg_advisory_xact_lock(${this.lockKey})`).execute(trx)
        const placed = await sql`with last as (select coalesce(max(sequence), 0) as sequence from payment_events),
          unplaced as (select arrival, row_number() over (order by arrival) as n from payment_events where sequence is null)
          update payment_events e set sequence = last.sequence + unplaced.n
          from last, unplaced where e.arrival = unplaced.arrival`.execute(trx)
        // No NOTIFY in here: it would take PostgreSQL's cluster-wide notify lock until COMMIT.
        return Number(placed.numAffectedRows ?? 0) > 0
      })
  }
}
