// What the rest of the sandbox sees of webhook delivery: who may be a receiver, resending one
// delivery, and hearing of finished deliveries and new events (WebhookDispatcher implements it).
import type { Kysely } from 'kysely'
import type { Database, PaymentEventRow, WebhookDeliveryRow } from '../db/schema.js'

export type DeliveryListener = (delivery: WebhookDeliveryRow) => void
export type EventListener = (event: PaymentEventRow) => void

export interface WebhookDeliveries {
  /** Why a payment may not have `url` as its webhookUrl (by the sandbox's stored egress policy, read on `db`), or undefined. */
  webhookUrlRefusal(db: Kysely<Database>, url: string): Promise<string | undefined>
  /** The stored payload, byte for byte, to the same URL as a new delivery, signed with the merchant's current secret. */
  resend(original: WebhookDeliveryRow): Promise<WebhookDeliveryRow>
  /** A fetch whose connections obey the same egress rule as deliveries (a shared sandbox's), for grading a receiver. */
  receiverFetch(): Promise<typeof fetch>
  /** Hears of every finished delivery; returns the way to stop listening. */
  onDelivery(listener: DeliveryListener): () => void
  /** Hears of every new event, whatever its subject; returns the way to stop listening. */
  onEvent(listener: EventListener): () => void
}
