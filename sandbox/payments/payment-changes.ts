// Every change of a payment is written here, and what follows it (registered in sandbox/reactions.ts)
// runs right after, in the same transaction.
import type { Kysely } from 'kysely'
import { ChangeEffects, type ChangeEffect } from '../db/change-effects.js'
import type { Database, PaymentRow, PaymentUpdate } from '../db/schema.js'
import { updatePayment } from './payment-repository.js'

/** Runs after a payment was created (`before` undefined) or changed, inside that transaction. */
export type PaymentChangeEffect = ChangeEffect<PaymentRow>

export interface PaymentChanges {
  /** Adds an effect; effects run in the order they were added. */
  onChange(effect: PaymentChangeEffect): void
  /** A payment was just inserted: its effects (the creation event) follow. */
  created(db: Kysely<Database>, payment: PaymentRow): Promise<void>
  save(db: Kysely<Database>, payment: PaymentRow, changes: PaymentUpdate): Promise<PaymentRow>
}

export class PaymentChangeWriter implements PaymentChanges {
  readonly #effects = new ChangeEffects<PaymentRow>()

  onChange(effect: PaymentChangeEffect): void {
    this.#effects.onChange(effect)
  }

  async created(db: Kysely<Database>, payment: PaymentRow): Promise<void> {
    await this.#effects.follow(db, undefined, payment)
  }

  async save(db: Kysely<Database>, payment: PaymentRow, changes: PaymentUpdate): Promise<PaymentRow> {
    await updatePayment(db, payment.id, changes)
    const after = { ...payment, ...changes } as PaymentRow
    await this.#effects.follow(db, payment, after)
    return after
  }
}
