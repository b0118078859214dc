// Cross-chain quotes (spec 4.5; docs/api.md): the customer sends a token on another chain to
// a deposit address, and the simulated bridge delivers USDC to the payment on the sandbox
// ledger, with the payment's memo, so the payment proceeds exactly as for a direct payment.
import type { Kysely } from 'kysely'
import { formatDecimal, formatDecimalShort, parseDecimal, USDC_SCALE } from '../../src/money.js'
import { toIso } from '../clock.js'
import type { SandboxContext } from '../context.js'
import type { CrossChainQuoteRow, Database, PaymentRow } from '../db/schema.js'
import { badRequest, conflict, notFound } from '../errors.js'
import { createLedgerAccount } from '../ledger/ledger-accounts.js'
import { requirePayable } from '../payments/payment-lifecycle.js'
import { findPaymentById } from '../payments/payment-repository.js'
import { readState, writeState } from '../state/sandbox-state.js'
import { BRIDGE_FEE_BPS, ORIGIN_CHAINS, findChain, findToken, isValidAddress, newDepositAddress, type OriginToken } from './chains.js'
import { findQuote, insertQuote, updateQuote } from './quote-repository.js'
import type { DepositBody, QuoteBody } from './quote-schemas.js'

/** How long a quote holds (never past the payment's own expiry). */
export const QUOTE_VALIDITY_MS = 15 * 60 * 1000
const RATE_SCALE = 8
const BPS = 10_000n

const rateOf = (token: OriginToken): bigint => parseDecimal(token.usdRate, RATE_SCALE)!
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b

/** Base units of the token to send so that `usdc` stroops arrive after the bridge fee (rounded up). */
function amountInFor(usdc: bigint, token: OriginToken): bigint {
  const numerator = usdc * (BPS + BigInt(BRIDGE_FEE_BPS)) * 10n ** BigInt(token.decimals) * 10n ** BigInt(RATE_SCALE)
  return ceilDiv(numerator, 10n ** BigInt(USDC_SCALE) * BPS * rateOf(token))
}

/** USDC stroops that `amountIn` base units deliver after the bridge fee (rounded down). */
function usdcFor(amountIn: bigint, token: OriginToken): bigint {
  const numerator = amountIn * rateOf(token) * 10n ** BigInt(USDC_SCALE) * BPS
  return numerator / (10n ** BigInt(token.decimals) * 10n ** BigInt(RATE_SCALE) * (BPS + BigInt(BRIDGE_FEE_BPS)))
}

const supportedList = (): string => ORIGIN_CHAINS.map((chain) => `${chain.id} (${chain.tokens.map((t) => t.symbol).join(', ')})`).join('; ')

export async function createQuote(ctx: Pick<SandboxContext, 'clock' | 'random'>, db: Kysely<Database>, payment: PaymentRow, body: QuoteBody): Promise<CrossChainQuoteRow> {
  const chain = findChain(body.originChain)
  if (!chain) throw badRequest(`originChain: ${body.originChain.slice(0, 40)} is not supported; supported: ${supportedList()}`)
  const token = findToken(chain, body.originToken)
  if (!token) throw badRequest(`originToken: ${body.originToken.slice(0, 40)} is not supported on ${chain.id}; supported there: ${chain.tokens.map((t) => t.symbol).join(', ')}`)
  if (!isValidAddress(chain.addressFormat, body.refundAddress)) {
    throw badRequest(`refundAddress: not a valid ${chain.name} address (${chain.addressFormat === 'evm' ? '0x and 40 hex digits' : 'base58 of 32 bytes'})`)
  }
  const now = ctx.clock.now()
  requirePayable(payment, now)
  const usdc = BigInt(payment.usdc_amount - payment.usdc_received)
  const quote: CrossChainQuoteRow = {
    id: `qt_${ctx.random.uuidV7(now).replaceAll('-', '')}`,
    payment_id: payment.id,
    origin_chain: chain.id,
    origin_token: token.symbol,
    deposit_address: newDepositAddress(chain.addressFormat, ctx.random),
    amount_in: amountInFor(usdc, token).toString(),
    amount_out: Number(usdc),
    refund_address: body.refundAddress,
    status: 'pending',
    deposit_tx_id: null,
    expires_at: Math.min(now + QUOTE_VALIDITY_MS, payment.expires_at),
    created_at: now,
  }
  await insertQuote(db, quote)
  return quote
}

