// What the payment detail page can do to a payment: the CLI's simulations and merchant actions,
// each run through the same service the API route calls (route → service → repository), so the
// rules, refusals and amounts are the sandbox's own. Underpay and overpay pay what the API's
// {"underpay": true} and the hosted checkout's buttons pay (intendedAmount, payment-simulation.ts).
// The page offers the actions that apply to the payment's state; the services still decide.
import type { Kysely } from 'kysely'
import { createRefundBody } from '../../src/api/contract/payments.js'
import { failBody, payBody } from '../../src/api/contract/sandbox-simulations.js'
import { majorToMinorUnits } from '../../src/money.js'
import type { SandboxContext } from '../context.js'
import { findCurrency } from '../currencies/currency-table.js'
import type { Database, MerchantRow, PaymentRow } from '../db/schema.js'
import { badRequest } from '../errors.js'
import { failEscrow, releaseEscrow } from '../escrow/escrow-service.js'
import { isPayable, statusAt } from '../payments/payment-lifecycle.js'
import { acceptUnderpayment } from '../payments/payment-service.js'
import { refundPayment } from '../refunds/refund-service.js'
import { expirePayment, failPayment, intendedAmount, simulateCustomerPayment } from '../simulation/payment-simulation.js'

export const PAYMENT_ACTIONS = [
  'pay',
  'underpay',
  'overpay',
  'wrong-memo',
  'wrong-asset',
  'accept-underpayment',
  'escrow-release',
  'expire',
  'fail',
  'escrow-fail',
  'refund',
] as const
export type PaymentActionId = (typeof PAYMENT_ACTIONS)[number]

export const isPaymentAction = (value: string): value is PaymentActionId => (PAYMENT_ACTIONS as readonly string[]).includes(value)

/** The form fields an action reads besides the CSRF token, the idempotency key and the confirmation. */
export type ActionForm = Record<string, string>

export interface PaymentAction {
  label: string
  /** What it does, shown beside the button. */
  hint: string
  /** Needs its confirmation box ticked: it ends the payment or moves money back. */
  destructive: boolean
  /** Whether the page offers it for the payment as it is now (the service decides all the same). */
  offered(payment: PaymentRow, now: number): boolean
  run(ctx: SandboxContext, trx: Kysely<Database>, merchant: MerchantRow, payment: PaymentRow, form: ActionForm): Promise<unknown>
}

const payable = isPayable
const isEscrow = (payment: PaymentRow) => payment.escrow_status !== null
const text = (form: ActionForm, name: string): string | undefined => (form[name]?.trim() ? form[name]!.trim() : undefined)

/** A refund amount typed in major units ("6.25"), in smallest units; blank: everything refundable. */
function refundAmountOf(payment: PaymentRow, form: ActionForm): number | undefined {
  const typed = text(form, 'amount')
  if (typed === undefined) return undefined
  const precision = findCurrency(payment.amount_currency)?.precision ?? 2
  const units = /^\d{1,12}(\.\d{1,8})?$/.test(typed) ? majorToMinorUnits(typed, precision) : undefined
  if (units === undefined)
    throw badRequest(`amount: "${typed.slice(0, 32)}" is not an amount in ${payment.amount_currency} with at most ${precision} decimals`)
  return units
}

export const ACTIONS: Record<PaymentActionId, PaymentAction> = {
  pay: {
    label: 'Pay',
    hint: 'A sandbox customer pays what remains.',
    destructive: false,
    offered: payable,
    run: (ctx, trx, _m, payment) => simulateCustomerPayment(ctx, trx, payment, {}),
  },
  underpay: {
    label: 'Underpay',
    hint: 'A customer pays half of what remains.',
    destructive: false,
    offered: (payment, now) => payable(payment, now) && intendedAmount(payment, 'underpay') !== undefined,
    run: (ctx, trx, _m, payment) => simulateCustomerPayment(ctx, trx, payment, { underpay: true }),
  },
  overpay: {
    label: 'Overpay',
    hint: 'A customer pays what remains plus a tenth of the amount.',
    destructive: false,
    offered: payable,
    run: (ctx, trx, _m, payment) => simulateCustomerPayment(ctx, trx, payment, { overpay: true }),
  },
  'wrong-memo': {
    label: 'Pay with a wrong memo',
    hint: 'The money lands on the destination with another memo: it pays nothing.',
    destructive: false,
    offered: payable,
    run: (ctx, trx, _m, payment, form) =>
      simulateCustomerPayment(ctx, trx, payment, payBody.parse({ memo: text(form, 'memo') ?? 'wrong-memo' })),
  },
  'wrong-asset': {
    label: 'Pay in the wrong asset',
    hint: 'The customer sends XLM instead of USDC: it pays nothing.',
    destructive: false,
    offered: payable,
    run: (ctx, trx, _m, payment) => simulateCustomerPayment(ctx, trx, payment, { asset: 'XLM' }),
  },
  'accept-underpayment': {
    label: 'Accept the underpayment',
    hint: 'The payment becomes paid for what it received, and that settles.',
    destructive: false,
    offered: (payment) => payment.status === 'underpaid',
    run: (ctx, trx, merchant, payment) => acceptUnderpayment(ctx, trx, merchant, payment.id),
  },
  'escrow-release': {
    label: 'Release the escrow',
    hint: 'The payee gets what the order holds, less the platform fee.',
    destructive: false,
    offered: (payment) => payment.escrow_status === 'funded' && payment.settlement_status === 'open',
    run: (ctx, trx, _m, payment) => releaseEscrow(ctx, trx, payment),
  },
  expire: {
    label: 'Expire',
    hint: 'Expires the payment now, whatever its expiresAt.',
    destructive: true,
    offered: (payment, now) => statusAt(payment, now) === 'open',
    run: (ctx, trx, _m, payment) => expirePayment(ctx, trx, payment),
  },
  fail: {
    label: 'Fail',
    hint: 'A simulated processing failure: the payment becomes failed.',
    destructive: true,
    offered: (payment, now) => payable(payment, now) && !isEscrow(payment),
    run: (ctx, trx, _m, payment, form) => failPayment(ctx, trx, payment, failBody.parse({ reason: text(form, 'reason') })),
  },
  'escrow-fail': {
    label: 'Fail the escrow funding',
    hint: 'A simulated funding failure: the order and its payment fail.',
    destructive: true,
    offered: (payment) => payment.escrow_status === 'created',
    run: (ctx, trx, _m, payment, form) => failEscrow(ctx, trx, payment, text(form, 'reason') ?? 'simulated funding failure'),
  },
  refund: {
    label: 'Refund',
    hint: 'Pays the customer back: everything refundable, or the amount given (a paid payment only).',
    destructive: true,
    offered: (payment) => payment.usdc_received > payment.usdc_refunded,
    run: (ctx, trx, merchant, payment, form) =>
      refundPayment(ctx, trx, merchant, payment.id, createRefundBody.parse({ amount: refundAmountOf(payment, form) })),
  },
}
