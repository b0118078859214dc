// Writes what became of each sent delivery to the log, and tells the other replicas: each replica
// sends its own claims, so the others' live tails hear of finished deliveries through announcements.
import type { Kysely } from 'kysely'
import { announceCommitted, isPostgres, onAnnouncement, runTransaction } from '../db/database.js'
import type { Database, WebhookDeliveryRow } from '../db/schema.js'
import { logClaimedOutcomes } from './delivery-claim-repository.js'
import type { WebhookFeed } from './webhook-feed.js'
import { findDeliveriesByIds, logDeliveryOutcomes } from './webhook-repository.js'

/** What the sending replica tells the others as it logs deliveries: their ids, comma-separated. */
const DELIVERED_TOPIC = 'delivered'
/**
 * PostgreSQL: what each log transaction also does once its outcomes are in (the replica's next
 * claim), returning what to do once the transaction has ended (committed or not).
 */
export type AlsoInLog = (trx: Kysely<Database>) => Promise<(committed: boolean) => void>

/** Ids per announcement: 100 UUIDs and their commas stay far below NOTIFY's payload limit. */
const DELIVERIES_PER_ANNOUNCEMENT = 100
/** How long logged deliveries wait to be announced with those logged after them: another replica's live tail hears of them this much later at most. */
export const ANNOUNCE_DELIVERED_EVERY_MS = 50

export interface DeliveryLogWriterOptions {
  db: Kysely<Database>
  /** This replica's listeners: told of each delivery it logs, and of those the others announce. */
  feed: WebhookFeed
  log?: (line: string) => void
  alsoInLog?: AlsoInLog
  /** Defaults to ANNOUNCE_DELIVERED_EVERY_MS. */
  announceEveryMs?: number
}

export class DeliveryLogWriter {
  readonly #db: Kysely<Database>
  readonly #feed: WebhookFeed
  readonly #log: ((line: string) => void) | undefined
  readonly #alsoInLog: AlsoInLog | undefined
  readonly #announceEveryMs: number
  /** Finished deliveries waiting to be logged together, each with who awaits it. */
  #unlogged: Array<{ row: WebhookDeliveryRow; done: (logged: boolean, error?: unknown) => void }> = []
  /** A batch is being written (or is about to be): the next waits for it. */
  #writing = false
  /** PostgreSQL: logged deliveries waiting to be announced, and the timer that will. */
  #toAnnounce: string[] = []
  #announcing: NodeJS.Timeout | undefined

  constructor(options: DeliveryLogWriterOptions) {
    this.#db = options.db
    this.#feed = options.feed
    this.#log = options.log
    this.#alsoInLog = options.alsoInLog
    this.#announceEveryMs = options.announceEveryMs ?? ANNOUNCE_DELIVERED_EVERY_MS
  }

  /**
   * Logs a finished delivery, announces it, and tells this replica's listeners. False when its
   * claim was no longer its own (PostgreSQL: the lease expired and another replica claimed it):
   * the newer attempt's log stands.
   */
  async finished(row: WebhookDeliveryRow): Promise<boolean> {
    const logged = await this.#logSoon(row)
    if (logged) this.#feed.delivered(row)
    else this.#log?.(`Webhook ${row.id}: its claim expired before its outcome was logged; the newer attempt's stands`)
    return logged
  }

  /** A delivery that broke the sandbox itself is logged failed, so it is not attempted forever. */
  async giveUp(delivery: WebhookDeliveryRow, error: unknown, now: number): Promise<void> {
    const message = error instanceof Error ? error.message : String(error)
    this.#log?.(`Webhook ${delivery.id} could not be delivered: ${message}`)
    const failed = { ...delivery, status: 'failed' as const, error_message: `The sandbox could not send it: ${message}`, updated_at: now }
    await this.#logSoon(failed).catch(() => false)
  }

