// Merchants by API key (authentication) or by id (a replica's webhook sending) on PostgreSQL,
// where each lookup is a round trip. Every change of a merchant row (a key rotated, archived,
// settings, a clock set) notifies every replica at its commit, this one included (the trigger of
// migration 2026-11-27T16-00), and each drops its entries then. SQLite keeps no cache: its lookup
// is a function call, and another process sharing the file has no way to tell this one.
import type { SandboxDb } from '../db/database.js'
import { isPostgres, onAnnouncement } from '../db/database.js'
import type { MerchantRow } from '../db/schema.js'

/** The announcement topic of a merchant's change; its detail is the merchant's id. */
export const MERCHANT_CHANGED = 'merchant'

/** Merchants at most: one looked up beyond them is read from the database each time. */
export const MERCHANT_CACHE_LIMIT = 10_000

/** Writes of merchant rows by this process: each cache clears itself when it sees this move. */
let localWrites = 0

/**
 * Drops every cached merchant of this process: called by each write of a merchant row, so a
 * lookup that started before the write commits cannot keep what it read (see `find`).
 */
export function forgetCachedMerchants(): void {
  localWrites++
}

export class MerchantCache {
  readonly #byKey = new Map<string, MerchantRow>()
  readonly #enabled: boolean
  /** Moved by every clear (heard from a replica, or seen in localWrites). */
  #generation = 0
  #localWrites = localWrites

  constructor(
    db: SandboxDb,
    /** The merchant of a key (an API key, or an id), read from the database. */
    private readonly load: (key: string) => Promise<MerchantRow | undefined>,
  ) {
    this.#enabled = isPostgres(db)
    // Any merchant's change clears all: changes are rare, and an API key is not known from an id.
    // Never removed: the listener lives as long as `db`, each core's own, destroyed when it stops.
    if (this.#enabled) onAnnouncement(db, MERCHANT_CHANGED, () => this.#clear())
  }

  #clear(): void {
    this.#generation++
    this.#byKey.clear()
  }

  #current(): number {
    if (this.#localWrites !== localWrites) {
      this.#localWrites = localWrites
      this.#clear()
    }
    return this.#generation
  }

  async find(key: string): Promise<MerchantRow | undefined> {
    if (!this.#enabled) return this.load(key)
    const generation = this.#current()
    const kept = this.#byKey.get(key)
    if (kept !== undefined) return kept
    const merchant = await this.load(key)
    // Never a merchant with a clock of its own: its clock is read from its row on every request
    // (docs/clocks.md). One without follows the sandbox-wide clock until a clock is set, which
    // notifies. A lookup that saw a clear while it read keeps nothing: it may have read the old row.
    const cacheable = merchant !== undefined && merchant.clock_offset_ms === null && merchant.clock_frozen_at === null
    if (cacheable && generation === this.#current() && this.#byKey.size < MERCHANT_CACHE_LIMIT) this.#byKey.set(key, merchant)
    return merchant
  }
}
