// Sandbox extensions under merchant auth: what a customer, the network or the escrow contract
// would do, on demand.
import { z } from 'zod'
import { ESCROW_STATUSES, LEDGER_ASSET_CODES, SETTLEMENT_STATUSES } from '../enumerations.js'
import { isAccountAddress, optionalText, pricingAmount } from '../validation.js'
import * as examples from '../examples.js'
import { accountAddress, dateTimeText, decimalText, ledgerOperation, payment, txHash } from '../resources.js'
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

const paymentWebhooksStateExample = { checkout_id: examples.PAYMENT_ID, event_coming: true, pending_deliveries: 1, quiet: false }

/** Whether a payment's webhooks have all been sent, as `paybox trigger` waits for them (sandbox only). */
export const paymentWebhooksState = z
  .object({
    checkout_id: z.string(),
    event_coming: z
      .boolean()
      .describe('An event the sandbox will emit with no one acting: a settlement in processing reports its outcome when its ledger closes'),
    pending_deliveries: z.number().int().describe('Deliveries of its events not yet attempted'),
    quiet: z.boolean().describe('No event coming and no delivery pending: its delivery log is final until someone acts'),
  })
  .meta({ example: paymentWebhooksStateExample })

const CUSTODY = 'GD4C6EUCTBPO7QG3S6NXMUITN76ZC3UWKT6NJ5AY24C2NSV7BAHEAKVJ'

const escrowOrderExample = {
  paymentId: 'pt_01a20da0c7c472a1a2cd10c4bb5a0ed7',
  escrow_order_id: 'eo_076081f700846b72e5ed0b7b',
  escrow_status: 'funded',
  escrow_contract_address: 'CBPKZZVVR3MYYVGPI6XKNJSHAQEFMOJT7TK5F5NSPMOFLRGMGEQN4UBX',
  custody_account: CUSTODY,
  contract_balance: '100.0000000',
  held: '100.0000000',
  platform_fee_account: 'GBFE2N6I3LMFG5YPTPRMNHTLVE2LZ6GOWIGVCUBRTUBEUKIRTJMWVNGY',
  payee: 'GBMEN5ZNWYVQAWWQPJ4PCJ5CZB7XYQ5JM2Y2A5LFE26YXCZRHCC7RBB7',
  escrow_platform_fee_bps: 250,
  escrow_expires_at: '2026-12-01T12:56:10.436Z',
  settlement_status: 'open',
  release: null,
  transactions: [
    {
      hash: 'e69bbea5fcdd926c5a5fc8a57b0c28b08ddf99970dfc8f9ae6d081a0856631f5',
      ledger: 4,
      appliedAt: '2026-11-24T12:56:10.447Z',
      successful: true,
      operations: [{ from: examples.CUSTOMER_ACCOUNT, to: CUSTODY, asset: 'USDC', amount: '100.0000000' }],
    },
  ],
}

export const escrowOrder = z
  .object({
    paymentId: z.string(),
    escrow_order_id: z.string(),
    escrow_status: z.enum(ESCROW_STATUSES),
    escrow_contract_address: z.string(),
    custody_account: accountAddress,
    contract_balance: decimalText,
    held: decimalText,
    platform_fee_account: accountAddress,
    payee: accountAddress,
    escrow_platform_fee_bps: z.number().int(),
    escrow_expires_at: dateTimeText.nullable(),
    settlement_status: z.enum(SETTLEMENT_STATUSES),
    // escrow_status keeps the spec's values (created, funded, failed; no "released"): a release is said here.
    release: z
      .object({
        status: z
          .enum(SETTLEMENT_STATUSES)
          .describe("The settlement the release started: processing until the release's ledger closes, then paid"),
        released_at: dateTimeText,
        transaction: txHash.describe('The release transaction: the payee paid, the platform fee taken'),
      })
      .nullable()
      .describe('What releasing the order did; null until it is released'),
    transactions: z.array(
      z.object({
        hash: txHash,
        ledger: z.number().int(),
        appliedAt: dateTimeText,
        successful: z.boolean(),
        operations: z.array(ledgerOperation.pick({ from: true, to: true, asset: true, amount: true })),
      }),
    ),
  })
  .describe("An escrow merchant's order, its custody and its ledger transactions")
  .meta({ example: escrowOrderExample })

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
    response: payment,
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
    response: paymentWebhooksState,
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
    response: escrowOrder,
  }),
}

/** This file's bodies by the component name the OpenAPI document gives them. */
export const simulationBodies = { SandboxPayRequest: payBody, SandboxFailRequest: failBody }

/** The answers declared here, by the component name the OpenAPI document gives them. */
export const simulationAnswers = { PaymentWebhooksState: paymentWebhooksState, EscrowOrder: escrowOrder }
