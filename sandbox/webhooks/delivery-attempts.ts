// One delivery's attempt: the merchant and egress rule it goes under, the signed POST, and its
// outcome written to the log.
import type { Kysely } from 'kysely'
import { atMostEvery, type Clock } from '../clock.js'
import type { Database, MerchantRow, WebhookDeliveryRow } from '../db/schema.js'
import { MerchantCache } from '../merchants/merchant-cache.js'
import { findMerchantById } from '../merchants/merchant-repository.js'
import { releaseClaims } from './delivery-claim-repository.js'
import type { DeliveryLogWriter } from './delivery-log-writer.js'
import type { StoredEgress } from './egress-policy.js'
import type { WebhookEgress } from './webhook-egress.js'
import type { WebhookSender } from './webhook-sender.js'

/** A delivery's merchant, and the sandbox's egress rule (whichever replica sends enforces the stored one). */
export interface AttemptLookups {
  merchantOf(merchantId: string): Promise<MerchantRow | undefined>
  egressOf(): Promise<WebhookEgress>
}

/** How long (wall time) one read of the stored egress rule serves the deliveries sent after it. */
export const EGRESS_READ_EVERY_MS = 250

export class DeliveryAttempts {
  readonly #db: Kysely<Database>
  readonly #clock: Clock
  readonly #sender: WebhookSender
  readonly #egress: StoredEgress
  readonly #logWriter: DeliveryLogWriter
  /** Merchants by id, kept between sends on PostgreSQL (a round trip each otherwise), dropped at any merchant's change. */
  readonly #merchants: MerchantCache
  /** The last read of the egress rule, shared by the batches sent until it is EGRESS_READ_EVERY_MS old. */
  #egressRead: Promise<WebhookEgress> | undefined
  readonly #egressReadDue: () => boolean

  constructor(parts: {
    db: Kysely<Database>
    /** Business time, for the log's timestamps. */
    clock: Clock
    /** Wall-clock time, for how long the egress rule read serves. */
    wallClock: Clock
    sender: WebhookSender
    egress: StoredEgress
    logWriter: DeliveryLogWriter
  }) {
    this.#db = parts.db
    this.#clock = parts.clock
    this.#egressReadDue = atMostEvery(parts.wallClock, EGRESS_READ_EVERY_MS)
    this.#sender = parts.sender
    this.#egress = parts.egress
    this.#logWriter = parts.logWriter
    this.#merchants = new MerchantCache(parts.db, (id) => findMerchantById(parts.db, id))
  }

  /** Lookups for deliveries sent together: each merchant looked up once, the egress rule read at most once a poll. */
  lookups(): AttemptLookups {
    const merchants = new Map<string, Promise<MerchantRow | undefined>>()
    return {
      merchantOf: (id) => {
        let merchant = merchants.get(id)
        if (merchant === undefined) merchants.set(id, (merchant = this.#merchants.find(id)))
        return merchant
      },
      egressOf: () => this.#egressRule(),
    }
  }

  /**
   * The stored egress rule, read again once EGRESS_READ_EVERY_MS (wall time) have passed since the
   * last read: it changes only when no other replica serves the sandbox (docs/security.md), and
   * a read per batch sent was a round trip per log transaction. A failed read is not kept.
   */
  #egressRule(): Promise<WebhookEgress> {
    if (this.#egressReadDue() || this.#egressRead === undefined) {
      const rule = this.#egress.read(this.#db)
      this.#egressRead = rule
      rule.catch(() => {
        if (this.#egressRead === rule) this.#egressRead = undefined
      })
    }
    return this.#egressRead
  }

  /** Sends and logs one delivery; `answered` runs once the receiver answered, before the log is written. */
  async deliver(
    delivery: WebhookDeliveryRow,
    lookups: AttemptLookups = this.lookups(),
    answered: () => void = () => {},
  ): Promise<WebhookDeliveryRow> {
    const merchant = await lookups.merchantOf(delivery.merchant_id)
    if (!merchant) throw new Error(`Webhook ${delivery.id} belongs to no merchant`)
    const attempt = await this.#sender.attempt(delivery, merchant, await lookups.egressOf())
    answered()
    if (attempt === undefined) {
      // Stopped mid-send: it stays pending, and its claim (PostgreSQL) is let go for any replica to take.
      await releaseClaims(this.#db, [delivery]).catch(() => {})
      return delivery
    }
    const { tried, ...outcome } = attempt
    const now = this.#clock.now()
    const finished: WebhookDeliveryRow = { ...delivery, ...outcome, updated_at: now, last_attempt_at: tried ? now : null }
    await this.#logWriter.finished(finished)
    return finished
  }

  /** A delivery that broke the sandbox itself is logged failed, so it is not attempted forever. */
  giveUp(delivery: WebhookDeliveryRow, error: unknown): Promise<void> {
    return this.#logWriter.giveUp(delivery, error, this.#clock.now())
  }
}
