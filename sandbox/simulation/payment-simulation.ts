// Simulated customers and processing (sandbox only). A customer wallet pays over the ledger
// exactly as a real wallet would (a USDC payment to the payment's destination with its memo),
// so the payment moves through the same memo matching as every other way of paying. The other
// simulations make the moves that in production come from outside: a processing failure,
// expiry now rather than at expiresAt, and the customer cancelling on the checkout page.
// A customer's mistakes go through the same path: a wrong memo or a wrong asset is a real
// ledger payment to the destination, and the memo matcher decides that it pays nothing.
// Each takes the payment row read for change (locked: findPaymentForChange), first in its
// transaction: the API finds it by merchant, the checkout page by auth token.
import type { Kysely } from 'kysely'
import { divideRoundHalfUp, minorToMajorUnits } from '../../src/money.js'
import type { SandboxContext } from '../context.js'
import type { Database, PaymentRow } from '../db/schema.js'
import { badRequest, conflict } from '../errors.js'
import { refusedByLedgerAs } from '../ledger/ledger-refusals.js'
import { moveTo, requirePayable } from '../payments/payment-lifecycle.js'
import { findCurrency } from '../currencies/currency-table.js'
import { remainingValue, usdcForValue } from '../payments/payment-receipts.js'
import { findPaymentById } from '../payments/payment-repository.js'
import type { FailBody, PayBody } from '../../src/api/contract/sandbox-simulations.js'
import { merchantNow } from '../merchants/merchant-time.js'

type SimulationContext = Pick<SandboxContext, 'clock' | 'wallClock' | 'ledger' | 'payments'>

/** What a simulated customer may be asked to pay instead of an amount. */
export type PayIntent = 'underpay' | 'overpay'

/**
 * Smallest units of the pricing currency an underpayment or overpayment sends, decided here
 * alone for the API, the checkout's buttons and the dashboard: half of what remains, rounded
 * down (undefined when less than two units remain: nothing would leave the payment underpaid),
 * or what remains plus a tenth of the amount, rounded half up, and at least one unit more.
 */
export function intendedAmount(payment: PaymentRow, intent: PayIntent): number | undefined {
  const remaining = remainingValue(payment)
  if (intent === 'overpay') return remaining + Math.max(1, Number(divideRoundHalfUp(BigInt(payment.amount_value), 10n)))
  return remaining < 2 ? undefined : Math.floor(remaining / 2)
}

/** The amount a pay body asks for, in smallest units of the pricing currency; undefined: what remains. */
function amountOf(payment: PaymentRow, body: PayBody): number | undefined {
  const intent: PayIntent | undefined = body?.underpay ? 'underpay' : body?.overpay ? 'overpay' : undefined
  if (intent === undefined) return body?.amount
  const amount = intendedAmount(payment, intent)
  if (amount === undefined) {
    const precision = findCurrency(payment.amount_currency)?.precision ?? 0
    const left = `${minorToMajorUnits(remainingValue(payment), precision)} ${payment.amount_currency}`
    throw conflict('Conflict', `Payment ${payment.id} has ${left} left to pay, which cannot be underpaid: pay it in full instead`)
  }
  return amount
}

/**
 * Pays `amount` (default: what remains) from a customer wallet; returns the updated payment.
 * With `memo` or `asset: 'XLM'` the wallet sends that many stroops with that memo or in XLM
 * instead, and the payment is credited only if the memo matcher says so.
 */
export async function simulateCustomerPayment(
  ctx: SimulationContext,
  db: Kysely<Database>,
  payment: PaymentRow,
  body: PayBody,
): Promise<PaymentRow> {
  requirePayable(payment, await merchantNow(ctx, db, payment.merchant_id))
  const amount = amountOf(payment, body)
  const usdc = amount === undefined ? BigInt(payment.usdc_amount - payment.usdc_received) : usdcForValue(payment, amount)
  if (usdc <= 0n) throw badRequest('amount: is less than the smallest USDC amount (0.0000001)')
  const from = body?.from ?? (await richestCustomer(ctx, db))
  const account = await ctx.ledger.getAccount(db, from)
  if (!account || account.role !== 'customer') throw badRequest(`from: ${from} is not a customer wallet of this sandbox`)
  // Recorded before the money moves: settlement starts inside the ledger transaction that pays.
  if (body?.failSettlement) await ctx.payments.save(db, payment, { settlement_will_fail: 1 })
  await refusedByLedgerAs(400, "the customer's payment", () =>
    ctx.ledger.transfer(db, {
      from,
      to: payment.destination,
      asset: body?.asset ?? 'USDC',
      amount: usdc,
      memo: body?.memo ?? payment.memo,
    }),
  )
  return (await findPaymentById(db, payment.id))!
}

/** A processing failure: an open or underpaid payment becomes failed. */
export async function failPayment(ctx: SimulationContext, db: Kysely<Database>, payment: PaymentRow, body: FailBody): Promise<PaymentRow> {
  const reason = body?.reason ?? 'simulated processing failure'
  return ctx.payments.save(
    db,
    payment,
    moveTo(payment, 'failed', `Payment failed: ${reason}`, await merchantNow(ctx, db, payment.merchant_id)),
  )
}

/** Expiry now instead of at expiresAt: only an open payment, with nothing received, expires. */
export async function expirePayment(ctx: SimulationContext, db: Kysely<Database>, payment: PaymentRow): Promise<PaymentRow> {
  if (payment.status === 'underpaid') {
    throw conflict('Conflict', `Payment ${payment.id} is underpaid: it does not expire; accept the underpayment or refund it`)
  }
  const now = await merchantNow(ctx, db, payment.merchant_id)
  return ctx.payments.save(db, payment, { ...moveTo(payment, 'expired', 'Payment expired (simulated)', now), expires_at: now })
}

/** The customer cancels on the checkout page: only before paying anything. */
export async function cancelPayment(ctx: SimulationContext, db: Kysely<Database>, payment: PaymentRow): Promise<PaymentRow> {
  if (payment.status === 'underpaid') {
    throw conflict('Conflict', `Payment ${payment.id} is underpaid: the customer cannot cancel after paying part`)
  }
  return ctx.payments.save(
    db,
    payment,
    moveTo(payment, 'canceled', 'Payment canceled by the customer', await merchantNow(ctx, db, payment.merchant_id)),
  )
}

/** The customer wallet with the most USDC, so repeated simulations do not run one dry. */
async function richestCustomer(ctx: SimulationContext, db: Kysely<Database>): Promise<string> {
  const customers = await ctx.ledger.listAccounts(db, { role: 'customer' })
  const richest = customers.reduce<(typeof customers)[number] | undefined>(
    (best, account) => (best === undefined || account.balances.usdc > best.balances.usdc ? account : best),
    undefined,
  )
  if (!richest) throw new Error('The sandbox has no customer wallets')
  return richest.publicKey
}
