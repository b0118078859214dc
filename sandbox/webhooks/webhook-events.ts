// Payment events become outbox deliveries in the transaction of the change that caused them: an
// event is never lost, nor sent for a change that rolled back.
import type { Kysely } from 'kysely'
import { v5 as uuidv5 } from 'uuid'
import type { Database, PaymentRow } from '../db/schema.js'
import { webhookPayload, type WebhookEventType } from './webhook-payload.js'
import { insertDelivery, insertPaymentEvent, nextDeliverySequence } from './webhook-repository.js'

/** Namespace of delivery ids: UUIDv5 of the payment and sequence number, so seeded runs repeat. */
const DELIVERY_ID_NAMESPACE = '6f1c9a52-3b0e-4d8e-9c57-2a1d7e0b4f63'

export async function newDeliveryIdentity(db: Kysely<Database>, paymentId: string): Promise<{ id: string; sequence: number }> {
  const sequence = await nextDeliverySequence(db)
  return { id: uuidv5(`${paymentId}:${sequence}`, DELIVERY_ID_NAMESPACE), sequence }
}

/** Which event a change of a payment is, if any: creation, failure, or a change of either status. */
export function eventFor(before: PaymentRow | undefined, after: PaymentRow): WebhookEventType | undefined {
  if (before === undefined) return 'transaction_created'
  if (after.status !== before.status) return after.status === 'failed' ? 'transaction_failed' : 'transaction_updated'
  if (after.settlement_status !== before.settlement_status) return 'transaction_updated'
  return undefined
}

/**
 * Whether the sandbox will emit an event of the payment with no one acting: a settlement in
 * processing reports its outcome (transaction_updated) when the ledger holding it closes.
 */
export const eventComing = (payment: Pick<PaymentRow, 'settlement_status'>): boolean => payment.settlement_status === 'processing'

/** Without a webhookUrl no delivery is queued; whether a queued one is sent (or skipped) is the dispatcher's call. */
export async function recordPaymentEvent(db: Kysely<Database>, before: PaymentRow | undefined, after: PaymentRow): Promise<void> {
  const type = eventFor(before, after)
  if (type === undefined) return
  const now = after.updated_at
  const payload = webhookPayload(type, after)
  await insertPaymentEvent(db, { merchant_id: after.merchant_id, payment_id: after.id, event_type: type, payload, created_at: now })
  if (after.webhook_url === null) return
  await insertDelivery(db, {
    ...(await newDeliveryIdentity(db, after.id)),
    merchant_id: after.merchant_id,
    payment_id: after.id,
    event_type: type,
    url: after.webhook_url,
    status: 'pending',
    request_payload: payload,
    response_body: null,
    http_status: null,
    error_message: null,
    attempt_count: 1,
    duration_ms: null,
    resend_of: null,
    last_attempt_at: null,
    created_at: now,
    updated_at: now,
  })
}
