// Customers paying from another chain through the sandbox's simulated bridge (spec 4.5).
import { z } from 'zod'
import * as examples from '../examples.js'
import { BRIDGE_ORDER_STATUSES } from '../enumerations.js'
import { dateTimeText, decimalText, payment, txHash } from '../resources.js'
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

const crossChainQuoteExample = {
  quoteId: 'qt_01a20da0c7e0708ca22cf14251b9321c',
  paymentId: 'pt_01a20da0c7dc7492a24c04f615f2d924',
  originChain: 'ethereum',
  originToken: 'USDC',
  depositAddress: '0x49e38e6598666ce5455f004df01ece2b1a4ae1cd',
  amountIn: '10.03',
  amountOut: '10.0000000',
  bridgeFeeBps: 30,
  refundAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
  expiresAt: '2026-11-24T13:11:10.464Z',
  status: 'SUCCESS',
  amountDeposited: '10.03',
  amountRefunded: '0',
  usdcDelivered: '10.0000000',
  supersededBy: null,
  depositTxId: '3309671d1d4b8ea29cecc1dbc8ce0576b01022dccacf879db8a1c582ce6188a4',
  transactions: {
    origin: [
      {
        type: 'deposit',
        hash: '0x622c01b87241be1800b53bc4c20b7ec45de8923a7d4e4e339daa52467f5babb1',
        amount: '10.03',
        at: '2026-11-24T12:56:10.467Z',
      },
    ],
    stellar: [{ type: 'delivery', hash: '3309671d1d4b8ea29cecc1dbc8ce0576b01022dccacf879db8a1c582ce6188a4' }],
  },
  history: [
    { status: 'PENDING_DEPOSIT', at: '2026-11-24T12:56:10.464Z' },
    { status: 'KNOWN_DEPOSIT_TX', at: '2026-11-24T12:56:10.467Z' },
    { status: 'PROCESSING', at: '2026-11-24T12:56:10.467Z' },
    { status: 'SUCCESS', at: '2026-11-24T12:56:10.467Z' },
  ],
}

export const crossChainQuote = z
  .object({
    quoteId: z.string(),
    paymentId: z.string(),
    originChain: z.string(),
    originToken: z.string(),
    depositAddress: z.string(),
    amountIn: z.string().describe('Origin token to send, decimal text, bridge fee included'),
    amountOut: decimalText.describe('USDC that arrives'),
    bridgeFeeBps: z.number().int(),
    refundAddress: z.string(),
    expiresAt: dateTimeText.describe("The order's deadline on the business clock"),
    status: z.enum(BRIDGE_ORDER_STATUSES).describe("The bridge order's status (docs/bridge.md)"),
    amountDeposited: z.string().describe('Origin token deposited so far, decimal text'),
    amountRefunded: z.string().describe('Origin token sent back to refundAddress, decimal text'),
    usdcDelivered: decimalText.describe('USDC the bridge delivered to the payment'),
    supersededBy: z.string().nullable().describe('The newer quote of the same payment that replaced this one'),
    depositTxId: txHash.optional().describe('The Stellar transaction that delivered the USDC'),
    transactions: z.object({
      origin: z.array(z.object({ type: z.enum(['deposit', 'refund']), hash: z.string(), amount: z.string(), at: dateTimeText })),
      stellar: z.array(z.object({ type: z.literal('delivery'), hash: txHash })),
    }),
    history: z.array(z.object({ status: z.enum(BRIDGE_ORDER_STATUSES), at: dateTimeText })),
  })
  .describe('A cross-chain quote: a bridge order (spec 4.5; docs/bridge.md)')
  .meta({ example: crossChainQuoteExample })

const originChainsExample = {
  bridgeFeeBps: 30,
  items: [
    {
      id: 'ethereum',
      name: 'Ethereum',
      addressFormat: 'evm',
      tokens: [
        { symbol: 'USDC', decimals: 6, usdRate: '1' },
        { symbol: 'ETH', decimals: 18, usdRate: '3000' },
      ],
    },
    { id: 'solana', name: 'Solana', addressFormat: 'solana', tokens: [{ symbol: 'SOL', decimals: 9, usdRate: '150' }] },
  ],
}

export const originChains = z
  .object({
    bridgeFeeBps: z.number().int(),
    items: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        addressFormat: z.enum(['evm', 'solana']),
        tokens: z.array(z.object({ symbol: z.string(), decimals: z.number().int(), usdRate: z.string() })),
      }),
    ),
  })
  .meta({ example: originChainsExample })

export const depositResult = z
  .object({ quote: crossChainQuote, payment })
  .meta({ example: { quote: crossChainQuoteExample, payment: examples.paymentExample } })

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
    response: crossChainQuote,
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
    response: crossChainQuote,
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
    response: originChains,
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
    response: depositResult,
  }),
}

/** This file's bodies by the component name the OpenAPI document gives them. */
export const crossChainBodies = { CrossChainQuoteRequest: quoteBody, DepositRequest: depositBody }

/** The answers declared here, by the component name the OpenAPI document gives them. */
export const crossChainAnswers = { CrossChainQuote: crossChainQuote, OriginChains: originChains, DepositResult: depositResult }
