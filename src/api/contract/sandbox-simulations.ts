// Sandbox extensions under merchant auth: what a customer, the network or the escrow contract
// would do, on demand.
import { z } from 'zod'
import { LEDGER_ASSET_CODES } from '../enumerations.js'
import { RESPONSE_SCHEMAS } from '../resources.js'
import { isAccountAddress, optionalText, pricingAmount } from '../validation.js'
import { endpoint, PAYMENT_ID } from './entry.js'

/** Failing a payment or an escrow order's funding: an optional reason for the history. */
export const failBody = z.strictObject({ reason: optionalText(200) }).optional()
export type FailBody = z.infer<typeof failBody>

/** Stellar's limit for a text memo. */
const MAX_TEXT_MEMO_BYTES = 28

/** A sandbox customer wallet pays over the ledger (POST /sandbox/payments/{id}/pay). */
export const payBody = z
  .strictObject({
    /** Smallest units of the pricing currency; default: what remains. */
    amount: pricingAmount.optional(),
    // Or what to pay, the sandbox deciding how much (docs/payment-lifecycle.md), so that every
    // client of the simulation (CLI, checkout buttons, dashboard, scenarios) pays the same.
    underpay: z.boolean().describe('Pay half of what remains, rounded down, leaving the payment underpaid').optional(),
    overpay: z.boolean().describe('Pay what remains plus a tenth of the amount (rounded half up, at least one unit)').optional(),
    /** The paying customer wallet (G…); default: the one holding the most USDC. */
    from: z.string().refine(isAccountAddress, { message: 'must be a Stellar account address (G…)' }).optional(),
    /** Make the payment's settlement fail when it comes. */
    failSettlement: z.boolean().optional(),
    // A customer's mistakes: the money lands on the destination, but the memo matcher credits
    // nothing (another memo names no payment, or another payment; XLM is not the priced asset).
    memo: z
      .string()
      .min(1, { message: 'must not be empty' })
      .refine((memo) => Buffer.byteLength(memo, 'utf8') <= MAX_TEXT_MEMO_BYTES, { message: `must be at most ${MAX_TEXT_MEMO_BYTES} bytes` })
      .optional(),
    asset: z.enum(LEDGER_ASSET_CODES, { message: `must be ${LEDGER_ASSET_CODES.join(' or ')}` }).optional(),
  })
  .refine((body) => !body.failSettlement || ((body.asset ?? 'USDC') === 'USDC' && body.memo === undefined), {
    message: "applies only to a payment with the payment's own memo, in USDC",
    path: ['failSettlement'],
  })
  .superRefine((body, context) => {
    const given = (['amount', 'underpay', 'overpay'] as const).filter((field) =>
      field === 'amount' ? body.amount !== undefined : body[field],
    )
    if (given.length > 1) {
      context.addIssue({
        code: 'custom',
        path: [given[1]!],
        message: `cannot be sent with ${given[0]}: send at most one of amount, underpay, overpay`,
      })
    }
    // Both are measured against what the payment's own memo pays in USDC.
    const intent = given.find((field) => field !== 'amount')
    if (intent !== undefined && ((body.asset ?? 'USDC') !== 'USDC' || body.memo !== undefined)) {
      context.addIssue({ code: 'custom', path: [intent], message: "applies only to a payment with the payment's own memo, in USDC" })
    }
  })
  .optional()
export type PayBody = z.infer<typeof payBody>

/** A money-moving POST on one payment: digest auth, an Idempotency-Key, the payment as it now is. */
const paymentAction = <const Id extends string, const Path extends string>(operationId: Id, path: Path, summary: string) =>
  ({
    operationId,
    method: 'post',
    path,
    security: 'digest',
    authReason: 'Unauthorized',
    idempotent: true,
    summary,
    tag: 'Sandbox',
    pathParams: PAYMENT_ID,
    errors: [404, 409, 422],
    response: RESPONSE_SCHEMAS.Payment,
  }) as const

export const simulations = {
  /** A sandbox customer wallet pays the payment over the ledger (default: what remains). */
  pay: endpoint({
    ...paymentAction('simulatePay', '/sandbox/payments/:id/pay', 'A sandbox customer wallet pays over the ledger (default: what remains)'),
    body: payBody,
  }),
  /** Simulates a processing failure: the payment becomes failed. */
  fail: endpoint({
    ...paymentAction('simulateFailure', '/sandbox/payments/:id/fail', 'Simulate a processing failure'),
    body: failBody,
  }),
  /** Expires the payment now, whatever its expiresAt. */
  expire: endpoint({
    ...paymentAction('simulateExpiry', '/sandbox/payments/:id/expire', 'Expire an open payment now'),
  }),
  /** Whether the payment's webhooks have all been sent: what `paybox trigger` waits for. */
  webhooksState: endpoint({
    operationId: 'getPaymentWebhooksState',
    method: 'get',
    path: '/sandbox/payments/:id/webhooks',
    security: 'digest',
    authReason: 'Unauthorized',
    summary: "Whether a payment's webhooks have all been sent: no event coming, no delivery pending",
    tag: 'Sandbox',
    pathParams: PAYMENT_ID,
    errors: [404],
    response: RESPONSE_SCHEMAS.PaymentWebhooksState,
  }),
}

/**
 * An escrow merchant's escrow orders. An order is funded by paying its payment (sandbox.pay); a
 * direct merchant's payment has none (409).
 */
export const escrow = {
  /** Pays the payee what the order holds less the platform fee, and the platform the fee, in one ledger transaction. */
  release: endpoint({
    ...paymentAction('releaseEscrow', '/sandbox/payments/:id/escrow/release', 'Release a funded escrow order to its payee'),
  }),
  /** Simulates a failed funding of an unfunded order: the order and its payment fail. */
  fail: endpoint({
    ...paymentAction('failEscrow', '/sandbox/payments/:id/escrow/fail', 'Simulate a failed escrow funding'),
    body: failBody,
  }),
  /** The order with its custody balance and its ledger transactions. */
  status: endpoint({
    operationId: 'getEscrowOrder',
    method: 'get',
    path: '/sandbox/payments/:id/escrow',
    security: 'digest',
    authReason: 'Unauthorized',
    summary: 'An escrow order with its custody and ledger transactions',
    tag: 'Sandbox',
    pathParams: PAYMENT_ID,
    errors: [404, 409],
    response: RESPONSE_SCHEMAS.EscrowOrder,
  }),
}

/** This file's bodies by the component name the OpenAPI document gives them. */
export const simulationBodies = { SandboxPayRequest: payBody, SandboxFailRequest: failBody }