  /** Hears of deliveries another replica logged; returns the way to stop. */
  hearOtherReplicas(): () => void {
    return onAnnouncement(this.#db, DELIVERED_TOPIC, (ids) => void this.#heardDelivered(ids))
  }

  /** Another replica logged these deliveries (ids, comma-separated): tells this one's listeners. */
  async #heardDelivered(ids: string | undefined): Promise<void> {
    if (!ids) return
    try {
      await this.#feed.heardDelivered(() => findDeliveriesByIds(this.#db, ids.split(',')))
    } catch (error) {
      // A live tail misses them; the delivery log still has them.
      this.#log?.(`Reading deliveries logged by another replica failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  /**
   * PostgreSQL: logs the outcomes still claimed by this replica and claims the next deliveries, in
   * one transaction of its own: not runTransaction's, whose commit notice would wake every replica
   * to claim again, while this one has just claimed what was free. Announced once committed, off
   * the transaction (a NOTIFY in it would hold the cluster's notify lock through its COMMIT, so
   * every replica's log transactions would commit one at a time), with those logged soon after.
   */
  async #logOnPostgres(rows: WebhookDeliveryRow[]): Promise<Set<string>> {
    let after: ((committed: boolean) => void) | undefined
    let logged: Set<string>
    try {
      logged = await this.#db.transaction().execute(async (trx) => {
        const inLog = await logClaimedOutcomes(trx, rows)
        after = await this.#alsoInLog?.(trx)
        return inLog
      })
    } catch (error) {
      after?.(false)
      throw error
    }
    after?.(true)
    this.#announceSoon(rows.map((finished) => finished.id).filter((id) => logged.has(id)))
    return logged
  }

  /**
   * PostgreSQL: the deliveries logged within the announcement window (announceEveryMs) are announced together:
   * each announcement is a statement of this replica and a wake-up of every other, and a busy
   * replica commits a log transaction every few milliseconds.
   */
  #announceSoon(ids: readonly string[]): void {
    if (ids.length === 0) return
    this.#toAnnounce.push(...ids)
    this.#announcing ??= setTimeout(() => this.announceNow(), this.#announceEveryMs)
  }

  /** Announces the logged deliveries not announced yet, at once (the dispatcher calls it as it stops). */
  announceNow(): void {
    clearTimeout(this.#announcing)
    this.#announcing = undefined
    const ids = this.#toAnnounce
    this.#toAnnounce = []
    for (let at = 0; at < ids.length; at += DELIVERIES_PER_ANNOUNCEMENT) {
      announceCommitted(this.#db, DELIVERED_TOPIC, ids.slice(at, at + DELIVERIES_PER_ANNOUNCEMENT).join(','))
    }
  }

  /**
   * Logs a finished delivery with the others that finish before its batch goes; whether it was.
   * One batch is written at a time: the deliveries that finish while it is written wait for it and
   * go together in the next, so a busy replica's batches grow with its load (fewer transactions,
   * claims and commits per delivery), and a quiet one's leave in the next turn of the event loop.
   */
  #logSoon(row: WebhookDeliveryRow): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.#unlogged.push({ row, done: (logged, error) => (error === undefined ? resolve(logged) : reject(error)) })
      this.#writeSoon()
    })
  }

  #writeSoon(): void {
    if (this.#writing || this.#unlogged.length === 0) return
    this.#writing = true
    setImmediate(() => {
      const batch = this.#unlogged
      this.#unlogged = []
      const rows = batch.map(({ row: finished }) => finished)
      const logging = isPostgres(this.#db) ? this.#logOnPostgres(rows) : runTransaction(this.#db, (trx) => logAll(trx, rows))
      void logging
        .then(
          (logged) => batch.forEach(({ row: finished, done }) => done(logged.has(finished.id))),
          (error: unknown) => batch.forEach(({ done }) => done(false, error)),
        )
        .finally(() => {
          this.#writing = false
          this.#writeSoon()
        })
    })
  }
}

/** SQLite's one process claims nothing: every outcome is logged. */
async function logAll(db: Kysely<Database>, rows: WebhookDeliveryRow[]): Promise<Set<string>> {
  await logDeliveryOutcomes(db, rows)
  return new Set(rows.map((row) => row.id))
}
