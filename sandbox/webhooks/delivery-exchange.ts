// One POST to a webhook receiver through undici's dispatch API, which costs less per delivery
// than request(): no body stream, async iterator or AbortSignals.
import type { Dispatcher, Pool } from 'undici'

const utf8 = new TextDecoder('utf-8', { fatal: false })

/** The answer's body is cut at `limit` bytes: the rest is not read, the connection is closed. */
export class DeliveryExchange implements Dispatcher.DispatchHandler {
  readonly answer: Promise<{ status: number; body: string }>
  readonly #limit: number
  readonly #chunks: Buffer[] = []
  #size = 0
  #status = 0
  #settled = false
  #abortRequest: ((error?: Error) => void) | undefined
  #cancelled: Error | undefined
  #resolve!: (answer: { status: number; body: string }) => void
  #reject!: (error: unknown) => void

  constructor(limit: number) {
    this.#limit = limit
    this.answer = new Promise((resolve, reject) => {
      this.#resolve = resolve
      this.#reject = reject
    })
  }

  start(pool: Pool, options: Dispatcher.DispatchOptions): void {
    try {
      pool.dispatch(options, this)
    } catch (error) {
      this.onError(error as Error)
    }
  }

  /** Ends the exchange with `error` (timeout, stop), closing the request if it is under way. */
  cancel(error: Error): void {
    if (this.#settled) return
    this.#cancelled = error
    if (this.#abortRequest) this.#abortRequest(error)
    else this.onError(error)
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.#cancelled) abort(this.#cancelled)
    else this.#abortRequest = abort
  }

  onHeaders(statusCode: number): boolean {
    // 1xx answers are interim: the final one follows.
    if (statusCode >= 200) this.#status = statusCode
    return true
  }

  onData(chunk: Buffer): boolean {
    if (this.#settled) return true
    this.#chunks.push(chunk)
    this.#size += chunk.byteLength
    if (this.#size > this.#limit) {
      this.#finish()
      this.#abortRequest?.(new Error('The answer is longer than the log keeps'))
    }
    return true
  }

  onComplete(): void {
    this.#finish()
  }

  onError(error: Error): void {
    if (this.#settled) return
    this.#settled = true
    this.#reject(error)
  }

  #finish(): void {
    if (this.#settled) return
    this.#settled = true
    const bytes = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks)
    // Cut on a character boundary: a partial UTF-8 sequence at the end is dropped. A NUL, which
    // PostgreSQL's text cannot hold, is logged as U+FFFD on both backends.
    const body = utf8
      .decode(bytes.subarray(0, this.#limit))
      .replace(/\uFFFD$/, '')
      .replaceAll('\0', '\uFFFD')
    this.#resolve({ status: this.#status, body })
  }
}
