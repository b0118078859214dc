// What follows a change of a record (a payment, an invoice …), registered in one list and run in
// the transaction of the change: its event joins the outbox, other records follow it.
import type { Kysely } from 'kysely'
import type { Database } from './schema.js'

/** Runs after a record was created (`before` undefined) or changed, inside that transaction. */
export type ChangeEffect<Row> = (db: Kysely<Database>, before: Row | undefined, after: Row) => Promise<unknown>

export class ChangeEffects<Row> {
  readonly #effects: Array<ChangeEffect<Row>> = []

  /** Adds an effect; effects run in the order they were added. */
  onChange(effect: ChangeEffect<Row>): void {
    this.#effects.push(effect)
  }

  /** The record was just written (`before` undefined: inserted): its effects follow. */
  async follow(db: Kysely<Database>, before: Row | undefined, after: Row): Promise<void> {
    for (const effect of this.#effects) await effect(db, before, after)
  }
}
