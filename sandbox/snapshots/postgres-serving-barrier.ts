// The serving barrier of a sandbox shared on PostgreSQL (issue 17): no replica answers from its
// old state while another one replaces it. Each replica serves only while it holds the serving
// lock shared (db/postgres-serving-lock.ts). A replica replacing the state sends `pause:<id>`;
// every replica closes its gate, lets its requests finish and lets go; the replacing one takes the
// lock exclusive (within a deadline, or the replacement is refused and nothing changed), replaces
// the state, sends `resume:<id>` and lets go. The others take the lock shared again (PostgreSQL
// grants it once the replacement is over), rebuild on the new rows if the state's generation
// moved, and open their gates. A lost message costs time, never safety: without `resume` a
// paused replica asks for the lock after the deadline, and waits there for any replacement.
import { randomUUID } from 'node:crypto'
import { ServingSession } from '../db/postgres-serving-lock.js'
import type { SandboxDb } from '../db/database.js'
import { ApiError } from '../errors.js'
import { readState } from '../state/sandbox-state.js'
import { GateBusyError } from './request-gate.js'
import type { BarrierEvents, LocalPause, ServingBarrier } from './snapshot-store.js'

/** How long a replacement waits for every replica to pause (their requests to finish), by default. */
const PAUSE_TIMEOUT_MS = 10_000

export class PostgresServingBarrier implements ServingBarrier {
  readonly #session: ServingSession
  readonly #timeoutMs: number
  #events: BarrierEvents | undefined
  /** Pauses other replicas asked for and have not ended, by id. */
  readonly #pending = new Map<string, AbortController>()
  /** Whether this replica holds the lock shared and is not in a pause: only then is a pause offered. */
  #serving = false

  constructor(url: string, timeoutMs = PAUSE_TIMEOUT_MS) {
    this.#timeoutMs = timeoutMs
    this.#session = new ServingSession(url, {
      heard: (message) => this.#hear(message),
      lost: () => {
        // PostgreSQL let go of this replica's hold: a replacement no longer waits for it.
        this.#serving = false
      },
      regained: () => {
        this.#serving = true
        this.#events?.rejoined()
        this.#offerPending()
      },
    })
  }

  async enter(): Promise<void> {
    await this.#session.share()
    this.#serving = true
  }

  listen(events: BarrierEvents): void {
    this.#events = events
    this.#offerPending()
  }

  async pause(): Promise<LocalPause> {
    const id = randomUUID()
    const deadline = Date.now() + this.#timeoutMs
    this.#serving = false
    await this.#session.send(`pause:${id}`)
    let held = false
    let ended: Promise<void> | undefined
    return {
      timeoutMs: this.#timeoutMs,
      hold: async () => {
        const taken = await this.#session.exclusive(deadline - Date.now())
        if (taken === 'unreachable')
          throw new ApiError(
            503,
            'Service Unavailable',
            'The sandbox cannot reach its PostgreSQL database right now; nothing was replaced',
            {
              'Retry-After': '1',
            },
          )
        if (taken === 'busy')
          throw new GateBusyError(
            `Another replica did not pause within ${this.#timeoutMs / 1000} s (its requests still running, or it is not answering): ` +
              'nothing was replaced, and every replica serves the state as it was',
          )
        held = true
      },
      end: () => {
        ended ??= (async () => {
          await this.#session.send(`resume:${id}`)
          if (held) await this.#session.unexclusive()
          await this.#session.share()
          this.#serving = true
          this.#offerPending()
        })()
        return ended
      },
    }
  }

  async generation(db: SandboxDb): Promise<string | undefined> {
    return (await readState(db, 'state_generation')) ?? '0'
  }

  async leave(): Promise<void> {
    this.#serving = false
    this.#events = undefined
    for (const pause of this.#pending.values()) pause.abort()
    this.#pending.clear()
    await this.#session.stop()
  }

  #hear(message: string): void {
    const [kind, id] = message.split(':', 2)
    if (id === undefined) return
    if (kind === 'pause') {
      const over = new AbortController()
      this.#pending.set(id, over)
      // Should its `resume` be lost (the replica died), the pause is over by its deadline all the
      // same: by then the replacing replica holds the lock exclusive (a shared hold waits for it)
      // or gave up. Heard after it was sent, so never before that deadline.
      setTimeout(() => this.#end(id), this.#timeoutMs).unref()
      this.#offer(id)
    } else if (kind === 'resume') this.#end(id)
  }

  #end(id: string): void {
    this.#pending.get(id)?.abort()
    this.#pending.delete(id)
  }

  /** Pauses asked for while this replica was not serving: it pauses for them now, if they still run. */
  #offerPending(): void {
    for (const id of this.#pending.keys()) this.#offer(id)
  }

  #offer(id: string): void {
    const over = this.#pending.get(id)
    if (!over || over.signal.aborted || !this.#serving || !this.#events) return
    this.#events.paused({ over: over.signal, timeoutMs: this.#timeoutMs, yieldTo: () => this.#yieldTo(id, over.signal) })
  }

  async #yieldTo(id: string, over: AbortSignal): Promise<void> {
    // Done already (or refused for another replica): nothing to let go of.
    if (over.aborted || !this.#serving) return
    this.#serving = false
    try {
      await this.#session.unshare()
      // Until the replacing replica says it is over, or its deadline passed (#hear).
      if (!over.aborted) await new Promise<void>((resolve) => over.addEventListener('abort', () => resolve(), { once: true }))
    } finally {
      this.#pending.delete(id)
      // Granted once no replacement holds the lock exclusive.
      await this.#session.share()
      this.#serving = true
      this.#offerPending()
    }
  }
}
