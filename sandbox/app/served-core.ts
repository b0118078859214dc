// The core a replica serves, and replacing it behind the request gate: stop it, let the store put
// a state in place, start a core on that (or, on failure, on what the store gives back).
import { toIso } from '../clock.js'
import type { SandboxDb } from '../db/database.js'
import type { Core, CoreBuilder, KeptIdentity } from './sandbox-core.js'
import { readFrozenAtMs } from '../simulation/clock-service.js'
import type { SandboxStateControls, StateSwapResult } from '../snapshots/state-controls.js'
import type { ServingBarrier, SnapshotStore, StateReplacement } from '../snapshots/snapshot-store.js'

export interface ServedCoreSettings {
  builder: CoreBuilder
  store: SnapshotStore
  publicUrl: string
  controls: SandboxStateControls
  /** Called when the store hears that another replica replaced the state. */
  replacedElsewhere: () => void
}

export class ServedCore {
  readonly #settings: ServedCoreSettings
  readonly #barrier: ServingBarrier
  /** Set by serve, before any request is admitted. */
  #core!: Core
  /** The state's generation the core was built on (the barrier's: undefined where nobody else replaces it). */
  #generation: string | undefined
  #stopListening: () => void = () => {}

  constructor(settings: ServedCoreSettings) {
    this.#settings = settings
    this.#barrier = settings.store.barrier
  }

  get core(): Core {
    return this.#core
  }

  // Also looks again when another replica announces a replacement: a net under the barrier, for a
  // replica that lost its hold of it and so did not pause.
  async serve(core: Core): Promise<void> {
    this.#core = core
    this.#stopListening = this.#settings.store.onReplacedElsewhere(core.context.db, this.#settings.replacedElsewhere)
    this.#generation = await this.#barrier.generation(core.context.db).catch(() => undefined)
  }

  /** Whether the core was built on the state the database holds now (no other replica replaced it since). */
  async isCurrent(): Promise<boolean> {
    return (await this.#barrier.generation(this.#core.context.db)) === this.#generation
  }

  /** Behind the gate: restarts the core on the rows as they are if another replica replaced them since it was built. */
  async catchUp(): Promise<void> {
    if (await this.isCurrent()) return
    await this.replace(() => this.#settings.store.reopen())
  }

  /** Behind the gate: stops the core, lets `replace` put a state in place, and starts a core on it (or on what the store gives back). */
  async replace(replace: (replacement: StateReplacement) => Promise<SandboxDb>, keep?: KeptIdentity): Promise<void> {
    const current = this.#core
    const kept = keep ?? { adminToken: current.context.identity.adminToken }
    const replacement = await this.#settings.store.beginReplacement(current.context.db)
    this.#stopListening()
    await current.stop()
    const db = await replace(replacement).catch(async (error: unknown) => {
      await this.serve(await this.#startOn(await replacement.rollback(), kept))
      throw error
    })
    try {
      await this.serve(await this.#startOn(db, kept))
      replacement.commit()
    } catch (error) {
      await db.destroy().catch(() => {})
      await this.serve(await this.#startOn(await replacement.rollback(), kept))
      throw error
    }
  }

  /** What a restore or reset answers: the merchants and business time of the core now served. */
  async result(): Promise<StateSwapResult> {
    const core = this.#core
    const frozenAt = await readFrozenAtMs(core.context.db)
    return {
      merchants: core.merchants,
      clock: { now: toIso(core.context.clock.now()), ...(frozenAt === undefined ? {} : { frozenAt: toIso(frozenAt) }) },
    }
  }

  async stop(): Promise<void> {
    this.#stopListening()
    await this.#core.stop()
  }

  async #startOn(db: SandboxDb, keep: KeptIdentity): Promise<Core> {
    const { builder, publicUrl, controls } = this.#settings
    return builder.start(db, await builder.open(db, keep), publicUrl, controls)
  }
}
