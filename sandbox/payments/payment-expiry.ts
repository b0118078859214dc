// Open payments whose expiresAt has passed on the business clock become expired.
import type { SandboxContext } from '../context.js'
import { moveTo, savePaymentChange } from './payment-lifecycle.js'
import { findDuePayments } from './payment-repository.js'

const BATCH = 200

/** Expires every due payment, a batch per transaction; returns how many it expired. */
export async function expireDuePayments(ctx: SandboxContext): Promise<number> {
  let expired = 0
  for (;;) {
    const now = ctx.clock.now()
    const count = await ctx.db.transaction().execute(async (trx) => {
      const due = await findDuePayments(trx, now, BATCH)
      for (const payment of due) await savePaymentChange(trx, payment, moveTo(payment, 'expired', 'Payment expired', now))
      return due.length
    })
    expired += count
    if (count < BATCH) return expired
  }
}
