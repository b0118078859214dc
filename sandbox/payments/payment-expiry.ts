// Open payments whose expiresAt has passed on their merchant's business clock become expired.
import type { SandboxContext } from '../context.js'
import { handleDueInBatches } from '../simulation/due-batches.js'
import { moveTo } from './payment-lifecycle.js'
import { findDuePayments } from './payment-repository.js'

export function expireDuePayments(
  ctx: Pick<SandboxContext, 'db' | 'clock' | 'wallClock' | 'payments'>,
  merchantId?: string,
): Promise<number> {
  return handleDueInBatches(
    ctx,
    findDuePayments,
    (db, payment, now) => ctx.payments.save(db, payment, moveTo(payment, 'expired', 'Payment expired', now)),
    merchantId,
  )
}
