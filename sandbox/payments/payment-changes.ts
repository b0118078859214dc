// Every change of a payment is written here, and what follows it (registered in sandbox/reactions.ts)
// runs right after, in the same transaction.
import type { Kysely } from 'kysely'
import { ChangeEffects } from '../db/change-effects.js'
import type { PaymentChangeEffect, PaymentChanges } from '../context.js'
import type { Database, PaymentRow, PaymentUpdate } from '../db/schema.js'
import { updatePayment } from './payment-repository.js'

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
