// A change to one of the merchant's payments in one transaction, for the simulation and escrow routes;
// Idempotency-Key is honoured, so a retried pay or release moves money once. The payment is read
// locked first, so concurrent changes to it, on any replica, apply one at a time.
import type { Request, Response } from 'express'
import type { SandboxContext } from '../context.js'
import type { PaymentRow } from '../db/schema.js'
import { currentMerchant } from '../http/auth.js'
import { answerIdempotently } from '../http/idempotent-answer.js'
import { toPaymentResource } from './payment-resource.js'
import { getPaymentForChange } from './payment-service.js'

export async function actOnPayment(
  ctx: SandboxContext,
  req: Request,
  res: Response,
  act: (db: SandboxContext['db'], payment: PaymentRow) => Promise<PaymentRow>,
): Promise<void> {
  const merchant = currentMerchant(req)
  const id = String(req.params.id)
  await answerIdempotently(ctx, req, res, async (trx) =>
    toPaymentResource(await act(trx, await getPaymentForChange(trx, merchant, id)), ctx),
  )
}
