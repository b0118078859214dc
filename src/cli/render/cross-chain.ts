// How a cross-chain quote (a bridge order) is shown.
import type { CrossChainQuote } from '../../client/types.js'
import { details, table } from '../output.js'

export function renderQuote(quote: CrossChainQuote): string {
  const token = quote.originToken
  return details([
    ['Quote', quote.quoteId],
    ['Payment', quote.paymentId],
    ['Status', quote.supersededBy ? `${quote.status} (superseded by ${quote.supersededBy})` : quote.status],
    ['Send', `${quote.amountIn} ${token} on ${quote.originChain}`],
    ['To', quote.depositAddress],
    ['Arrives', `${quote.amountOut} USDC (bridge fee ${quote.bridgeFeeBps / 100}%)`],
    ['Refunds to', quote.refundAddress],
    ['Deadline', quote.expiresAt],
    ['Deposited', `${quote.amountDeposited} ${token}`],
    ['Refunded', `${quote.amountRefunded} ${token}`],
    ['Delivered', `${quote.usdcDelivered} USDC`],
    ['Deposit tx', quote.depositTxId],
  ])
}

/** The order with its transactions on both chains and the statuses it went through. */
export function renderQuoteStatus(quote: CrossChainQuote): string {
  const transactions = [
    ...quote.transactions.origin.map((tx) => [quote.originChain, tx.type, `${tx.amount} ${quote.originToken}`, tx.hash, tx.at]),
    ...quote.transactions.stellar.map((tx) => ['stellar', tx.type, `${quote.usdcDelivered} USDC`, tx.hash, '']),
  ]
  return [
    renderQuote(quote),
    transactions.length === 0 ? 'No transactions yet.' : table(['Chain', 'Type', 'Amount', 'Hash', 'Time'], transactions),
    table(
      ['Status', 'Since'],
      quote.history.map((entry) => [entry.status, entry.at]),
    ),
  ].join('\n')
}
