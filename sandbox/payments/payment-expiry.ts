// Open payments whose expiresAt has passed on their merchant's business clock become expired.
import type { SandboxContext } from '../context.js'
import { handleDueInBatches } from '../due-batches.js'
import { moveTo } from './payment-lifecycle.js'
import { findDuePayments, findPaymentForChange } from './payment-repository.js'

export function expireDuePayments(
  ctx: Pick<SandboxContext, 'db' | 'clock' | 'wallClock' | 'payments'>,
  merchantId?: string,
): Promise<number> {
  return handleDueInBatches(
    ctx,
    findDuePayments,
    async (db, due, now) => {
      // Read again, locked: a change that committed since the sweep found it (paid, or expired by
      // another replica's sweep) leaves nothing to expire.
      const payment = await findPaymentForChange(db, { id: due.id })
      if (payment?.status !== 'open' || payment.expires_at > now) return
      await ctx.payments.save(db, payment, moveTo(payment, 'expired', 'Payment expired', now))
    },
    merchantId,
  )
}
