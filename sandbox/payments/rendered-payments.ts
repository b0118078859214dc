// The JSON of recently read payments, each for the version it was rendered from. Polling a
// payment until it is paid is what integrations do most; a poll now reads the payment's version
// (one integer) instead of its ~40 columns, and answers the text it rendered before when the
// version has not moved. The version is bumped by a trigger on every change of the row, by any
// code or process (migration 2026-11-22T00-00), so a kept text is never stale.
import { LRUCache } from 'lru-cache'

export class RenderedPayments {
  readonly #texts: LRUCache<string, { version: number; text: string }>

  constructor(capacity = 2_000) {
    this.#texts = new LRUCache({ max: capacity })
  }

  /** The text rendered for this version of the payment, if it is kept. */
  get(id: string, version: number): string | undefined {
    const kept = this.#texts.get(id)
    return kept?.version === version ? kept.text : undefined
  }

  set(id: string, version: number, text: string): string {
    this.#texts.set(id, { version, text })
    return text
  }
}
