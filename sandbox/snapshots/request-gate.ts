// Holds the sandbox's HTTP requests while its state is swapped: those inside finish first, live
// streams end (their clients reconnect), and the waiting ones go on to the new state.
import type { ServerResponse } from 'node:http'
import { isStream } from '../http/streams.js'

export class GateBusyError extends Error {}

export interface ExclusiveOptions {
  /** Gives up waiting for the requests inside (GateBusyError) once aborted: the work is no longer needed. */
  signal?: AbortSignal
  /** Called once, when the first request is held at the gate. */
  onHold?: () => void
}

export class RequestGate {
  readonly #inside = new Set<ServerResponse>()
  #waiting: Array<() => void> | undefined
  #drained: (() => void) | undefined
  #exclusive: ServerResponse | undefined
  #onHold: (() => void) | undefined

  /** Whether an exclusive run holds the gate (or waits for it to drain). */
  get busy(): boolean {
    return this.#waiting !== undefined
  }

  admit(response: ServerResponse, handle: () => void): void {
    if (this.#waiting) {
      this.#waiting.push(() => this.admit(response, handle))
      if (this.#waiting.length === 1) this.#onHold?.()
      return
    }
    this.#inside.add(response)
    response.once('close', () => {
      this.#inside.delete(response)
      this.#checkDrained()
    })
    handle()
  }

  /** With no other request inside (but `self`, the one asking); a second one meanwhile is refused, not queued. */
  async exclusive<T>(
    self: ServerResponse | undefined,
    work: () => Promise<T>,
    drainTimeoutMs = 30_000,
    options: ExclusiveOptions = {},
  ): Promise<T> {
    if (this.busy) throw new GateBusyError('Another restore or reset is in progress')
    this.#exclusive = self
    this.#waiting = []
    this.#onHold = options.onHold
    try {
      for (const response of this.#inside) if (isStream(response)) response.end()
      await this.#drain(drainTimeoutMs, options.signal)
      return await work()
    } finally {
      const waiting = this.#waiting
      this.#waiting = undefined
      this.#exclusive = undefined
      this.#onHold = undefined
      for (const resume of waiting) resume()
    }
  }

  #others(): number {
    return [...this.#inside].filter((response) => response !== this.#exclusive).length
  }

  #drain(timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(new GateBusyError('No longer needed'))
    if (this.#others() === 0) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      const stop = (error?: GateBusyError) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', abort)
        this.#drained = undefined
        if (error) reject(error)
        else resolve()
      }
      const abort = () => stop(new GateBusyError('No longer needed'))
      const timer = setTimeout(
        () => stop(new GateBusyError(`${this.#others()} requests were still running after ${timeoutMs / 1000} s`)),
        timeoutMs,
      )
      signal?.addEventListener('abort', abort, { once: true })
      this.#drained = () => stop()
    })
  }

  #checkDrained(): void {
    if (this.#drained && this.#others() === 0) this.#drained()
  }
}
