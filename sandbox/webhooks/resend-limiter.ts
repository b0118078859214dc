// At most 10 resends per minute per merchant (spec 8), counted in the database under the merchant's
// row lock, so that every replica counts the same resends.
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { runTransaction } from '../db/database.js'
import type { Database } from '../db/schema.js'
import { lockMerchant } from '../merchants/merchant-repository.js'
import { insertResendTime, recentResendTimes } from './webhook-repository.js'

export const RESENDS_PER_MINUTE = 10
const WINDOW_MS = 60_000

export type ResendAllowance = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export class ResendLimiter {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** Takes one resend for the merchant; if the window is full, the seconds until one frees up. */
  take(merchantId: string): Promise<ResendAllowance> {
    const now = this.clock.now()
    return runTransaction(this.db, async (trx) => {
      // The merchant's row, locked: its resends are counted one transaction at a time, whichever replica asks.
      await lockMerchant(trx, merchantId)
      const recent = await recentResendTimes(trx, merchantId, now - WINDOW_MS, RESENDS_PER_MINUTE)
      if (recent.length >= RESENDS_PER_MINUTE) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now) / 1000)) }
      }
      await insertResendTime(trx, merchantId, now)
      return { allowed: true }
    })
  }
}
