// Cross-chain quotes as bridge orders (spec 4.5; docs/bridge.md): the customer sends a token on
// another chain to the quote's deposit address, and the simulated bridge, once the quoted
// amount is in before the deadline, delivers USDC to the payment on the sandbox ledger with the
// payment's memo, so the payment proceeds exactly as for a direct payment. Anything it does not
// swap (short and never topped up, late, superseded, failed, surplus) goes back to the refund
// address on the origin chain.
import type { Kysely } from 'kysely'
import { formatDecimal, formatDecimalShort, parseDecimal, USDC_SCALE } from '../../src/money.js'
import { toIso } from '../clock.js'
import type { SandboxContext } from '../context.js'
import type { BridgeOrderStatus } from '../../src/api/enumerations.js'
import type { CrossChainQuoteRow, Database, PaymentRow } from '../db/schema.js'
import { badRequest, notFound } from '../errors.js'
import { createLedgerAccount } from '../ledger/ledger-accounts.js'
import { LedgerError } from '../ledger/ledger-errors.js'
import { requirePayable, statusAt } from '../payments/payment-lifecycle.js'
import { findPaymentById, findPaymentForChange } from '../payments/payment-repository.js'
import { handleDueInBatches } from '../due-batches.js'
import { readState, writeState } from '../state/sandbox-state.js'
import { decideClose, decideDeposit, LIVE_STATUSES, type OrderState } from './bridge-order.js'
import {
  BRIDGE_FEE_BPS,
  MAX_TRANSFER_UNITS,
  ORIGIN_CHAINS,
  findChain,
  findToken,
  isValidAddress,
  newDepositAddress,
  newOriginTxHash,
  type OriginChain,
  type OriginToken,
} from './chains.js'
import { findDueQuotes, findLiveQuotesOfPayment, findQuote, insertQuote, listQuotes, updateQuote } from './quote-repository.js'
import type { PageRequest } from '../db/paginate.js'
import type { DepositBody, QuoteBody } from '../../src/api/contract/cross-chain.js'
import { merchantNow } from '../merchants/merchant-time.js'

/** How long a quote holds (never past the payment's own expiry): its deadline. */
export const QUOTE_VALIDITY_MS = 15 * 60 * 1000
const RATE_SCALE = 8
const BPS = 10_000n

type QuoteContext = Pick<SandboxContext, 'clock' | 'wallClock' | 'random' | 'ledger'>

const rateOf = (token: OriginToken): bigint => parseDecimal(token.usdRate, RATE_SCALE)!
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b

/** Base units of the token to send so that `usdc` stroops arrive after the bridge fee (rounded up). */
function amountInFor(usdc: bigint, token: OriginToken): bigint {
  const numerator = usdc * (BPS + BigInt(BRIDGE_FEE_BPS)) * 10n ** BigInt(token.decimals) * 10n ** BigInt(RATE_SCALE)
  return ceilDiv(numerator, 10n ** BigInt(USDC_SCALE) * BPS * rateOf(token))
}

const supportedList = (): string => ORIGIN_CHAINS.map((chain) => `${chain.id} (${chain.tokens.map((t) => t.symbol).join(', ')})`).join('; ')

interface OriginTransaction {
  type: 'deposit' | 'refund'
  hash: string
  /** Base units, decimal text. */
  amount: string
  at: number
}

interface StatusEntry {
  status: BridgeOrderStatus
  at: number
}

const chainOf = (quote: CrossChainQuoteRow): OriginChain => findChain(quote.origin_chain)!
const tokenOf = (quote: CrossChainQuoteRow): OriginToken => findToken(chainOf(quote), quote.origin_token)!
const originTransactions = (quote: CrossChainQuoteRow): OriginTransaction[] => JSON.parse(quote.origin_transactions) as OriginTransaction[]
const historyOf = (quote: CrossChainQuoteRow): StatusEntry[] => JSON.parse(quote.history) as StatusEntry[]

/** Base units deposited and neither swapped nor refunded. */
function heldOf(quote: CrossChainQuoteRow): bigint {
  if (quote.status !== 'INCOMPLETE_DEPOSIT') return 0n
  return BigInt(quote.amount_deposited) - BigInt(quote.amount_refunded)
}

const orderState = (quote: CrossChainQuoteRow): OrderState => ({
  status: quote.status,
  amountIn: BigInt(quote.amount_in),
  held: heldOf(quote),
  expiresAt: quote.expires_at,
  supersededBy: quote.superseded_by,
})

