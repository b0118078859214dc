// The rules of payment creation and lookup (spec 4.1–4.3): defaults, escrow eligibility,
// pricing in USDC and the identifiers a customer pays with (memo, short link, auth token).
import type { Kysely } from 'kysely'
import { merchantNowOf } from '../clock.js'
import { findCurrency, toUsdcStroops } from '../currencies/currency-table.js'
import type { SandboxContext } from '../context.js'
import type { Database, MerchantRow, PaymentRow } from '../db/schema.js'
import { badRequest, notFound } from '../errors.js'
import { USDC_SCALE, formatDecimalShort } from '../../src/money.js'
import type { PageRequest } from '../db/paginate.js'
import { escrowPayeeRefusal } from './escrow-payee.js'
import { isAccountAddress } from '../../src/api/validation.js'
import { base64url, hex } from '../random.js'
import { moveTo, type HistoryEntry } from './payment-lifecycle.js'
import {
  findPaymentById,
  findPaymentForChange,
  findPaymentForMerchant,
  findPaymentVersion,
  insertPayment,
  listPayments as listPaymentRows,
  type PaymentFilters,
} from './payment-repository.js'
import type { CreatePaymentBody } from '../../src/api/contract/payments.js'

export const DEFAULT_EXPIRY_MS = 30 * 60 * 1000
export const DEFAULT_ESCROW_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000
/** USDC above this, per payment, is refused: it keeps every stroop count a safe integer. */
export const MAX_USDC_STROOPS = 10n ** 15n

const ESCROW_FIELDS = ['escrowPayee', 'escrowPlatformFee', 'escrowExpiresAt'] as const

export async function createPayment(
  ctx: SandboxContext,
  db: Kysely<Database>,
  merchant: MerchantRow,
  body: CreatePaymentBody,
): Promise<PaymentRow> {
  const now = merchantNowOf(ctx, merchant)
  const currency = findCurrency(body.amount.currency)
  if (!currency) throw badRequest(`amount.currency: ${body.amount.currency} is not supported`)
  const usdc = toUsdcStroops(body.amount.value, currency)
  if (usdc <= 0n) throw badRequest(`amount.value: ${body.amount.value} ${currency.code} is less than the smallest USDC amount`)
  if (usdc > MAX_USDC_STROOPS) throw badRequest('amount.value: the amount exceeds the sandbox limit of 100,000,000 USDC per payment')

  const webhookRefusal = body.webhookUrl ? await ctx.webhooks.webhookUrlRefusal(db, body.webhookUrl) : undefined
  if (webhookRefusal !== undefined) throw badRequest(`webhookUrl: ${webhookRefusal}`)
  const escrow = merchant.settlement_mode === 'escrow' ? escrowTerms(merchant, body, now) : undefined
  const payeeRefusal = escrow && (await escrowPayeeRefusal(db, merchant, escrow.payee))
  if (payeeRefusal) throw badRequest(`escrowPayee: ${payeeRefusal}`)
  if (!escrow) {
    const given = ESCROW_FIELDS.filter((field) => body[field] !== undefined && body[field] !== null)
    if (given.length > 0) {
      throw badRequest(`${given.join(', ')}: only allowed for merchants with settlement_mode escrow; this merchant settles direct`)
    }
  }

  const history: HistoryEntry[] = [{ time: now, status: 'success', description: 'Payment created' }]
  const payment: PaymentRow = {
    id: `pt_${ctx.random.uuidV7(now).replaceAll('-', '')}`,
    merchant_id: merchant.id,
    status: 'open',
    settlement_status: 'open',
    amount_value: body.amount.value,
    amount_currency: currency.code,
    usdc_amount: Number(usdc),
    description: body.description,
    merchant_name: body.name ?? merchant.name,
    redirect_url: body.redirectUrl ?? null,
    cancel_url: body.cancelUrl ?? body.redirectUrl ?? null,
    webhook_url: body.webhookUrl ?? null,
    locale: body.locale ?? 'en',
    metadata: body.metadata ? JSON.stringify(body.metadata) : null,
    partner_id: body.partnerId ?? null,
    store_id: body.storeId ?? null,
    memo: paymentMemo(now, ctx.random.bytes(MEMO_RANDOM_BYTES)),
    // Escrow funds are held by the contract's custody account: wallets cannot pay a C… address.
    destination: escrow ? ctx.identity.escrowCustody : merchant.account_id,
    auth_token: hex(ctx.random, 16),
    short_code: base64url(ctx.random, 8),
    amount_paid: 0,
    usdc_received: 0,
    settlement_amount: Number(usdc),
    settlement_fee: 0,
    stellar_tx_id: null,
    settlement_tx_id: null,
    sender_account: null,
    refunded: 0,
    history: JSON.stringify(history),
    escrow_status: escrow ? 'created' : null,
    escrow_order_id: escrow ? `eo_${hex(ctx.random, 12)}` : null,
    escrow_contract_address: escrow ? ctx.identity.escrowContract : null,
    escrow_fee_bps: escrow?.feeBps ?? null,
    escrow_payee: escrow?.payee ?? null,
    escrow_expires_at: escrow?.expiresAt ?? null,
    created_at: now,
    updated_at: now,
    expires_at: now + (body.expiresInHours != null ? Math.round(body.expiresInHours * 3_600_000) : DEFAULT_EXPIRY_MS),
    settled_at: null,
    usdc_refunded: 0,
    settlement_will_fail: 0,
    version: 0,
  }
  await insertPayment(db, payment)
  await ctx.payments.created(db, payment)
  return payment
}

