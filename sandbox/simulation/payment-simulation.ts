// Simulated customers: a customer wallet pays a payment over the ledger, exactly as a real
// wallet would (a USDC payment to the payment's destination with its memo), so the payment
// moves through the same memo matching as every other way of paying.
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { findCurrency, toUsdcStroops } from '../currencies/currency-table.js'
import type { SandboxContext } from '../context.js'
import type { Database, MerchantRow, PaymentRow } from '../db/schema.js'
import { HttpError, badRequest, conflict } from '../http/errors.js'
import { isAccountAddress } from '../ledger/ledger-accounts.js'
import { LedgerError } from '../ledger/ledger-errors.js'
import { findPaymentById } from '../payments/payment-repository.js'
import { MAX_AMOUNT_VALUE } from '../payments/payment-schemas.js'
import { getPayment } from '../payments/payment-service.js'

export const payBody = z
  .strictObject({
    amount: z
      .number()
      .int({ message: 'must be an integer in the smallest unit of the pricing currency' })
      .positive({ message: 'must be greater than 0' })
      .max(MAX_AMOUNT_VALUE)
      .optional(),
    from: z.string().refine(isAccountAddress, { message: 'must be a Stellar account address (G…)' }).optional(),
  })
  .optional()
export type PayBody = z.infer<typeof payBody>

/** Pays `amount` (default: what remains) from a customer wallet; returns the updated payment. */
export async function payFromCustomer(
  ctx: SandboxContext,
  db: Kysely<Database>,
  merchant: MerchantRow,
  paymentId: string,
  body: PayBody,
): Promise<PaymentRow> {
  const payment = await getPayment(db, merchant, paymentId)
  if (payment.status !== 'open' && payment.status !== 'underpaid') {
    throw conflict('Conflict', `Payment ${payment.id} is ${payment.status} and cannot be paid`)
  }
  const usdc = body?.amount === undefined ? BigInt(payment.usdc_amount - payment.usdc_received) : usdcFor(payment, body.amount)
  if (usdc <= 0n) throw badRequest('amount: is less than the smallest USDC amount (0.0000001)')
  const from = body?.from ?? (await richestCustomer(ctx, db))
  const account = await ctx.ledger.getAccount(db, from)
  if (!account || account.role !== 'customer') throw badRequest(`from: ${from} is not a customer wallet of this sandbox`)
  try {
    await ctx.ledger.transfer(db, { from, to: payment.destination, asset: 'USDC', amount: usdc, memo: payment.memo })
  } catch (error) {
    if (error instanceof LedgerError) {
      const codes = [error.code, ...(error.operationCodes ?? [])].join(', ')
      throw new HttpError(400, 'Bad Request', `The ledger refused the customer's payment (${codes}): ${error.message}`)
    }
    throw error
  }
  return (await findPaymentById(db, payment.id))!
}

function usdcFor(payment: PaymentRow, value: number): bigint {
  const currency = findCurrency(payment.amount_currency)
  if (!currency) throw new Error(`Payment ${payment.id} has an unknown currency`)
  return toUsdcStroops(value, currency)
}

/** The customer wallet with the most USDC, so repeated simulations do not run one dry. */
async function richestCustomer(ctx: SandboxContext, db: Kysely<Database>): Promise<string> {
  const customers = await ctx.ledger.listAccounts(db, { role: 'customer' })
  const richest = customers.reduce<(typeof customers)[number] | undefined>(
    (best, account) => (best === undefined || account.balances.usdc > best.balances.usdc ? account : best),
    undefined,
  )
  if (!richest) throw new Error('The sandbox has no customer wallets')
  return richest.publicKey
}
