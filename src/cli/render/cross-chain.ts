// How a cross-chain quote is shown.
import type { CrossChainQuote } from '../../client/types.js'
import { details } from '../output.js'

export function renderQuote(quote: CrossChainQuote): string {
  return details([
    ['Quote', quote.quoteId],
    ['Payment', quote.paymentId],
    ['Status', quote.status],
    ['Send', `${quote.amountIn} ${quote.originToken} on ${quote.originChain}`],
    ['To', quote.depositAddress],
    ['Arrives', `${quote.amountOut} USDC (bridge fee ${quote.bridgeFeeBps / 100}%)`],
    ['Refunds to', quote.refundAddress],
    ['Expires', quote.expiresAt],
    ['Deposit tx', quote.depositTxId],
  ])
}
