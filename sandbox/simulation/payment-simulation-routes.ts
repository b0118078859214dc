// Merchant-authenticated simulation controls for a payment (sandbox only).
import { Router } from 'express'
import type { SandboxContext } from '../context.js'
import { actOnPayment } from '../payments/payment-action.js'
import { noBody } from '../validation/common.js'
import { expirePayment, failBody, failPayment, payBody, simulateCustomerPayment } from './payment-simulation.js'

export function paymentSimulationRoutes(ctx: SandboxContext): Router {
  const router = Router()

  router.post('/sandbox/payments/:id/pay', async (req, res) => {
    const body = payBody.parse(req.body)
    await actOnPayment(ctx, req, res, (trx, payment) => simulateCustomerPayment(ctx, trx, payment, body))
  })
  router.post('/sandbox/payments/:id/fail', async (req, res) => {
    const body = failBody.parse(req.body)
    await actOnPayment(ctx, req, res, (trx, payment) => failPayment(ctx, trx, payment, body))
  })
  router.post('/sandbox/payments/:id/expire', async (req, res) => {
    noBody.parse(req.body)
    await actOnPayment(ctx, req, res, (trx, payment) => expirePayment(ctx, trx, payment))
  })
  return router
}