/** A new quote for `payment`, read for change (locked): it supersedes the live one, so two at once leave one live. */
export async function createQuote(
  ctx: Pick<SandboxContext, 'clock' | 'wallClock' | 'random'>,
  db: Kysely<Database>,
  payment: PaymentRow,
  body: QuoteBody,
): Promise<CrossChainQuoteRow> {
  const chain = findChain(body.originChain)
  if (!chain) throw badRequest(`originChain: ${body.originChain.slice(0, 40)} is not supported; supported: ${supportedList()}`)
  const token = findToken(chain, body.originToken)
  if (!token)
    throw badRequest(
      `originToken: ${body.originToken.slice(0, 40)} is not supported on ${chain.id}; supported there: ${chain.tokens.map((t) => t.symbol).join(', ')}`,
    )
  if (!isValidAddress(chain.addressFormat, body.refundAddress)) {
    throw badRequest(
      `refundAddress: not a valid ${chain.name} address (${chain.addressFormat === 'evm' ? '0x and 40 hex digits' : 'base58 of 32 bytes'})`,
    )
  }
  const now = await merchantNow(ctx, db, payment.merchant_id)
  requirePayable(payment, now)
  const usdc = BigInt(payment.usdc_amount - payment.usdc_received)
  const id = `qt_${ctx.random.uuidV7(now).replaceAll('-', '')}`
  // One live quote per payment: the older ones stop taking deposits and give back what they hold.
  for (const older of await findLiveQuotesOfPayment(db, payment.id)) {
    await closeQuote(ctx, db, older, now, id)
  }
  const quote: CrossChainQuoteRow = {
    id,
    payment_id: payment.id,
    merchant_id: payment.merchant_id,
    origin_chain: chain.id,
    origin_token: token.symbol,
    deposit_address: newDepositAddress(chain.addressFormat, ctx.random),
    amount_in: amountInFor(usdc, token).toString(),
    amount_out: Number(usdc),
    refund_address: body.refundAddress,
    status: 'PENDING_DEPOSIT',
    deposit_tx_id: null,
    expires_at: Math.min(now + QUOTE_VALIDITY_MS, payment.expires_at),
    created_at: now,
    amount_deposited: '0',
    amount_refunded: '0',
    origin_transactions: '[]',
    history: JSON.stringify([{ status: 'PENDING_DEPOSIT', at: now }]),
    superseded_by: null,
  }
  await insertQuote(db, quote)
  return quote
}

/** A merchant's quote; another merchant's is as unknown as a made-up one. */
export async function getQuote(db: Kysely<Database>, merchantId: string, quoteId: string): Promise<CrossChainQuoteRow> {
  const quote = quoteId.length <= 64 ? await findQuote(db, quoteId) : undefined
  const payment = quote && (await findPaymentById(db, quote.payment_id))
  if (!quote || !payment || payment.merchant_id !== merchantId) throw notFound(`No quote ${quoteId.slice(0, 64)}`)
  return quote
}

export function toQuoteResource(quote: CrossChainQuoteRow, now: number): Record<string, unknown> {
  const token = tokenOf(quote)
  const inToken = (units: bigint | string) => formatDecimalShort(BigInt(units), token.decimals)
  // An order past its deadline with nothing deposited has expired, whether or not the sweep has run.
  const status = quote.status === 'PENDING_DEPOSIT' && quote.expires_at <= now ? 'EXPIRED' : quote.status
  return {
    quoteId: quote.id,
    paymentId: quote.payment_id,
    originChain: quote.origin_chain,
    originToken: quote.origin_token,
    depositAddress: quote.deposit_address,
    amountIn: inToken(quote.amount_in),
    amountOut: formatDecimal(BigInt(quote.amount_out), USDC_SCALE),
    bridgeFeeBps: BRIDGE_FEE_BPS,
    refundAddress: quote.refund_address,
    expiresAt: toIso(quote.expires_at),
    status,
    amountDeposited: inToken(quote.amount_deposited),
    amountRefunded: inToken(quote.amount_refunded),
    usdcDelivered: formatDecimal(quote.status === 'SUCCESS' ? BigInt(quote.amount_out) : 0n, USDC_SCALE),
    supersededBy: quote.superseded_by,
    ...(quote.deposit_tx_id ? { depositTxId: quote.deposit_tx_id } : {}),
    transactions: {
      origin: originTransactions(quote).map((tx) => ({ type: tx.type, hash: tx.hash, amount: inToken(tx.amount), at: toIso(tx.at) })),
      stellar: quote.deposit_tx_id ? [{ type: 'delivery', hash: quote.deposit_tx_id }] : [],
    },
    history: historyOf(quote).map((entry) => ({ status: entry.status, at: toIso(entry.at) })),
  }
}

