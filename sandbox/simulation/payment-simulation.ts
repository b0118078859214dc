// Simulated customers and processing (sandbox only). A customer wallet pays over the ledger
// exactly as a real wallet would (a USDC payment to the payment's destination with its memo),
// so the payment moves through the same memo matching as every other way of paying. The other
// simulations make the moves that in production come from outside: a processing failure,
// expiry now rather than at expiresAt, and the customer cancelling on the checkout page.
// A customer's mistakes go through the same path: a wrong memo or a wrong asset is a real
// ledger payment to the destination, and the memo matcher decides that it pays nothing.
// Each takes the payment row: the API finds it by merchant, the checkout page by auth token.
import type { Kysely } from 'kysely'
import type { SandboxContext } from '../context.js'
import type { Database, PaymentRow } from '../db/schema.js'
import { badRequest, conflict, refusedByLedgerAs } from '../errors.js'
import { moveTo, requirePayable } from '../payments/payment-lifecycle.js'
import { usdcForValue } from '../payments/payment-receipts.js'
import { findPaymentById } from '../payments/payment-repository.js'
import type { FailBody, PayBody } from '../../src/api/requests.js'
import { merchantNow } from '../merchants/merchant-time.js'

type SimulationContext = Pick<SandboxContext, 'clock' | 'wallClock' | 'ledger' | 'payments'>

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
  const usdc = body?.amount === undefined ? BigInt(payment.usdc_amount - payment.usdc_received) : usdcForValue(payment, body.amount)
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
