// SEP-0007 wallet payment URIs ("web+stellar:pay?…"), the payload of a payment's qrCode: with
// it alone a wallet or script can build the payment (destination, amount, asset, memo, network).
import { SANDBOX_NETWORK_PASSPHRASE } from './ledger-accounts.js'

export interface PayUriInput {
  destination: string
  /** Decimal text, at most 7 places. */
  amount: string
  assetCode: string
  assetIssuer: string
  memo: string
  memoType: 'MEMO_TEXT' | 'MEMO_ID' | 'MEMO_HASH' | 'MEMO_RETURN'
  /** Shown by the wallet; SEP-0007 caps it at 300 characters. */
  message?: string
  /** Default: the sandbox network's. */
  networkPassphrase?: string
}

export const SEP7_MESSAGE_LIMIT = 300

export function buildPayUri(input: PayUriInput): string {
  const params = new URLSearchParams({
    destination: input.destination,
    amount: input.amount,
    asset_code: input.assetCode,
    asset_issuer: input.assetIssuer,
    memo: input.memo,
    memo_type: input.memoType,
    // SEP-0007: without it a wallet signs for the public network, where the sandbox's
    // accounts do not exist.
    network_passphrase: input.networkPassphrase ?? SANDBOX_NETWORK_PASSPHRASE,
  })
  if (input.message) params.set('msg', truncateCodePoints(input.message, SEP7_MESSAGE_LIMIT))
  // URLSearchParams encodes spaces as "+", which SEP-0007 readers do not all accept.
  return `web+stellar:pay?${params.toString().replace(/\+/g, '%20')}`
}

/** The first `limit` code points of a text (no surrogate pair cut in half). */
function truncateCodePoints(text: string, limit: number): string {
  // Never more code points than UTF-16 units: a short text needs no walk through it.
  return text.length <= limit ? text : [...text].slice(0, limit).join('')
}