/** The deposit's amount in base units: what the body says, or what the order still lacks. */
function sentAmount(quote: CrossChainQuoteRow, body: DepositBody): bigint {
  const chain = chainOf(quote)
  const token = tokenOf(quote)
  if (body?.amountIn === undefined) {
    const missing = BigInt(quote.amount_in) - heldOf(quote)
    return missing > 0n ? missing : BigInt(quote.amount_in)
  }
  const sent = parseDecimal(body.amountIn, token.decimals)
  if (sent === undefined || sent <= 0n)
    throw badRequest(`amountIn: must be a positive ${token.symbol} amount with at most ${token.decimals} decimal places`)
  const max = MAX_TRANSFER_UNITS[chain.addressFormat]
  if (sent > max)
    throw badRequest(
      `amountIn: more than one ${chain.name} transfer can carry (${formatDecimalShort(max, token.decimals)} ${token.symbol})`,
    )
  return sent
}

/**
 * A deposit arrives at the quote's address (simulated). The order decides: hold it (short of
 * the quote, until the deadline), swap it (the quoted amount is in: one ledger transaction in
 * which the issuer mints the USDC to the bridge account and the bridge pays it to the payment's
 * destination with the payment's memo; any surplus refunded), or refund it.
 */
export async function simulateDeposit(
  ctx: QuoteContext,
  db: Kysely<Database>,
  merchantId: string,
  quoteId: string,
  body: DepositBody,
): Promise<{ quote: CrossChainQuoteRow; payment: PaymentRow }> {
  // The order changes under its payment's lock, taken before the ledger's (as every payment
  // change does), and is read again under it: of concurrent deposits each sees the one before.
  const payment = (await findPaymentForChange(db, { id: (await getQuote(db, merchantId, quoteId)).payment_id }))!
  const quote = (await findQuote(db, quoteId))!
  const now = await merchantNow(ctx, db, payment.merchant_id)
  const sent = sentAmount(quote, body)
  const status = statusAt(payment, now)
  const decision = decideDeposit(orderState(quote), sent, now, {
    payable: status === 'open' || status === 'underpaid',
    fail: body?.fail === true,
  })
  const chain = chainOf(quote)
  const deposit: OriginTransaction = {
    type: 'deposit',
    hash: newOriginTxHash(chain.addressFormat, ctx.random),
    amount: sent.toString(),
    at: now,
  }
  const change = new OrderChange(quote, now).add(deposit)
  if (decision.kind === 'hold') {
    change.moveTo(decision.status)
  } else if (decision.kind === 'refund') {
    change.refund(decision.refund, newOriginTxHash(chain.addressFormat, ctx.random)).moveTo(decision.status)
  } else {
    change.moveTo('KNOWN_DEPOSIT_TX').moveTo('PROCESSING')
    const delivered = await deliver(ctx, db, quote, payment, now)
    if (delivered) {
      change.set({ deposit_tx_id: delivered }).moveTo('SUCCESS')
      if (decision.surplus > 0n) change.refund(decision.surplus, newOriginTxHash(chain.addressFormat, ctx.random))
    } else {
      change.refund(orderState(quote).held + sent, newOriginTxHash(chain.addressFormat, ctx.random)).moveTo('FAILED')
    }
  }
  const updated = await change.save(db)
  return { quote: updated, payment: (await findPaymentById(db, payment.id))! }
}

/**
 * The bridge pays the USDC out on the sandbox ledger; returns the transaction's hash, or
 * undefined when the ledger would not take it (then the order fails and refunds). A transaction
 * the ledger includes as failed is recorded as such, its fee charged to the bridge.
 */
