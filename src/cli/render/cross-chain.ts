// How a cross-chain quote (a bridge order) is shown.
import type { CrossChainQuote, OriginChains } from '../../client/types.js'
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

/** `paybox chains`: a row per chain, its tokens with their decimals and sandbox USD rate. */
export function renderOriginChains(chains: OriginChains): string {
  return [
    table(
      ['Chain', 'Name', 'Addresses', 'Tokens (decimals, USD rate)'],
      chains.items.map((chain) => [
        chain.id,
        chain.name,
        chain.addressFormat === 'evm' ? 'EVM (0x…)' : 'Solana (base58)',
        chain.tokens.map((token) => `${token.symbol} (${token.decimals}, ${token.usdRate})`).join(', '),
      ]),
    ),
    `Bridge fee: ${chains.bridgeFeeBps / 100}% (${chains.bridgeFeeBps} bps). Quote with: paybox payments quote <payment id> --origin-chain <chain> --origin-token <token> --refund-address <address>`,
  ].join('\n')
}
