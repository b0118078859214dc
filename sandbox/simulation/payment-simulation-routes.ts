// Merchant-authenticated simulation controls for a payment (sandbox only).
import { Router, type Request } from 'express'
import type { SandboxContext } from '../context.js'
import type { PaymentRow } from '../db/schema.js'
import { currentMerchant } from '../http/auth.js'
import { toPaymentResource } from '../payments/payment-resource.js'
import { getPayment } from '../payments/payment-service.js'
import { noBody } from '../validation/common.js'
import { expirePayment, failBody, failPayment, payBody, simulateCustomerPayment } from './payment-simulation.js'

export function paymentSimulationRoutes(ctx: SandboxContext): Router {
  const router = Router()
  /** Runs a simulation on the merchant's payment in one transaction and answers the payment. */
  const onPayment = async (req: Request, run: (trx: typeof ctx.db, payment: PaymentRow) => Promise<PaymentRow>) => {
    const merchant = currentMerchant(req)
    const id = String(req.params.id)
    const payment = await ctx.db.transaction().execute(async (trx) => run(trx, await getPayment(trx, merchant, id)))
    return toPaymentResource(payment, ctx)
  }

  router.post('/sandbox/payments/:id/pay', async (req, res) => {
    const body = payBody.parse(req.body)
    res.json(await onPayment(req, (trx, payment) => simulateCustomerPayment(ctx, trx, payment, body)))
  })
  router.post('/sandbox/payments/:id/fail', async (req, res) => {
    const body = failBody.parse(req.body)
    res.json(await onPayment(req, (trx, payment) => failPayment(ctx, trx, payment, body)))
  })
  router.post('/sandbox/payments/:id/expire', async (req, res) => {
    noBody.parse(req.body)
    res.json(await onPayment(req, (trx, payment) => expirePayment(ctx, trx, payment)))
  })
  return router
}
