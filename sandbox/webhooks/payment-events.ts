// The three events of spec 6, about payments: creation, failure, or a change of either status.
import type { PaymentRow } from '../db/schema.js'
import { recordEventsOf, type EventDeclaration } from './webhook-events.js'
import { webhookPayload, type WebhookEventType } from './webhook-payload.js'

/** Which event a change of a payment is, if any. */
export function eventFor(before: PaymentRow | undefined, after: PaymentRow): WebhookEventType | undefined {
  if (before === undefined) return 'transaction_created'
  if (after.status !== before.status) return after.status === 'failed' ? 'transaction_failed' : 'transaction_updated'
  if (after.settlement_status !== before.settlement_status) return 'transaction_updated'
  return undefined
}

export const paymentEvents: EventDeclaration<PaymentRow> = {
  subject: (payment) => ({ type: 'payment', id: payment.id, merchantId: payment.merchant_id, webhookUrl: payment.webhook_url }),
  eventFor,
  payload: (type, payment) => webhookPayload(type as WebhookEventType, payment),
  changedAt: (payment) => payment.updated_at,
}

/** Registered with the payments' change writer (sandbox/reactions.ts). */
export const recordPaymentEvent = recordEventsOf(paymentEvents)
