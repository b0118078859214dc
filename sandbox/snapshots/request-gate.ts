// Holds the sandbox's HTTP requests while its state is swapped (snapshot restore, reset): new
// requests wait at the gate, those already inside finish first, live streams are ended (their
// clients reconnect), and then the swap runs alone. Waiting requests go on to the new state.
import type { ServerResponse } from 'node:http'
import { isStream } from '../http/streams.js'

export class GateBusyError extends Error {}

export class RequestGate {
  readonly #inside = new Set<ServerResponse>()
  #waiting: Array<() => void> | undefined
  #drained: (() => void) | undefined
  #exclusive: ServerResponse | undefined
  #busy = false

  /** Runs `handle` for the request now, or once the gate opens again. */
  admit(response: ServerResponse, handle: () => void): void {
    if (this.#waiting) {
      this.#waiting.push(() => this.admit(response, handle))
      return
    }
    this.#inside.add(response)
    response.once('close', () => {
      this.#inside.delete(response)
      this.#checkDrained()
    })
    handle()
  }

  /**
   * Runs `work` with no other request inside: closes the gate, waits for the requests inside
   * (except `self`, the request asking for it, if a request asks) to finish, runs `work`, and
   * opens the gate. A second exclusive request while one runs is refused rather than queued behind it.
   */
  async exclusive<T>(self: ServerResponse | undefined, work: () => Promise<T>, drainTimeoutMs = 30_000): Promise<T> {
    if (this.#busy) throw new GateBusyError('Another restore or reset is in progress')
    this.#busy = true
    this.#exclusive = self
    this.#waiting = []
    try {
      for (const response of this.#inside) if (isStream(response)) response.end()
      await this.#drain(drainTimeoutMs)
      return await work()
    } finally {
      const waiting = this.#waiting
      this.#waiting = undefined
      this.#exclusive = undefined
      this.#busy = false
      for (const resume of waiting) resume()
    }
  }

  #others(): number {
    return [...this.#inside].filter((response) => response !== this.#exclusive).length
  }

  #drain(timeoutMs: number): Promise<void> {
    if (this.#others() === 0) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#drained = undefined
        reject(new GateBusyError(`${this.#others()} requests were still running after ${timeoutMs / 1000} s`))
      }, timeoutMs)
      this.#drained = () => {
        clearTimeout(timer)
        this.#drained = undefined
        resolve()
      }
    })
  }

  #checkDrained(): void {
    if (this.#drained && this.#others() === 0) this.#drained()
  }
}