/** Random bytes in a memo: 56 bits, so two payments of one millisecond never share one. */
export const MEMO_RANDOM_BYTES = 7

/**
 * "pb-", the creation time in ms as 11 hex digits, then 14 random hex digits: 28 bytes, the
 * MEMO_TEXT limit. The time first keeps the memo index growing at one end (fewer pages written).
 */
export function paymentMemo(createdAtMs: number, random: Buffer): string {
  return `pb-${createdAtMs.toString(16).padStart(11, '0')}${random.toString('hex')}`
}

function escrowTerms(merchant: MerchantRow, body: CreatePaymentBody, now: number) {
  const payee = body.escrowPayee ?? merchant.account_id
  if (!isAccountAddress(payee)) throw badRequest('escrowPayee: must be a valid Stellar account address (G…)')
  const expiresAt = body.escrowExpiresAt ?? now + DEFAULT_ESCROW_EXPIRY_MS
  if (expiresAt <= now) throw badRequest('escrowExpiresAt: must be in the future')
  return { payee, feeBps: body.escrowPlatformFee ?? merchant.escrow_fee_bps, expiresAt }
}

/** A merchant's payment; another merchant's id is as unknown as a made-up one. */
export async function getPayment(db: Kysely<Database>, merchant: MerchantRow, id: string): Promise<PaymentRow> {
  return found(id, id.length <= MAX_PAYMENT_ID_LENGTH ? await findPaymentForMerchant(db, merchant.id, id) : undefined)
}

/**
 * A merchant's payment to change, locked until the transaction ends (findPaymentForChange): every
 * change of a payment starts here, so concurrent ones, on any replica, apply one at a time; 404 as getPayment.
 */
export async function getPaymentForChange(db: Kysely<Database>, merchant: MerchantRow, id: string): Promise<PaymentRow> {
  return found(id, id.length <= MAX_PAYMENT_ID_LENGTH ? await findPaymentForChange(db, { id, merchantId: merchant.id }) : undefined)
}

/** The version of a merchant's payment (it changes with every change of the payment); 404 as getPayment. */
export async function getPaymentVersion(db: Kysely<Database>, merchant: MerchantRow, id: string): Promise<number> {
  return found(id, id.length <= MAX_PAYMENT_ID_LENGTH ? await findPaymentVersion(db, merchant.id, id) : undefined)
}

/** Longer ids are no payment's: not looked up. */
const MAX_PAYMENT_ID_LENGTH = 64

function found<T>(id: string, value: T | undefined): T {
  if (value === undefined) throw notFound(`No payment ${id}`)
  return value
}

export function listPayments(db: Kysely<Database>, merchant: MerchantRow, filters: PaymentFilters, page: PageRequest) {
  return listPaymentRows(db, merchant.id, filters, page)
}

/** Spec 4.4: an underpaid payment becomes paid for what it received, and that amount settles. */
export async function acceptUnderpayment(
  ctx: Pick<SandboxContext, 'clock' | 'wallClock' | 'payments'>,
  db: Kysely<Database>,
  merchant: MerchantRow,
  id: string,
): Promise<PaymentRow> {
  const payment = await getPaymentForChange(db, merchant, id)
  if (payment.status !== 'underpaid') {
    throw badRequest(`Payment ${payment.id} is ${payment.status}; only an underpaid payment can have its underpayment accepted`)
  }
  const now = merchantNowOf(ctx, merchant)
  const received = `${formatDecimalShort(BigInt(payment.usdc_received), USDC_SCALE)} of ${formatDecimalShort(BigInt(payment.usdc_amount), USDC_SCALE)} USDC`
  await ctx.payments.save(db, payment, moveTo(payment, 'paid', `Underpayment accepted (${received} received)`, now))
  // As it is now: the settlement's ledger may already have closed.
  return (await findPaymentById(db, payment.id))!
}
