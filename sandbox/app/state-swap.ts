// Swaps the state the sandbox serves for another (a snapshot's, or a fresh genesis) behind the
// request gate, for this replica's own restores and resets; a failed swap carries on with the
// previous state where the store can give it back. The core served and its replacement are
// served-core.ts; following other replicas' swaps is replica-follower.ts.
import type http from 'node:http'
import type { SandboxDb } from '../db/database.js'
import { genesisMerchants } from '../bootstrap.js'
import type { Core, CoreBuilder, KeptIdentity, OpenedState } from './sandbox-core.js'
import { GateBusyError, RequestGate } from '../snapshots/request-gate.js'
import type { SandboxStateControls, StateSwapResult } from '../snapshots/state-controls.js'
import type { ServingBarrier, SnapshotStore, StateSource } from '../snapshots/snapshot-store.js'
import { ReplicaFollower } from './replica-follower.js'
import { ServedCore } from './served-core.js'

export class StateSwap {
  readonly controls: SandboxStateControls
  readonly #gate = new RequestGate()
  readonly #served: ServedCore
  readonly #follower: ReplicaFollower
  readonly #barrier: ServingBarrier
  #stopping = false
  /** The last swap, which stopping (and following another replica) waits for. */
  #swapping: Promise<void> = Promise.resolve()
  /** A restore or reset of this replica's own is under way (from its check until it ends). */
  #swapTaken = false

  /** Starts serving the first state's core; the store's barrier was entered before `first` was opened. */
  static async start(
    builder: CoreBuilder,
    first: { db: SandboxDb; state: OpenedState },
    settings: { publicUrl: string; snapshots: SnapshotStore; log: (line: string) => void },
  ): Promise<StateSwap> {
    const swap = new StateSwap(builder, settings)
    await swap.#served.serve(await builder.start(first.db, first.state, settings.publicUrl, swap.controls))
    swap.#barrier.listen({ paused: (pause) => swap.#follower.pauseFor(pause), rejoined: () => swap.#follower.follow() })
    return swap
  }

  private constructor(builder: CoreBuilder, settings: { publicUrl: string; snapshots: SnapshotStore; log: (line: string) => void }) {
    const store = settings.snapshots
    this.#barrier = store.barrier
    this.controls = {
      snapshots: store,
      restore: async (name, self) => {
        // Checked before the gate closes, so a bad snapshot holds no request up.
        await store.check(this.#served.core.context.db, name)
        return this.#swap(self, { snapshot: name })
      },
      reset: async (self) => {
        // The genesis merchants keep their ids and keys, as a user's profile and clients hold them.
        const { db: current, identity } = this.#served.core.context
        const keep = { adminToken: identity.adminToken, merchants: await genesisMerchants(current) }
        return this.#swap(self, { genesis: (db) => builder.open(db, keep) }, keep)
      },
      currentDb: () => this.#served.core.context.db,
    }
    this.#served = new ServedCore({
      builder,
      store,
      publicUrl: settings.publicUrl,
      controls: this.controls,
      replacedElsewhere: () => this.#follower.follow(),
    })
    this.#follower = new ReplicaFollower({
      gate: this.#gate,
      served: this.#served,
      log: settings.log,
      stopping: () => this.#stopping,
      afterSwaps: (work) => this.#track(this.#swapping.then(work)),
    })
  }

  get core(): Core {
    return this.#served.core
  }

  admit(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.#gate.admit(res, () => this.#served.core.app(req, res))
  }

  refuseSwaps(): void {
    this.#stopping = true
  }

  async stop(): Promise<void> {
    this.#stopping = true
    await this.#swapping
    await this.#served.stop()
    await this.#barrier.leave()
  }

  /** On failure the sandbox carries on with the state the store gives back; if a replica did not pause, nothing changed. */
  async #swap(self: http.ServerResponse, source: StateSource, keep?: KeptIdentity): Promise<StateSwapResult> {
    if (this.#stopping) throw new GateBusyError('The sandbox is stopping')
    // Taken before the first await: a second swap must not get as far as ending this one's pause.
    if (this.#gate.busy || this.#swapTaken) throw new GateBusyError('Another restore or reset is in progress')
    this.#swapTaken = true
    const swapped = (async () => {
      const pause = await this.#barrier.pause()
      try {
        return await this.#gate.exclusive(
          self,
          async () => {
            try {
              await pause.hold()
              await this.#served.replace((replacement) => replacement.replace(source), keep)
            } finally {
              // Before the gate opens: it opens only once this replica holds the state again.
              await pause.end()
            }
            // Another replica's replacement may have gone in right after this one.
            await this.#served.catchUp()
            return this.#served.result()
          },
          pause.timeoutMs,
        )
      } finally {
        await pause.end()
      }
    })().finally(() => {
      this.#swapTaken = false
    })
    this.#track(swapped)
    return swapped
  }

  /** Adds `work` to what stopping waits for (swaps and follows may overlap, so none replaces another). */
  #track(work: Promise<unknown>): void {
    this.#swapping = Promise.allSettled([this.#swapping, work]).then(() => {})
  }
}
