// The JSON of recently read payments, each for the version it was rendered from: a poll reads
// the version (one integer) instead of ~40 columns. A trigger bumps the version on every change
// of the row, by any code or process (migration 2026-11-22T00-00), so a kept text is never stale.
import { LRUCache } from 'lru-cache'

export class RenderedPayments {
  readonly #texts: LRUCache<string, { version: number; text: string }>

  constructor(capacity = 2_000) {
    this.#texts = new LRUCache({ max: capacity })
  }

  get(id: string, version: number): string | undefined {
    const kept = this.#texts.get(id)
    return kept?.version === version ? kept.text : undefined
  }

  set(id: string, version: number, text: string): string {
    this.#texts.set(id, { version, text })
    return text
  }
}
