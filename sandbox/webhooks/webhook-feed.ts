// Tells listeners of every finished delivery (the live tail), of progress (a delivery finished:
// the health check), and of every new payment event (`paybox listen`), reading events from the
// outbox past a cursor.
import type { Kysely } from 'kysely'
import type { Database, WebhookDeliveryRow } from '../db/schema.js'
import type { DeliveryListener, EventListener } from '../context.js'
import { findEventsAfter, lastEventSequence } from './webhook-repository.js'

const EVENT_BATCH = 100

export class WebhookFeed {
  readonly #deliveryListeners = new Set<DeliveryListener>()
  readonly #eventListeners = new Set<EventListener>()
  readonly #progressListeners = new Set<() => void>()
  #eventCursor = 0

  onDelivery(listener: DeliveryListener): () => void {
    this.#deliveryListeners.add(listener)
    return () => this.#deliveryListeners.delete(listener)
  }

  onProgress(listener: () => void): () => void {
    this.#progressListeners.add(listener)
    return () => this.#progressListeners.delete(listener)
  }

  onEvent(listener: EventListener): () => void {
    this.#eventListeners.add(listener)
    return () => this.#eventListeners.delete(listener)
  }

  /** Listeners hear of events from now on. */
  async start(db: Kysely<Database>): Promise<void> {
    this.#eventCursor = await lastEventSequence(db)
  }

  async readEvents(db: Kysely<Database>): Promise<void> {
    if (this.#eventListeners.size === 0) {
      // Nobody to tell: keep the cursor at the newest event without reading any.
      this.#eventCursor = await lastEventSequence(db)
      return
    }
    for (const event of await findEventsAfter(db, this.#eventCursor, EVENT_BATCH)) {
      this.#eventCursor = event.sequence
      for (const listener of this.#eventListeners) listener(event)
    }
  }

  /** This replica logged a delivery. */
  delivered(delivery: WebhookDeliveryRow): void {
    this.#progressed()
    for (const listener of this.#deliveryListeners) listener(delivery)
  }

  /** Another replica logged deliveries: progress at once; their rows are read only for a listener that wants them. */
  async heardDelivered(read: () => Promise<WebhookDeliveryRow[]>): Promise<void> {
    this.#progressed()
    if (this.#deliveryListeners.size === 0) return
    for (const delivery of await read()) for (const listener of this.#deliveryListeners) listener(delivery)
  }

  #progressed(): void {
    for (const listener of this.#progressListeners) listener()
  }
}
