// Holds the core the sandbox serves and swaps it for another state behind the request gate; a failed
// swap carries on with the previous state where the store can give it back.
import type http from 'node:http'
import { toIso } from '../clock.js'
import type { SandboxDb } from '../db/database.js'
import { genesisMerchants } from '../bootstrap.js'
import type { Core, CoreBuilder, KeptIdentity, OpenedState } from './sandbox-core.js'
import { readFrozenAtMs } from '../simulation/clock-service.js'
import { GateBusyError, RequestGate } from '../snapshots/request-gate.js'
import type { SandboxStateControls, StateSwapResult } from '../snapshots/state-controls.js'
import type { RemotePause, ServingBarrier, SnapshotStore, StateReplacement, StateSource } from '../snapshots/snapshot-store.js'

/** How soon a replica tries again to take up a state another one put in place, after failing to. */
const FOLLOW_RETRY_MS = 1_000

export class StateSwap {
  readonly controls: SandboxStateControls
  readonly #gate = new RequestGate()
  readonly #builder: CoreBuilder
  readonly #store: SnapshotStore
  readonly #barrier: ServingBarrier
  readonly #publicUrl: string
  readonly #log: (line: string) => void
  /** Set by start, before any request is admitted. */
  #core!: Core
  /** The state's generation the core was built on (the barrier's: undefined where nobody else replaces it). */
  #generation: string | undefined
  #stopFollowing: () => void = () => {}
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
    await swap.#serve(await builder.start(first.db, first.state, settings.publicUrl, swap.controls))
    swap.#barrier.listen({ paused: (pause) => swap.#pauseFor(pause), rejoined: () => swap.#follow() })
    return swap
  }

  private constructor(builder: CoreBuilder, settings: { publicUrl: string; snapshots: SnapshotStore; log: (line: string) => void }) {
    this.#builder = builder
    this.#store = settings.snapshots
    this.#barrier = settings.snapshots.barrier
    this.#publicUrl = settings.publicUrl
    this.#log = settings.log
    const store = settings.snapshots
    this.controls = {
      snapshots: store,
      restore: async (name, self) => {
        // Checked before the gate closes, so a bad snapshot holds no request up.
        await store.check(this.#core.context.db, name)
        return this.#swap(self, { snapshot: name })
      },
      reset: async (self) => {
        // The genesis merchants keep their ids and keys, as a user's profile and clients hold them.
        const keep = { adminToken: this.#core.context.identity.adminToken, merchants: await genesisMerchants(this.#core.context.db) }
        return this.#swap(self, { genesis: (db) => this.#builder.open(db, keep) }, keep)
      },
      currentDb: () => this.#core.context.db,
    }
  }

  get core(): Core {
    return this.#core
  }

  admit(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.#gate.admit(res, () => this.#core.app(req, res))
  }

  refuseSwaps(): void {
    this.#stopping = true
  }

  async stop(): Promise<void> {
    this.#stopping = true
    await this.#swapping
    this.#stopFollowing()
    await this.#core.stop()
    await this.#barrier.leave()
  }

  // Also looks again when another replica announces a replacement: a net under the barrier, for a
  // replica that lost its hold of it and so did not pause.
  async #serve(core: Core): Promise<void> {
    this.#core = core
    this.#stopFollowing = this.#store.onReplacedElsewhere(core.context.db, () => this.#follow())
    this.#generation = await this.#barrier.generation(core.context.db).catch(() => undefined)
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
              await this.#replaceCore((replacement) => replacement.replace(source), keep)
            } finally {
              // Before the gate opens: it opens only once this replica holds the state again.
              await pause.end()
            }
            // Another replica's replacement may have gone in right after this one.
            await this.#catchUp()
            return this.#result()
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

  // The core restarts on the new rows before the gate opens, so no request is answered from the old
  // core's memory (business clock, caches, webhook queue).
  #pauseFor(pause: RemotePause): void {
    this.#track(
      this.#swapping.then(async () => {
        if (this.#stopping || pause.over.aborted) return
        try {
          await this.#gate.exclusive(
            undefined,
            async () => {
              await pause.yieldTo()
              if (!this.#stopping) await this.#catchUp()
            },
            pause.timeoutMs,
            {
              signal: pause.over,
              onHold: () => this.#log('Holding requests while another replica replaces the state'),
            },
          )
        } catch (error) {
          if (pause.over.aborted && error instanceof GateBusyError) return
          // Requests held too long (the replacement gives up), or the new state not taken up.
          this.#log(`Could not pause for another replica's restore or reset (${String(error)})`)
          this.#follow()
        }
      }),
    )
  }

  // Another replica may have replaced the state without this one pausing (it lost its hold of the
  // barrier, or failed to restart).
  #follow(): void {
    this.#track(
      this.#swapping.then(async () => {
        if (this.#stopping) return
        try {
          if ((await this.#barrier.generation(this.#core.context.db)) === this.#generation) return
          await this.#gate.exclusive(undefined, () => this.#catchUp())
        } catch (error) {
          // Requests held too long, or the database out of reach: the old core must not stay.
          this.#log(`Could not take up the state another replica put in place (${String(error)}); trying again in 1 s`)
          setTimeout(() => this.#follow(), FOLLOW_RETRY_MS).unref()
        }
      }),
    )
  }

  /** Adds `work` to what stopping waits for (swaps and follows may overlap, so none replaces another). */
  #track(work: Promise<unknown>): void {
    this.#swapping = Promise.allSettled([this.#swapping, work]).then(() => {})
  }

  /** Behind the gate: restarts the core on the rows as they are if another replica replaced them since it was built. */
  async #catchUp(): Promise<void> {
    if ((await this.#barrier.generation(this.#core.context.db)) === this.#generation) return
    await this.#replaceCore(() => this.#store.reopen())
  }

  /** Behind the gate: stops the core, lets `replace` put a state in place, and starts a core on it (or on what the store gives back). */
  async #replaceCore(replace: (replacement: StateReplacement) => Promise<SandboxDb>, keep?: KeptIdentity): Promise<void> {
    const current = this.#core
    const kept = keep ?? { adminToken: current.context.identity.adminToken }
    const replacement = await this.#store.beginReplacement(current.context.db)
    this.#stopFollowing()
    await current.stop()
    const db = await replace(replacement).catch(async (error: unknown) => {
      await this.#serve(await this.#startOn(await replacement.rollback(), kept))
      throw error
    })
    try {
      await this.#serve(await this.#startOn(db, kept))
      replacement.commit()
    } catch (error) {
      await db.destroy().catch(() => {})
      await this.#serve(await this.#startOn(await replacement.rollback(), kept))
      throw error
    }
  }

  async #result(): Promise<StateSwapResult> {
    const core = this.#core
    const frozenAt = await readFrozenAtMs(core.context.db)
    return {
      merchants: core.merchants,
      clock: { now: toIso(core.context.clock.now()), ...(frozenAt === undefined ? {} : { frozenAt: toIso(frozenAt) }) },
    }
  }

  async #startOn(db: SandboxDb, keep: KeptIdentity): Promise<Core> {
    return this.#builder.start(db, await this.#builder.open(db, keep), this.#publicUrl, this.controls)
  }
}
