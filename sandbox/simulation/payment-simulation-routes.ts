// Merchant-authenticated simulation controls for a payment (sandbox only).
import { Router } from 'express'
import type { SandboxContext } from '../context.js'
import { currentMerchant } from '../http/auth.js'
import { toPaymentResource } from '../payments/payment-resource.js'
import { payBody, payFromCustomer } from './payment-simulation.js'

export function paymentSimulationRoutes(ctx: SandboxContext): Router {
  const router = Router()
  router.post('/sandbox/payments/:id/pay', async (req, res) => {
    const merchant = currentMerchant(req)
    const body = payBody.parse(req.body)
    const payment = await ctx.db.transaction().execute((trx) => payFromCustomer(ctx, trx, merchant, req.params.id, body))
    res.json(toPaymentResource(payment, ctx))
  })
  return router
}
