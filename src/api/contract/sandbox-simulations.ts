// Sandbox extensions under merchant auth: what a customer, the network or the escrow contract
// would do, on demand.
import { REQUEST_BODIES } from '../requests.js'
import { RESPONSE_SCHEMAS } from '../resources.js'
import { endpoint, PAYMENT_ID } from './entry.js'

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
    body: REQUEST_BODIES.SandboxPayRequest,
  }),
  /** Simulates a processing failure: the payment becomes failed. */
  fail: endpoint({
    ...paymentAction('simulateFailure', '/sandbox/payments/:id/fail', 'Simulate a processing failure'),
    body: REQUEST_BODIES.SandboxFailRequest,
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
    body: REQUEST_BODIES.SandboxFailRequest,
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
