// Events become outbox deliveries in the transaction of the change that caused them: an event is
// never lost, nor sent for a change that rolled back. An event is about a subject (a payment, an
// invoice, a refund); each kind of subject declares its events once (an EventDeclaration) and its
// change writer runs `recordEventsOf(declaration)` after every change (docs/webhooks.md).
import type { Kysely } from 'kysely'
import { v5 as uuidv5 } from 'uuid'
import type { WebhookEventType } from '../../src/api/enumerations.js'
import type { Database, EventSubjectType, PaymentRow, WebhookDeliveryRow } from '../db/schema.js'
import { insertDelivery, insertEvent, nextDeliverySequence } from './webhook-repository.js'

/** Namespace of delivery ids: UUIDv5 of the subject and sequence number, so seeded runs repeat. */
const DELIVERY_ID_NAMESPACE = '6f1c9a52-3b0e-4d8e-9c57-2a1d7e0b4f63'

/** What an event is about, as the outbox needs it. */
export interface EventSubject {
  type: EventSubjectType
  id: string
  merchantId: string
  /** Where its events are sent; null: they are logged as events, and no delivery is queued. */
  webhookUrl: string | null
}

/** One kind of subject's events: which change is which event, and the exact body each one sends. */
export interface EventDeclaration<Row> {
  subject(row: Row): EventSubject
  /** The event a change is (`before` undefined: the row was created), or undefined for none. */
  eventFor(before: Row | undefined, after: Row): WebhookEventType | undefined
  /** The exact text sent and signed: serialized once, stored, and replayed byte for byte. */
  payload(type: WebhookEventType, row: Row): string
  /** Business time of the change. */
  changedAt(row: Row): number
}

/** A change effect for the subject's change writer: queues the event the change is, if any. */
export function recordEventsOf<Row>(declaration: EventDeclaration<Row>) {
  return async (db: Kysely<Database>, before: Row | undefined, after: Row): Promise<void> => {
    const type = declaration.eventFor(before, after)
    if (type === undefined) return
    await recordEvent(db, declaration.subject(after), type, declaration.payload(type, after), declaration.changedAt(after))
  }
}

export async function newDeliveryIdentity(
  db: Kysely<Database>,
  subject: { type: EventSubjectType; id: string },
): Promise<{ id: string; sequence: number }> {
  const sequence = await nextDeliverySequence(db)
  // A payment's ids are named as they were before events had other subjects, so seeded runs keep them.
  const name = subject.type === 'payment' ? `${subject.id}:${sequence}` : `${subject.type}:${subject.id}:${sequence}`
  return { id: uuidv5(name, DELIVERY_ID_NAMESPACE), sequence }
}

/**
 * Whether the sandbox will emit an event of the payment with no one acting: a settlement in
 * processing reports its outcome (transaction_updated) when the ledger holding it closes.
 */
export const eventComing = (payment: Pick<PaymentRow, 'settlement_status'>): boolean => payment.settlement_status === 'processing'

/** Without a webhookUrl no delivery is queued; whether a queued one is sent (or skipped) is the dispatcher's call. */
async function recordEvent(
  db: Kysely<Database>,
  subject: EventSubject,
  type: WebhookEventType,
  payload: string,
  now: number,
): Promise<void> {
  const about = { merchant_id: subject.merchantId, subject_type: subject.type, subject_id: subject.id, event_type: type }
  await insertEvent(db, { ...about, payload, created_at: now })
  if (subject.webhookUrl === null) return
  await insertDelivery(
    db,
    pendingDelivery({
      ...(await newDeliveryIdentity(db, subject)),
      ...about,
      url: subject.webhookUrl,
      request_payload: payload,
      created_at: now,
    }),
  )
}

/** What says which delivery a queued one is, and where it goes; a resend also carries its attempt and its original. */
export type DeliveryToQueue = Pick<
  WebhookDeliveryRow,
  'id' | 'sequence' | 'merchant_id' | 'subject_type' | 'subject_id' | 'event_type' | 'url' | 'request_payload' | 'created_at'
> &
  Partial<Pick<WebhookDeliveryRow, 'attempt_count' | 'resend_of'>>

/** A delivery as queued: pending, nothing sent, logged or claimed yet. */
export function pendingDelivery(delivery: DeliveryToQueue): WebhookDeliveryRow {
  return {
    status: 'pending',
    response_body: null,
    http_status: null,
    error_message: null,
    attempt_count: 1,
    duration_ms: null,
    resend_of: null,
    last_attempt_at: null,
    updated_at: delivery.created_at,
    claim_token: null,
    claimed_until: null,
    claimed_by: null,
    ...delivery,
  }
}

/** The payment an event or delivery is about (the log's checkout_id), or null when its subject is another kind. */
export function paymentIdOf(row: { subject_type: EventSubjectType; subject_id: string }): string | null {
  return row.subject_type === 'payment' ? row.subject_id : null
}