async function deliver(
  ctx: QuoteContext,
  db: Kysely<Database>,
  quote: CrossChainQuoteRow,
  payment: PaymentRow,
  now: number,
): Promise<string | undefined> {
  const bridge = await bridgeAccount(ctx, db, now)
  const issuer = (await readState(db, 'usdc_issuer'))!
  const usdc = BigInt(quote.amount_out)
  try {
    const tx = await ctx.ledger.pay(db, {
      source: bridge,
      payments: [
        { from: issuer, to: bridge, asset: 'USDC', amount: usdc },
        { from: bridge, to: payment.destination, asset: 'USDC', amount: usdc },
      ],
      memo: payment.memo,
    })
    return tx.hash
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error
    // The ledger wrote nothing yet: the failed transaction is recorded in this same transaction.
    if (error.included) await ctx.ledger.recordFailed(db, error.included.envelopeXdr)
    return undefined
  }
}

/** Ends a live order (deadline passed, or superseded): it expires, or refunds what it holds. */
async function closeQuote(
  ctx: Pick<SandboxContext, 'random'>,
  db: Kysely<Database>,
  quote: CrossChainQuoteRow,
  now: number,
  supersededBy?: string,
): Promise<void> {
  const { status, refund } = decideClose(orderState(quote))
  const change = new OrderChange(quote, now)
  if (supersededBy) change.set({ superseded_by: supersededBy })
  if (refund > 0n) change.refund(refund, newOriginTxHash(chainOf(quote).addressFormat, ctx.random))
  await change.moveTo(status).save(db)
}

/** Live orders past their deadline close on the business clock's sweep; returns how many. */
export function closeDueQuotes(ctx: Pick<SandboxContext, 'db' | 'clock' | 'wallClock' | 'random'>, merchantId?: string): Promise<number> {
  return handleDueInBatches(
    ctx,
    findDueQuotes,
    async (db, due, now) => {
      // Under its payment's lock and read again: a deposit that committed since may have closed it.
      await findPaymentForChange(db, { id: due.payment_id })
      const quote = (await findQuote(db, due.id))!
      if (LIVE_STATUSES.includes(quote.status) && quote.expires_at <= now) await closeQuote(ctx, db, quote, now)
    },
    merchantId,
  )
}

/** The changes to one order, gathered and written once. */
class OrderChange {
  readonly #quote: CrossChainQuoteRow
  readonly #now: number
  #changes: Partial<CrossChainQuoteRow> = {}
  readonly #transactions: OriginTransaction[]
  readonly #history: StatusEntry[]

  constructor(quote: CrossChainQuoteRow, now: number) {
    this.#quote = quote
    this.#now = now
    this.#transactions = originTransactions(quote)
    this.#history = historyOf(quote)
  }

  set(changes: Partial<CrossChainQuoteRow>): this {
    Object.assign(this.#changes, changes)
    return this
  }

  add(deposit: OriginTransaction): this {
    this.#transactions.push(deposit)
    const deposited = BigInt(this.#changes.amount_deposited ?? this.#quote.amount_deposited) + BigInt(deposit.amount)
    return this.set({ amount_deposited: deposited.toString() })
  }

  refund(amount: bigint, hash: string): this {
    this.#transactions.push({ type: 'refund', hash, amount: amount.toString(), at: this.#now })
    const refunded = BigInt(this.#changes.amount_refunded ?? this.#quote.amount_refunded) + amount
    return this.set({ amount_refunded: refunded.toString() })
  }

  moveTo(status: BridgeOrderStatus): this {
    const current = this.#changes.status ?? this.#quote.status
    if (status !== current) this.#history.push({ status, at: this.#now })
    return this.set({ status })
  }

  async save(db: Kysely<Database>): Promise<CrossChainQuoteRow> {
    const changes = { ...this.#changes, origin_transactions: JSON.stringify(this.#transactions), history: JSON.stringify(this.#history) }
    await updateQuote(db, this.#quote.id, changes)
    return { ...this.#quote, ...changes }
  }
}

/** The simulated bridge's account on the ledger, made on first use. */
async function bridgeAccount(ctx: Pick<SandboxContext, 'random'>, db: Kysely<Database>, now: number): Promise<string> {
  const existing = await readState(db, 'bridge_account')
  if (existing) return existing
  const account = await createLedgerAccount(db, ctx.random, 'bridge', 'Cross-chain bridge', now)
  await writeState(db, 'bridge_account', account.public_key)
  return account.public_key
}

/** Bridge orders as the API shows them (status as of `now`), newest first: one merchant's, or every merchant's. */
export async function listBridgeOrders(db: Kysely<Database>, merchantId: string | undefined, page: PageRequest, now: number) {
  const { rows, total } = await listQuotes(db, merchantId, page)
  return { orders: rows.map((quote) => toQuoteResource(quote, now)), total }
}
