// One handler per kind of step: each calls the API through PayboxClient, as the CLI's own
// commands do, and returns what later steps may refer to. Expectations live in expectations.ts.
import ms from 'ms'
import type { CreateInvoiceRequest, CreatePaymentRequest, SandboxPayRequest } from '../client/types.js'
import { dueInOf } from '../cli/invoice-input.js'
import { overpaymentOf, underpaymentOf } from '../cli/payment-simulation.js'
import { fetchPrecisions } from '../cli/render/payments.js'
import { expectBalance, expectInvoiceNumber, expectValue, expectWebhook } from './expectations.js'
import { StepFailure, type ScenarioRuntime } from './runtime.js'
import type { StepAction, StepArgs } from './schema.js'

type Handler<A extends StepAction> = (args: StepArgs<A>, runtime: ScenarioRuntime) => Promise<unknown>

// Arguments arrive with their references resolved; numbers that came from a reference are
// checked by the API, which answers a clear 400 like any client's request.
export const STEP_HANDLERS: { [A in StepAction]: Handler<A> } = {
  createPayment: ({ idempotencyKey, ...body }, { client }) => client.payments.create(body as CreatePaymentRequest, { idempotencyKey }),
  getPayment: ({ payment }, { client }) => client.payments.get(payment),
  acceptUnderpayment: ({ payment }, { client }) => client.payments.acceptUnderpayment(payment),
  refund: ({ payment, ...body }, { client }) => client.payments.refund(payment, body as { amount?: number }),

  createInvoice: async ({ dueIn, ...body }, runtime) => {
    const due_at = dueIn === undefined ? body.due_at : dueInOf(dueIn, await businessNow(runtime))
    return runtime.client.invoices.create({ ...body, due_at } as CreateInvoiceRequest)
  },
  getInvoice: ({ invoice }, { client }) => client.invoices.get(invoice),
  cancelInvoice: ({ invoice }, { client }) => client.invoices.cancel(invoice),
  invoiceSettings: async (body, { client }) =>
    Object.keys(body).length === 0 ? client.invoices.settings() : client.invoices.updateSettings(body as { next_number?: number }),

  escrowRelease: ({ payment }, { client }) => client.escrow.release(payment),
  escrowFail: ({ payment, reason }, { client }) => client.escrow.fail(payment, { reason }),
  escrowStatus: ({ payment }, { client }) => client.escrow.status(payment),

  crossChainQuote: ({ payment, ...body }, { client }) => client.crossChain.quote(payment, body),
  crossChainDeposit: ({ quote, amountIn, fail }, { client }) =>
    client.crossChain.deposit(quote, { ...(amountIn === undefined ? {} : { amountIn }), ...(fail === undefined ? {} : { fail }) }),
  crossChainStatus: ({ quote }, { client }) => client.crossChain.status(quote),

  createMerchant: (body, runtime) => runtime.admin().sandbox.createMerchant(body as { name: string; settlement_mode: 'direct' | 'escrow' }),

  pay: async ({ payment: id, amount, underpay, overpay, ...rest }, { client }) => {
    const body: SandboxPayRequest = { ...rest, amount: amount as number | undefined }
    if (underpay || overpay) {
      // The same amounts `paybox payments pay --underpay|--overpay` sends.
      const payment = await client.payments.get(id)
      body.amount = underpay ? underpaymentOf(payment, await fetchPrecisions(client)) : overpaymentOf(payment)
    }
    return client.sandbox.pay(id, body)
  },
  failPayment: ({ payment, reason }, { client }) => client.sandbox.fail(payment, { reason }),
  expirePayment: ({ payment }, { client }) => client.sandbox.expire(payment),

  advanceClock: async ({ by }, runtime) => {
    const milliseconds = ms(by as ms.StringValue)
    if (milliseconds < 1000 || milliseconds % 1000 !== 0) throw new StepFailure(`advanceClock.by must be whole seconds, got "${by}"`)
    return runtime.admin().sandbox.advanceClock({ seconds: milliseconds / 1000 })
  },

  expect: expectValue,
  expectWebhook,
  expectInvoiceNumber,
  expectBalance,
}

// Due dates count from business time, ahead of the wall clock once a scenario moved it (without the
// admin token: this computer's clock).
async function businessNow(runtime: ScenarioRuntime): Promise<number> {
  let admin
  try {
    admin = runtime.admin()
  } catch {
    return Date.now()
  }
  return Date.parse((await admin.sandbox.clock()).now)
}
