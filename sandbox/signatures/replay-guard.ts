// A shared sandbox accepts each digest signature once on requests other than GET and HEAD: a
// captured refund or pay cannot be sent again within its timestamp window, whatever its
// Idempotency-Key (which the signature does not cover). The memory is in the database, so every
// replica refuses what any of them accepted, and each row goes once its window is over.
import { atMostEvery, type Clock } from '../clock.js'
import { isPostgres, runTransaction, type SandboxDb } from '../db/database.js'
import { conflict } from '../errors.js'
import { DIGEST_HEADERS, DIGEST_TOLERANCE_SECONDS } from '../../src/signing.js'
import { forgetSignaturesExpiredBefore, rememberSignature } from './seen-signature-repository.js'

export const REPLAYED_REASON = 'Request signature already used'

/** Reading never changes anything: a replayed GET only shows again what its sender saw. */
const SAFE_METHODS = new Set(['GET', 'HEAD'])

/** Kept this long past their window, in case another replica's clock runs behind this one's. */
export const REPLICA_CLOCK_MARGIN_MS = 60_000
/** Expired signatures are deleted at most this often, by the request that finds it due. */
export const PRUNE_INTERVAL_MS = 10_000

export class ReplayGuard {
  /** Expired signatures are pruned at most once every PRUNE_INTERVAL_MS. */
  readonly #pruneDue: () => boolean

  constructor(
    private readonly db: SandboxDb,
    private readonly wallClock: Clock,
  ) {
    this.#pruneDue = atMostEvery(wallClock, PRUNE_INTERVAL_MS)
  }

  /** Whether a request with this method spends its signature. */
  covers(method: string): boolean {
    return !SAFE_METHODS.has(method.toUpperCase())
  }

  /** Spends `signature` (valid, over x-digest-timestamp `timestamp`), or throws 409 if it was spent before. */
  async spend(signature: string, timestamp: number): Promise<void> {
    // Past this instant every replica refuses the timestamp as too old anyway.
    const expiresAt = (timestamp + DIGEST_TOLERANCE_SECONDS) * 1000
    // PostgreSQL: one statement on its own, its primary key the only lock it needs (not the
    // replicas' write lock). SQLite: it joins the group commit rather than forcing one.
    const fresh = isPostgres(this.db)
      ? await rememberSignature(this.db, signature, expiresAt)
      : await runTransaction(this.db, (trx) => rememberSignature(trx, signature, expiresAt))
    this.#pruneIfDue()
    if (!fresh) {
      throw conflict(
        REPLAYED_REASON,
        `This ${DIGEST_HEADERS.signature} was already accepted: a shared sandbox takes each signature once within its ` +
          `${DIGEST_TOLERANCE_SECONDS} s window, whatever the Idempotency-Key. To send the request again, sign it again with a later ${DIGEST_HEADERS.timestamp}`,
      )
    }
  }

  #pruneIfDue(): void {
    if (!this.#pruneDue()) return
    const now = this.wallClock.now()
    // Not awaited: no request waits for it, and one that fails (the state being swapped) only delays expiry.
    const before = now - REPLICA_CLOCK_MARGIN_MS
    const prune = isPostgres(this.db)
      ? forgetSignaturesExpiredBefore(this.db, before)
      : runTransaction(this.db, (trx) => forgetSignaturesExpiredBefore(trx, before))
    prune.catch(() => {})
  }
}
