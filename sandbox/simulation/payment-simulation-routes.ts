// Merchant-authenticated simulation controls for a payment (sandbox only).
import type { SandboxContext } from '../context.js'
import { actOnPayment } from '../payments/payment-action.js'
import { noBody } from '../../src/api/validation.js'
import { failBody } from '../../src/api/contract/sandbox-simulations.js'
import { payBody } from '../../src/api/contract/sandbox-simulations.js'
import { expirePayment, failPayment, simulateCustomerPayment } from './payment-simulation.js'
import type { Handlers } from '../openapi/handlers.js'

export function paymentSimulationHandlers(ctx: SandboxContext) {
  return {
    simulatePay: async (req, res) => {
      const body = payBody.parse(req.body)
      await actOnPayment(ctx, req, res, (trx, payment) => simulateCustomerPayment(ctx, trx, payment, body))
    },
    simulateFailure: async (req, res) => {
      const body = failBody.parse(req.body)
      await actOnPayment(ctx, req, res, (trx, payment) => failPayment(ctx, trx, payment, body))
    },
    simulateExpiry: async (req, res) => {
      noBody.parse(req.body)
      await actOnPayment(ctx, req, res, (trx, payment) => expirePayment(ctx, trx, payment))
    },
  } satisfies Partial<Handlers>
}
