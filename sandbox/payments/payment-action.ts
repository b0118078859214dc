// A change to one of the authenticated merchant's payments, as the simulation and escrow
// routes make it: find the payment, change it, all in one transaction, and answer the payment
// as it then is.
import type { Request } from 'express'
import type { SandboxContext } from '../context.js'
import type { PaymentRow } from '../db/schema.js'
import { currentMerchant } from '../http/auth.js'
import { toPaymentResource } from './payment-resource.js'
import { getPayment } from './payment-service.js'
import { runRecordingFailures } from '../ledger/failed-transactions.js'

export async function actOnPayment(
  ctx: SandboxContext,
  req: Request,
  act: (db: SandboxContext['db'], payment: PaymentRow) => Promise<PaymentRow>,
): Promise<Record<string, unknown>> {
  const merchant = currentMerchant(req)
  const id = String(req.params.id)
  // A customer's payment that the ledger includes as failed is recorded even though the change fails.
  const payment = await runRecordingFailures(ctx, async (trx) => act(trx, await getPayment(trx, merchant, id)))
  return toPaymentResource(payment, ctx)
}
