// Escrow (spec 3.3; docs/escrow.md): an escrow merchant's payment funds an escrow order held
// by the escrow contract's custody account. Release moves it out in one ledger transaction:
// the payee gets the amount less the platform fee, the platform-fee account the fee. An order
// not funded by its expiry, or whose funding fails, is failed.
import type { Kysely } from 'kysely'
import { formatUsdcAmount } from '../../src/money.js'
import type { SandboxContext } from '../context.js'
import type { Database, LedgerAssetCode, PaymentRow } from '../db/schema.js'
import { conflict } from '../errors.js'
import { refusedByLedgerAs } from '../ledger/ledger-refusals.js'
import type { SettlementStatus } from '../../src/api/enumerations.js'
import { appendHistory, moveSettlementTo, moveTo, settlementMovedAt } from '../payments/payment-lifecycle.js'
import { findDueEscrows, findPaymentById, findPaymentForChange, listEscrowPayments } from '../payments/payment-repository.js'
import type { PageRequest } from '../db/paginate.js'
import { findMerchantById } from '../merchants/merchant-repository.js'
import { handleDueInBatches } from '../due-batches.js'
import { escrowPayeeRefusal } from '../payments/escrow-payee.js'
import { merchantNow } from '../merchants/merchant-time.js'

type EscrowContext = Pick<SandboxContext, 'clock' | 'wallClock' | 'ledger' | 'identity' | 'payments'>

/** The platform fee on a release: amount × bps / 10000, rounded down to the stroop (in the payee's favour). */
export const escrowFee = (amount: bigint, bps: number): bigint => (amount * BigInt(bps)) / 10_000n

/** 409 unless the payment is an escrow merchant's, with an escrow order. */
export function requireEscrow(payment: PaymentRow): void {
  if (payment.escrow_status === null)
    throw conflict('Conflict', `Payment ${payment.id} belongs to a direct merchant and has no escrow order`)
}

/** What the custody holds for this payment: everything received and not yet released or refunded. */
export function heldInCustody(payment: PaymentRow): bigint {
  return payment.settlement_status === 'open' ? BigInt(payment.usdc_received - payment.usdc_refunded) : 0n
}

/**
 * What a release did, once the order is released: the settlement it started (an escrow payment
 * settles by its release only), when, and in which transaction; null before.
 */
export function releaseOf(payment: PaymentRow): { status: SettlementStatus; releasedAt: number; transaction: string } | null {
  const releasedAt = settlementMovedAt(payment, 'processing')
  if (payment.settlement_tx_id === null || releasedAt === undefined) return null
  return { status: payment.settlement_status, releasedAt, transaction: payment.settlement_tx_id }
}

/**
 * Releases a funded escrow order to its payee, less the platform fee; settlement follows its ledger.
 * `payment` is read for change (locked), as for failEscrow: of a release and a fail, or two
 * releases, at once, one wins and the other sees its result.
 */
export async function releaseEscrow(ctx: EscrowContext, db: Kysely<Database>, payment: PaymentRow): Promise<PaymentRow> {
  requireEscrow(payment)
  if (payment.escrow_status !== 'funded') {
    throw conflict('Conflict', `The escrow order of payment ${payment.id} is ${payment.escrow_status}: only a funded order can be released`)
  }
  if (payment.settlement_status !== 'open') {
    throw conflict('Conflict', `The escrow order of payment ${payment.id} has already been released`)
  }
  // Orders stored before payees were checked at creation are checked again here.
  const merchant = await findMerchantById(db, payment.merchant_id)
  const payeeRefusal = merchant && (await escrowPayeeRefusal(db, merchant, payment.escrow_payee!))
  if (payeeRefusal) throw conflict('Conflict', `The escrow order of payment ${payment.id} cannot be released: ${payeeRefusal}`)
  const held = heldInCustody(payment)
  if (held <= 0n) throw conflict('Conflict', `The escrow order of payment ${payment.id} holds nothing: it was refunded`)
  const fee = escrowFee(held, payment.escrow_fee_bps ?? 0)
  const now = await merchantNow(ctx, db, payment.merchant_id)
  const custody = ctx.identity.escrowCustody
  const parts = [
    { from: custody, to: payment.escrow_payee!, asset: 'USDC' as LedgerAssetCode, amount: held - fee },
    { from: custody, to: ctx.identity.platformFeeAccount, asset: 'USDC' as LedgerAssetCode, amount: fee },
  ].filter((part) => part.amount > 0n)
  await ctx.ledger.inOneLedger(db, async () => {
    const { hash } = await refusedByLedgerAs(409, 'the release', () =>
      ctx.ledger.pay(db, { source: custody, payments: parts, memo: payment.memo }),
    )
    const description = `Escrow released: ${formatUsdcAmount(held - fee)} to ${payment.escrow_payee}, platform fee ${formatUsdcAmount(fee)} (${payment.escrow_fee_bps} bps)`
    await ctx.payments.save(db, payment, {
      ...moveSettlementTo(payment, 'processing', description, now),
      settlement_amount: Number(held - fee),
      settlement_fee: Number(fee),
      settlement_tx_id: hash,
    })
  })
  // As it is now: the release's ledger may already have closed (settlement paid).
  return (await findPaymentById(db, payment.id))!
}

/** A failed funding (simulated): the order fails and the payment with it. */
export async function failEscrow(ctx: EscrowContext, db: Kysely<Database>, payment: PaymentRow, reason: string): Promise<PaymentRow> {
  requireEscrow(payment)
  if (payment.escrow_status !== 'created') {
    throw conflict('Conflict', `The escrow order of payment ${payment.id} is ${payment.escrow_status}: only an unfunded order can fail`)
  }
  const now = await merchantNow(ctx, db, payment.merchant_id)
  const failed = moveTo(payment, 'failed', `Escrow funding failed: ${reason}`, now)
  const history = appendHistory(failed.history, { time: now, status: 'escrow_failed', description: 'Escrow order failed' })
  return ctx.payments.save(db, payment, { ...failed, history, escrow_status: 'failed' })
}

/** Orders not funded by their escrow expiry fail, and their payments expire; returns how many. */
export function failDueEscrows(ctx: Pick<SandboxContext, 'db' | 'clock' | 'wallClock' | 'payments'>, merchantId?: string): Promise<number> {
  return handleDueInBatches(
    ctx,
    findDueEscrows,
    async (db, due, now) => {
      // Read again, locked: an order funded or failed since the sweep found it is left as it is.
      const payment = await findPaymentForChange(db, { id: due.id })
      if (payment?.escrow_status !== 'created' || payment.escrow_expires_at === null || payment.escrow_expires_at > now) return
      const payable = payment.status === 'open' || payment.status === 'underpaid'
      const change = payable
        ? moveTo(payment, 'expired', 'Escrow order not funded by its expiry', now)
        : { history: payment.history, updated_at: now }
      const history = appendHistory(change.history, { time: now, status: 'escrow_failed', description: 'Escrow order expired unfunded' })
      return ctx.payments.save(db, payment, { ...change, history, escrow_status: 'failed' })
    },
    merchantId,
  )
}

/** Escrow orders, newest first: one merchant's, or (for the sandbox's operator) every merchant's. */
export function listEscrowOrders(db: Kysely<Database>, merchantId: string | undefined, page: PageRequest) {
  return listEscrowPayments(db, merchantId, page)
}
