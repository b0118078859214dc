// Every applied ledger transaction is offered to this matcher, in the transaction that applied it: USDC
// to a payment's destination with its memo counts towards it, however it was sent. Unmatched money still lands.
import type { Kysely } from 'kysely'
import { divideRoundHalfUp, formatUsdcAmount } from '../../src/money.js'
import type { Database, PaymentRow } from '../db/schema.js'
import type { AppliedListener, LedgerTransaction } from '../ledger/ledger-types.js'
import type { PaymentChanges } from '../context.js'
import { appendHistory, moveTo, statusAt } from './payment-lifecycle.js'
import { findPaymentForChange } from './payment-repository.js'
import { merchantTimeOr } from '../merchants/merchant-time.js'
import type { ClockSources } from '../clock.js'

interface ReceiptDeps extends ClockSources {
  payments: PaymentChanges
}

/** The ledger listener: credits the payment whose memo a transaction carries, if any. */
export function paymentReceiver(deps: ReceiptDeps): AppliedListener {
  return async (db, tx) => {
    if (tx.memoType !== 'text' || !tx.memo) return
    // Locked: a payment path (pay, bridge delivery) holds it already; money sent to it any other
    // way (a Horizon submission) waits here for the change in flight and counts on top of it.
    const payment = await findPaymentForChange(db, { memo: tx.memo })
    if (!payment) return
    const received = tx.operations
      .filter((op) => op.asset === 'USDC' && op.to === payment.destination)
      .reduce((sum, op) => sum + op.amount, 0n)
    // The payment changes when the ledger applied the money, on the same business clock (its
    // merchant's own, if it has one: docs/clocks.md).
    if (received > 0n)
      await recordReceipt(deps, db, payment, received, tx, await merchantTimeOr(deps, db, payment.merchant_id, tx.appliedAt))
  }
}

/** amount_paid follows the USDC received, in the pricing currency's smallest unit, at the payment's own price. */
export function amountPaidFor(payment: Pick<PaymentRow, 'amount_value' | 'usdc_amount'>, usdcReceived: bigint): number {
  return Number(divideRoundHalfUp(usdcReceived * BigInt(payment.amount_value), BigInt(payment.usdc_amount)))
}

/** What remains to pay, in smallest units of the pricing currency (never below zero: a payment can be overpaid). */
export const remainingValue = (payment: Pick<PaymentRow, 'amount_value' | 'amount_paid'>): number =>
  Math.max(0, payment.amount_value - payment.amount_paid)

/** The inverse: USDC stroops that `value` smallest units of the pricing currency are worth at the payment's price. */
export function usdcForValue(payment: Pick<PaymentRow, 'amount_value' | 'usdc_amount'>, value: number): bigint {
  return divideRoundHalfUp(BigInt(value) * BigInt(payment.usdc_amount), BigInt(payment.amount_value))
}

async function recordReceipt(
  deps: ReceiptDeps,
  db: Kysely<Database>,
  payment: PaymentRow,
  received: bigint,
  tx: LedgerTransaction,
  now: number,
): Promise<void> {
  const total = BigInt(payment.usdc_received) + received
  const receipt = {
    usdc_received: Number(total),
    amount_paid: amountPaidFor(payment, total),
    stellar_tx_id: tx.hash,
    sender_account: tx.sourceAccount,
  }
  const usdc = formatUsdcAmount(received)
  // Money for an open payment past its expiry, not yet swept: the payment expires first, as it
  // would have, and the money lands without counting towards it.
  if (statusAt(payment, now) !== payment.status) {
    await deps.payments.save(db, payment, moveTo(payment, 'expired', 'Payment expired', now))
    return
  }
  if (payment.status === 'open' || payment.status === 'underpaid') {
    const target = total >= BigInt(payment.usdc_amount) ? 'paid' : 'underpaid'
    const description = target === 'paid' ? `Payment received (${usdc})` : `Partial payment received (${usdc})`
    const change =
      target === payment.status
        ? { history: appendHistory(payment.history, { time: now, status: target, description }), updated_at: now }
        : moveTo(payment, target, description, now)
    await deps.payments.save(db, payment, { ...receipt, ...change })
    return
  }
  // A paid payment takes an overpayment, which stays in the merchant's account as received (it
  // is not part of a settlement already made); a closed one does not change, but the money has
  // landed on the ledger all the same.
  if (payment.status === 'paid') {
    const history = appendHistory(payment.history, { time: now, status: 'paid', description: `Additional payment received (${usdc})` })
    await deps.payments.save(db, payment, { ...receipt, history, updated_at: now })
  }
}
