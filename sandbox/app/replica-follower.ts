// Following the replacements other replicas make: holding requests behind the gate while one
// replaces the state, and taking up a state another put in place without this replica pausing.
import { GateBusyError, type RequestGate } from '../snapshots/request-gate.js'
import type { RemotePause } from '../snapshots/snapshot-store.js'
import type { ServedCore } from './served-core.js'

/** How soon a replica tries again to take up a state another one put in place, after failing to. */
const FOLLOW_RETRY_MS = 1_000

export interface ReplicaFollowerSettings {
  gate: RequestGate
  served: ServedCore
  log: (line: string) => void
  stopping: () => boolean
  /** Runs `work` once the swaps under way are over; stopping waits for it. */
  afterSwaps: (work: () => Promise<void>) => void
}

export class ReplicaFollower {
  readonly #settings: ReplicaFollowerSettings

  constructor(settings: ReplicaFollowerSettings) {
    this.#settings = settings
  }

  // The core restarts on the new rows before the gate opens, so no request is answered from the old
  // core's memory (business clock, caches, webhook queue).
  pauseFor(pause: RemotePause): void {
    const { gate, served, log, stopping, afterSwaps } = this.#settings
    afterSwaps(async () => {
      if (stopping() || pause.over.aborted) return
      try {
        await gate.exclusive(
          undefined,
          async () => {
            await pause.yieldTo()
            if (!stopping()) await served.catchUp()
          },
          pause.timeoutMs,
          {
            signal: pause.over,
            onHold: () => log('Holding requests while another replica replaces the state'),
          },
        )
      } catch (error) {
        if (pause.over.aborted && error instanceof GateBusyError) return
        // Requests held too long (the replacement gives up), or the new state not taken up.
        log(`Could not pause for another replica's restore or reset (${String(error)})`)
        this.follow()
      }
    })
  }

  // Another replica may have replaced the state without this one pausing (it lost its hold of the
  // barrier, or failed to restart).
  follow(): void {
    const { gate, served, log, stopping, afterSwaps } = this.#settings
    afterSwaps(async () => {
      if (stopping()) return
      try {
        if (await served.isCurrent()) return
        await gate.exclusive(undefined, () => served.catchUp())
      } catch (error) {
        // Requests held too long, or the database out of reach: the old core must not stay.
        log(`Could not take up the state another replica put in place (${String(error)}); trying again in 1 s`)
        setTimeout(() => this.follow(), FOLLOW_RETRY_MS).unref()
      }
    })
  }
}
