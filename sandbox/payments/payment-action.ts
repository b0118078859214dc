// A change to one of the authenticated merchant's payments, as the simulation and escrow
// routes make it: find the payment, change it, all in one transaction, and answer the payment
// as it then is. Idempotency-Key is honoured, so a retried pay or release moves money once.
import type { Request, Response } from 'express'
import type { SandboxContext } from '../context.js'
import type { PaymentRow } from '../db/schema.js'
import { currentMerchant } from '../http/auth.js'
import { answerIdempotently } from '../http/idempotent-answer.js'
import { toPaymentResource } from './payment-resource.js'
import { getPayment } from './payment-service.js'

export async function actOnPayment(
  ctx: SandboxContext,
  req: Request,
  res: Response,
  act: (db: SandboxContext['db'], payment: PaymentRow) => Promise<PaymentRow>,
): Promise<void> {
  const merchant = currentMerchant(req)
  const id = String(req.params.id)
  await answerIdempotently(ctx, req, res, async (trx) => toPaymentResource(await act(trx, await getPayment(trx, merchant, id)), ctx))
}
