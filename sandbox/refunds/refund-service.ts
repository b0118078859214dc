// Refunds (spec 2.4, 4.6; docs/payment-lifecycle.md): one ledger transaction pays the customer
// (the payment's sender_account) back from wherever the money now sits. For a settled payment
// that is the merchant's account plus, from the platform-fee account, the same share of the
// commerce fee, so a full refund returns exactly what the customer paid and the merchant is
// out of pocket by nothing. A paid payment can be refunded in parts; any other payment that
// received money (underpaid; or expired, failed or canceled after receiving some, say when its
// invoice was voided) only in full. Refunding an underpaid payment cancels it.
import type { Kysely } from 'kysely'
import { merchantNowOf } from '../clock.js'
import { formatUsdcAmount } from '../../src/money.js'
import type { SandboxContext } from '../context.js'
import type { Database, MerchantRow, PaymentRow, RefundRow } from '../db/schema.js'
import { badRequest, conflict, notFound } from '../errors.js'
import { refusedByLedgerAs } from '../ledger/ledger-refusals.js'
import type { PageRequest } from '../db/paginate.js'
import { appendHistory, moveTo } from '../payments/payment-lifecycle.js'
import { amountPaidFor, usdcForValue } from '../payments/payment-receipts.js'
import { getPaymentForChange } from '../payments/payment-service.js'
import { findRefundForMerchant, insertRefund, listRefunds as listRefundRows } from './refund-repository.js'
import type { CreateRefundBody } from '../../src/api/contract/payments.js'

export async function refundPayment(
  ctx: Pick<SandboxContext, 'clock' | 'wallClock' | 'random' | 'ledger' | 'identity' | 'payments'>,
  db: Kysely<Database>,
  merchant: MerchantRow,
  paymentId: string,
  body: CreateRefundBody,
): Promise<{ refund: RefundRow; payment: PaymentRow }> {
  // Locked before the ledger moves anything: what was refunded before is read after any refund in flight.
  const payment = await getPaymentForChange(db, merchant, paymentId)
  const refundable = BigInt(payment.usdc_received - payment.usdc_refunded)
  if (payment.usdc_received === 0)
    throw conflict('Conflict', `Payment ${payment.id} is ${payment.status} and has received nothing to refund`)
  if (refundable <= 0n) throw conflict('Conflict', `Payment ${payment.id} has been refunded in full`)
  const usdc = refundAmount(payment, refundable, body?.amount ?? undefined)
  // Only a paid payment keeps part of what it received; any other gives it all back.
  if (payment.status !== 'paid' && usdc !== refundable) {
    const keep = payment.status === 'underpaid' ? '; accept the underpayment to keep it instead' : ''
    throw badRequest(`amount: a ${payment.status} payment is refunded in full (omit amount)${keep}`)
  }
  if (!payment.sender_account) throw new Error(`Payment ${payment.id} received money but has no sender account`)

  const now = merchantNowOf(ctx, merchant)
  const parts = refundSources(payment, merchant, ctx.identity.escrowCustody, ctx.identity.platformFeeAccount, usdc)
  const { hash } = await refusedByLedgerAs(409, 'the refund', () =>
    ctx.ledger.pay(db, {
      source: parts[0]!.from,
      payments: parts.map((part) => ({ ...part, to: payment.sender_account!, asset: 'USDC' as const })),
      memo: payment.memo,
    }),
  )

  const refund: RefundRow = {
    id: `rf_${ctx.random.uuidV7(now).replaceAll('-', '')}`,
    merchant_id: merchant.id,
    payment_id: payment.id,
    status: 'refunded',
    usdc_amount: Number(usdc),
    description: body?.description ?? `Refund of ${payment.id}`,
    metadata: body?.metadata ? JSON.stringify(body.metadata) : null,
    settlement_tx_id: hash,
    created_at: now,
  }
  await insertRefund(db, refund)

  const description = `Refunded ${formatUsdcAmount(usdc)} to ${payment.sender_account} (${refund.id})`
  const refunded = { usdc_refunded: payment.usdc_refunded + Number(usdc), refunded: 1 }
  const change =
    payment.status === 'underpaid'
      ? moveTo(payment, 'canceled', `${description}; underpaid payment canceled`, now)
      : { history: appendHistory(payment.history, { time: now, status: 'refunded', description }), updated_at: now }
  return { refund, payment: await ctx.payments.save(db, payment, { ...change, ...refunded }) }
}

/** The USDC to refund for `value` smallest units of the pricing currency, or all that is left. */
function refundAmount(payment: PaymentRow, refundable: bigint, value: number | undefined): bigint {
  if (value === undefined) return refundable
  const refundableValue = amountPaidFor(payment, refundable)
  if (value > refundableValue) {
    throw badRequest(`amount: ${value} exceeds the ${refundableValue} (${payment.amount_currency} smallest units) still refundable`)
  }
  if (value === refundableValue) return refundable
  const usdc = usdcForValue(payment, value)
  if (usdc <= 0n) throw badRequest('amount: is less than the smallest USDC amount (0.0000001)')
  return usdc < refundable ? usdc : refundable
}

/**
 * Who pays a refund of `usdc` back. Until settlement, whoever holds the money pays it all (the
 * merchant; for escrow, the escrow custody). After settlement the holder pays its part and the
 * platform-fee account returns the fee in proportion: cumulative shares are rounded down, and
 * the last refund returns what is left of the fee, so the fee is returned exactly once.
 */
function refundSources(
  payment: PaymentRow,
  merchant: MerchantRow,
  escrowCustody: string,
  platformFeeAccount: string,
  usdc: bigint,
): Array<{ from: string; amount: bigint }> {
  const settled = payment.settlement_tx_id !== null && payment.settlement_status !== 'failed'
  const holder = payment.escrow_status === null ? merchant.account_id : settled ? payment.escrow_payee! : escrowCustody
  const fee = settled ? BigInt(payment.settlement_fee) : 0n
  const feeBearing = settled ? BigInt(payment.settlement_amount) + fee : 0n
  const feeShare = (refunded: bigint): bigint =>
    feeBearing === 0n ? 0n : ((refunded < feeBearing ? refunded : feeBearing) * fee) / feeBearing
  const before = BigInt(payment.usdc_refunded)
  const fromPlatform = feeShare(before + usdc) - feeShare(before)
  return [
    { from: holder, amount: usdc - fromPlatform },
    { from: platformFeeAccount, amount: fromPlatform },
  ].filter((part) => part.amount > 0n)
}

export async function getRefund(db: Kysely<Database>, merchant: MerchantRow, id: string): Promise<RefundRow> {
  const refund = id.length <= 64 ? await findRefundForMerchant(db, merchant.id, id) : undefined
  if (!refund) throw notFound(`No refund ${id}`)
  return refund
}

export function listRefunds(db: Kysely<Database>, merchant: MerchantRow, page: PageRequest) {
  return listRefundRows(db, merchant.id, page)
}
