// Customers paying from another chain through the sandbox's simulated bridge (spec 4.5).
import { z } from 'zod'
import { RESPONSE_SCHEMAS } from '../resources.js'
import { endpoint, PAYMENT_ID, QUOTE_ID } from './entry.js'

const chainText = z.string({ message: 'must be a string' }).trim().min(1, { message: 'must not be empty' }).max(128)

export const quoteBody = z.strictObject({
  originChain: chainText,
  originToken: chainText,
  /** An address on the origin chain, where the bridge would return the funds. */
  refundAddress: chainText,
})
export type QuoteBody = z.infer<typeof quoteBody>

export const depositBody = z
  .strictObject({
    /** What the customer sent, in the origin token, decimal text (default: what the order still lacks). */
    amountIn: z.string().trim().min(1).max(80).optional(),
    /** The simulated bridge fails the order: its deposits go back to the refund address. */
    fail: z.boolean({ message: 'must be true or false' }).optional(),
  })
  .optional()
export type DepositBody = z.infer<typeof depositBody>

export const crossChain = {
  quote: endpoint({
    operationId: 'createCrossChainQuote',
    method: 'post',
    path: '/payments/:id/cross-chain/quote',
    security: 'optional-digest',
    authReason: 'Unauthorized',
    summary: 'Quote a payment from another chain',
    tag: 'Payments',
    description:
      "No authentication needed (spec 4.5); credentials that are sent must be valid, and then only the merchant's own payments are found.",
    pathParams: PAYMENT_ID,
    errors: [404, 409],
    body: quoteBody,
    response: RESPONSE_SCHEMAS.CrossChainQuote,
  }),
  /** The quote's bridge order: status, amounts in, out and refunded, the transactions on both chains. */
  status: endpoint({
    operationId: 'getCrossChainQuote',
    method: 'get',
    path: '/cross-chain/quotes/:quoteId',
    security: 'digest',
    authReason: 'Unauthorized',
    summary: "A quote's bridge order: status, amounts in, out and refunded, transactions",
    tag: 'Payments',
    pathParams: QUOTE_ID,
    errors: [404],
    response: RESPONSE_SCHEMAS.CrossChainQuote,
  }),
  chains: endpoint({
    operationId: 'listOriginChains',
    method: 'get',
    path: '/cross-chain/chains',
    security: 'optional-digest',
    authReason: 'Unauthorized',
    summary: 'Origin chains and tokens of cross-chain payments',
    tag: 'Payments',
    errors: [],
    response: RESPONSE_SCHEMAS.OriginChains,
  }),
  /**
   * A deposit arrives at the quote's address (default: what the order still lacks). The quoted
   * amount in before the deadline is swapped and pays the payment over the ledger; a short one
   * waits for the rest; a late one, or with `fail`, is refunded.
   */
  deposit: endpoint({
    operationId: 'simulateDeposit',
    method: 'post',
    path: '/sandbox/cross-chain/quotes/:quoteId/deposit',
    security: 'digest',
    authReason: 'Unauthorized',
    idempotent: true,
    summary: "A deposit arrives at the quote's address: the bridge order holds, swaps or refunds it",
    tag: 'Sandbox',
    pathParams: QUOTE_ID,
    errors: [404, 409, 422],
    body: depositBody,
    response: RESPONSE_SCHEMAS.DepositResult,
  }),
}

/** This file's bodies by the component name the OpenAPI document gives them. */
export const crossChainBodies = { CrossChainQuoteRequest: quoteBody, DepositRequest: depositBody }
