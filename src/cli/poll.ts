// Waiting for the sandbox to get somewhere (a settlement, deliveries finishing) by asking again
// until it has, never by sleeping a fixed time and hoping.
import { setTimeout as delay } from 'node:timers/promises'
import { UserError } from '../user-error.js'

/** Calls `check` every `intervalMs` until it returns a value; fails naming `what` after `timeoutMs`. */
export async function pollUntil<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const result = await check()
    if (result !== undefined) return result
    if (Date.now() >= deadline) throw new UserError(`Gave up waiting for ${what} after ${Math.round(timeoutMs / 1000)} s`)
    await delay(intervalMs)
  }
}
