// How much `paybox payments pay` has a sandbox customer send, and what that is worth in USDC.
// All amounts are integers in the smallest unit of the payment's pricing currency.
import type { Payment } from '../client/types.js'
import { divideRoundHalfUp } from '../money.js'
import { UserError } from '../user-error.js'
import { formatAmount, type Precisions } from './render/payments.js'
import { stroopsOf } from './usdc.js'

const PAYABLE = new Set(['open', 'underpaid'])

/** What is left to pay (never below zero: a payment can be paid more than its amount). */
export const remainingOf = (payment: Payment): number => Math.max(payment.amount.value - payment.amount_paid, 0)

/** Half of what remains, rounded down: enough to leave the payment underpaid. */
export function underpaymentOf(payment: Payment, precisions: Precisions): number {
  requirePayable(payment)
  const remaining = remainingOf(payment)
  if (remaining < 2) {
    const left = formatAmount(remaining, payment.amount.currency, precisions)
    throw new UserError(`Payment ${payment.id} has ${left} left to pay, which cannot be underpaid`, 'pay it in full without --underpay')
  }
  return Math.floor(remaining / 2)
}

/** What remains plus a tenth of the amount (at least one smallest unit more). */
export function overpaymentOf(payment: Payment): number {
  requirePayable(payment)
  return remainingOf(payment) + Math.max(Math.floor(payment.amount.value / 10), 1)
}

// The inverse of how the sandbox derives amount_paid; only before settlement, while settlement_amount
// is still the USDC price of the whole amount (afterwards it is net of fees).
export function usdcWorth(payment: Payment, units: number): bigint {
  return divideRoundHalfUp(BigInt(units) * stroopsOf(payment.settlement_amount), BigInt(payment.amount.value))
}

// --underpay and --overpay measure against what remains, which only means something while the
// payment can still be paid; the server has the same rule for every payment.
function requirePayable(payment: Payment): void {
  if (!PAYABLE.has(payment.status)) throw new UserError(`Payment ${payment.id} is ${payment.status} and cannot be paid`)
}