export function toQuoteResource(quote: CrossChainQuoteRow, now: number): Record<string, unknown> {
  const token = findToken(findChain(quote.origin_chain)!, quote.origin_token)!
  return {
    quoteId: quote.id,
    paymentId: quote.payment_id,
    originChain: quote.origin_chain,
    originToken: quote.origin_token,
    depositAddress: quote.deposit_address,
    amountIn: formatDecimalShort(BigInt(quote.amount_in), token.decimals),
    amountOut: formatDecimal(BigInt(quote.amount_out), USDC_SCALE),
    bridgeFeeBps: BRIDGE_FEE_BPS,
    refundAddress: quote.refund_address,
    expiresAt: toIso(quote.expires_at),
    status: quote.status === 'pending' && quote.expires_at <= now ? 'expired' : quote.status,
    ...(quote.deposit_tx_id ? { depositTxId: quote.deposit_tx_id } : {}),
  }
}

/**
 * The bridged USDC arrives: one ledger transaction in which the issuer mints it to the bridge
 * account and the bridge pays it to the payment's destination with the payment's memo.
 */
export async function simulateDeposit(
  ctx: Pick<SandboxContext, 'clock' | 'random' | 'ledger'>,
  db: Kysely<Database>,
  merchantId: string,
  quoteId: string,
  body: DepositBody,
): Promise<{ quote: CrossChainQuoteRow; payment: PaymentRow }> {
  const quote = quoteId.length <= 64 ? await findQuote(db, quoteId) : undefined
  const payment = quote && (await findPaymentById(db, quote.payment_id))
  if (!quote || !payment || payment.merchant_id !== merchantId) throw notFound(`No quote ${quoteId.slice(0, 64)}`)
  const now = ctx.clock.now()
  if (quote.status === 'completed') throw conflict('Conflict', `Quote ${quote.id} has already been deposited to`)
  if (quote.expires_at <= now) throw conflict('Conflict', `Quote ${quote.id} expired at ${toIso(quote.expires_at)}; ask for a new one`)
  const token = findToken(findChain(quote.origin_chain)!, quote.origin_token)!
  let usdc = BigInt(quote.amount_out)
  if (body?.amountIn !== undefined) {
    const sent = parseDecimal(body.amountIn, token.decimals)
    if (sent === undefined || sent <= 0n) throw badRequest(`amountIn: must be a positive ${token.symbol} amount with at most ${token.decimals} decimal places`)
    if (sent !== BigInt(quote.amount_in)) usdc = usdcFor(sent, token)
  }
  if (usdc <= 0n) throw badRequest('amountIn: too small to deliver any USDC after the bridge fee')
  const bridge = await bridgeAccount(ctx, db, now)
  const issuer = (await readState(db, 'usdc_issuer'))!
  const tx = await ctx.ledger.pay(db, {
    source: bridge,
    payments: [
      { from: issuer, to: bridge, asset: 'USDC', amount: usdc },
      { from: bridge, to: payment.destination, asset: 'USDC', amount: usdc },
    ],
    memo: payment.memo,
  })
  const completed = { status: 'completed' as const, deposit_tx_id: tx.hash }
  await updateQuote(db, quote.id, completed)
  return { quote: { ...quote, ...completed }, payment: (await findPaymentById(db, payment.id))! }
}

/** The simulated bridge's account on the ledger, made on first use. */
async function bridgeAccount(ctx: Pick<SandboxContext, 'random'>, db: Kysely<Database>, now: number): Promise<string> {
  const existing = await readState(db, 'bridge_account')
  if (existing) return existing
  const account = await createLedgerAccount(db, ctx.random, 'bridge', 'Cross-chain bridge', now)
  await writeState(db, 'bridge_account', account.public_key)
  return account.public_key
}
