// Writes what became of each sent delivery to the log, and tells the other replicas: only the
// leading replica sends, so the others' live tails hear of finished deliveries through announcements.
import type { Kysely } from 'kysely'
import { announce, onAnnouncement, runTransaction } from '../db/database.js'
import type { Database, WebhookDeliveryRow } from '../db/schema.js'
import type { WebhookFeed } from './webhook-feed.js'
import { findDeliveriesByIds, logDeliveryOutcomes, updateDelivery } from './webhook-repository.js'

/** What the sending replica tells the others as it logs deliveries: their ids, comma-separated. */
const DELIVERED_TOPIC = 'delivered'
/** Ids per announcement: 100 UUIDs and their commas stay far below NOTIFY's payload limit. */
const DELIVERIES_PER_ANNOUNCEMENT = 100

export class DeliveryLogWriter {
  readonly #db: Kysely<Database>
  readonly #feed: WebhookFeed
  readonly #log: ((line: string) => void) | undefined
  /** Finished deliveries waiting to be logged together, each with who awaits it. */
  #unlogged: Array<{ row: WebhookDeliveryRow; done: (error?: unknown) => void }> = []

  constructor(db: Kysely<Database>, feed: WebhookFeed, log: ((line: string) => void) | undefined) {
    this.#db = db
    this.#feed = feed
    this.#log = log
  }

  /** Logs a finished delivery, announces it, and tells this replica's listeners. */
  async finished(row: WebhookDeliveryRow): Promise<void> {
    await this.#logSoon(row)
    this.#feed.delivered(row)
  }

  /** A delivery that broke the sandbox itself is logged failed, so it is not attempted forever. */
  async giveUp(delivery: WebhookDeliveryRow, error: unknown, now: number): Promise<void> {
    const message = error instanceof Error ? error.message : String(error)
    this.#log?.(`Webhook ${delivery.id} could not be delivered: ${message}`)
    await updateDelivery(this.#db, delivery.id, {
      status: 'failed',
      error_message: `The sandbox could not send it: ${message}`,
      updated_at: now,
    }).catch(() => {})
  }

  /** Hears of deliveries another replica logged; returns the way to stop. */
  hearOtherReplicas(): () => void {
    return onAnnouncement(this.#db, DELIVERED_TOPIC, (ids) => void this.#heardDelivered(ids))
  }

  /** Another replica logged these deliveries (ids, comma-separated): tells this one's listeners, if it has any. */
  async #heardDelivered(ids: string | undefined): Promise<void> {
    if (!ids || !this.#feed.hasDeliveryListeners) return
    try {
      for (const delivery of await findDeliveriesByIds(this.#db, ids.split(','))) this.#feed.delivered(delivery)
    } catch (error) {
      // A live tail misses them; the delivery log still has them.
      this.#log?.(`Reading deliveries logged by another replica failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  /** Deliveries finishing in one turn of the event loop are logged in one transaction (one commit). */
  #logSoon(row: WebhookDeliveryRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#unlogged.push({ row, done: (error) => (error === undefined ? resolve() : reject(error)) })
      if (this.#unlogged.length > 1) return
      setImmediate(() => {
        const batch = this.#unlogged
        this.#unlogged = []
        const rows = batch.map(({ row: finished }) => finished)
        runTransaction(this.#db, async (trx) => {
          await logDeliveryOutcomes(trx, rows)
          for (let at = 0; at < rows.length; at += DELIVERIES_PER_ANNOUNCEMENT) {
            const ids = rows.slice(at, at + DELIVERIES_PER_ANNOUNCEMENT).map((row) => row.id)
            await announce(this.#db, trx, DELIVERED_TOPIC, ids.join(','))
          }
        }).then(
          () => batch.forEach(({ done }) => done()),
          (error: unknown) => batch.forEach(({ done }) => done(error)),
        )
      })
    })
  }
}
