// At most 10 resends per minute per merchant (spec 8), over a sliding window of real time.
import type { Clock } from '../clock.js'

export const RESENDS_PER_MINUTE = 10
const WINDOW_MS = 60_000

export class ResendLimiter {
  readonly #clock: Clock
  readonly #recent = new Map<string, number[]>()

  constructor(clock: Clock) {
    this.#clock = clock
  }

  /** Takes one resend for the merchant; if the window is full, the seconds until one frees up. */
  take(merchantId: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.#clock.now()
    const recent = (this.#recent.get(merchantId) ?? []).filter((time) => time > now - WINDOW_MS)
    if (recent.length >= RESENDS_PER_MINUTE) {
      this.#recent.set(merchantId, recent)
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now) / 1000)) }
    }
    recent.push(now)
    this.#recent.set(merchantId, recent)
    return { allowed: true }
  }
}
