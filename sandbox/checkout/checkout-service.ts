// The rules of the hosted checkout: who may see a payment (its auth token), what state the
// customer sees, which sandbox buttons a state offers. The buttons run the same simulations as
// the API (sandbox/simulation/payment-simulation.ts), which also decides what each one pays.
import type { Kysely } from 'kysely'
import { secretsMatch } from '../../src/signing.js'
import type { SandboxContext } from '../context.js'
import type { Database, PaymentRow } from '../db/schema.js'
import { conflict } from '../errors.js'
import { statusAt } from '../payments/payment-lifecycle.js'
import { findPaymentById, findPaymentForChange } from '../payments/payment-repository.js'
import { cancelPayment, failPayment, simulateCustomerPayment } from '../simulation/payment-simulation.js'
import { merchantNow } from '../merchants/merchant-time.js'

export const CHECKOUT_ACTIONS = ['pay-full', 'pay-part', 'overpay', 'fail', 'cancel'] as const
export type CheckoutAction = (typeof CHECKOUT_ACTIONS)[number]

export const isCheckoutAction = (value: string): value is CheckoutAction => (CHECKOUT_ACTIONS as readonly string[]).includes(value)

/** The buttons that move money from a customer wallet. */
export const isPayingAction = (value: string | undefined): boolean => value === 'pay-full' || value === 'pay-part' || value === 'overpay'

/** Ids are short; anything longer is not worth a query. */
const MAX_ID_LENGTH = 64

/** The payment behind a checkout link, or undefined when the id or the token is wrong. */
export async function findCheckoutPayment(db: Kysely<Database>, id: string, authToken: unknown): Promise<PaymentRow | undefined> {
  const payment = id.length <= MAX_ID_LENGTH ? await findPaymentById(db, id) : undefined
  return payment && secretsMatch(payment.auth_token, authToken) ? payment : undefined
}

/** The sandbox buttons a status offers; a customer cannot cancel after paying part. */
export function availableActions(status: string): readonly CheckoutAction[] {
  if (status === 'open') return CHECKOUT_ACTIONS
  if (status === 'underpaid') return ['pay-full', 'pay-part', 'overpay', 'fail']
  return []
}

const DECLINED = 'customer wallet declined'

/** Runs one button on a payment already checked against its token; returns the payment after it. */
export async function runCheckoutAction(
  ctx: Pick<SandboxContext, 'clock' | 'wallClock' | 'ledger' | 'payments'>,
  db: Kysely<Database>,
  checked: PaymentRow,
  action: CheckoutAction,
): Promise<PaymentRow> {
  // Read again, locked, as every change of a payment is: a button pressed twice (or with the API
  // changing the payment meanwhile) runs against the payment as the change before left it.
  const payment = (await findPaymentForChange(db, { id: checked.id }))!
  const status = statusAt(payment, await merchantNow(ctx, db, payment.merchant_id))
  if (!availableActions(status).includes(action)) {
    throw conflict('Conflict', `Payment ${payment.id} is ${status}: the checkout cannot ${action} it`)
  }
  switch (action) {
    case 'pay-full':
      return simulateCustomerPayment(ctx, db, payment, {})
    // The sandbox's underpayment and overpayment, as the API's {"underpay": true} pays them.
    case 'pay-part':
      return simulateCustomerPayment(ctx, db, payment, { underpay: true })
    case 'overpay':
      return simulateCustomerPayment(ctx, db, payment, { overpay: true })
    case 'fail':
      return failPayment(ctx, db, payment, { reason: DECLINED })
    case 'cancel':
      return cancelPayment(ctx, db, payment)
  }
}

/** A merchant URL the customer may be sent to: only absolute http(s) URLs. */
export function merchantUrl(text: string | null): string | undefined {
  if (text === null || !URL.canParse(text)) return undefined
  const url = new URL(text)
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
}
