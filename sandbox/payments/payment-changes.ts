// Every change of a payment is written here, and what follows it (registered in sandbox/reactions.ts)
// runs right after, in the same transaction.
import type { Kysely } from 'kysely'
import type { PaymentChangeEffect, PaymentChanges } from '../context.js'
import type { Database, PaymentRow, PaymentUpdate } from '../db/schema.js'
import { updatePayment } from './payment-repository.js'

export class PaymentChangeWriter implements PaymentChanges {
  readonly #effects: PaymentChangeEffect[] = []

  onChange(effect: PaymentChangeEffect): void {
    this.#effects.push(effect)
  }

  async created(db: Kysely<Database>, payment: PaymentRow): Promise<void> {
    await this.#follow(db, undefined, payment)
  }

  async save(db: Kysely<Database>, payment: PaymentRow, changes: PaymentUpdate): Promise<PaymentRow> {
    await updatePayment(db, payment.id, changes)
    const after = { ...payment, ...changes } as PaymentRow
    await this.#follow(db, payment, after)
    return after
  }

  async #follow(db: Kysely<Database>, before: PaymentRow | undefined, after: PaymentRow): Promise<void> {
    for (const effect of this.#effects) await effect(db, before, after)
  }
}
