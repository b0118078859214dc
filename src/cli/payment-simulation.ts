// What `paybox payments pay` shows of a sandbox customer's payment. The sandbox decides what is
// paid (an amount, or {"underpay": true} / {"overpay": true}) and whether the payment can be paid.
// All amounts are integers in the smallest unit of the payment's pricing currency.
import type { Payment } from '../client/types.js'
import { divideRoundHalfUp } from '../money.js'
import { stroopsOf } from './usdc.js'

/** What is left to pay (never below zero: a payment can be paid more than its amount). */
export const remainingOf = (payment: Payment): number => Math.max(payment.amount.value - payment.amount_paid, 0)

// The inverse of how the sandbox derives amount_paid; only before settlement, while settlement_amount
// is still the USDC price of the whole amount (afterwards it is net of fees).
export function usdcWorth(payment: Payment, units: number): bigint {
  return divideRoundHalfUp(BigInt(units) * stroopsOf(payment.settlement_amount), BigInt(payment.amount.value))
}
