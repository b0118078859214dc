// Holds the core the sandbox serves and swaps it for another state (a snapshot's, or a fresh
// genesis) behind the request gate: requests wait, the services stop, the snapshot store puts
// the other state in place, and the services start again; a failed swap carries on with the
// previous state where the store can give it back. When another replica of a shared sandbox
// replaced the state, this one restarts its core the same way on the new rows.
import type http from 'node:http'
import { toIso } from '../clock.js'
import type { SandboxDb } from '../db/database.js'
import type { Core, CoreBuilder, OpenedState } from '../sandbox-core.js'
import { readFrozenAtMs } from '../simulation/clock-service.js'
import { GateBusyError, RequestGate } from './request-gate.js'
import type { SandboxStateControls, StateSwapResult } from './snapshot-routes.js'
import type { SnapshotStore, StateReplacement, StateSource } from './snapshot-store.js'

/** How soon a replica tries again to take up a state another one put in place, after failing to. */
const FOLLOW_RETRY_MS = 1_000

export class StateSwap {
  readonly controls: SandboxStateControls
  readonly #gate = new RequestGate()
  readonly #builder: CoreBuilder
  readonly #store: SnapshotStore
  readonly #publicUrl: string
  readonly #log: (line: string) => void
  /** Set by start, before any request is admitted. */
  #core!: Core
  #stopFollowing: () => void = () => {}
  #stopping = false
  /** The last swap, which stopping (and following another replica) waits for. */
  #swapping: Promise<void> = Promise.resolve()

  /** Starts serving the first state's core. */
  static async start(
    builder: CoreBuilder,
    first: { db: SandboxDb; state: OpenedState },
    settings: { publicUrl: string; snapshots: SnapshotStore; log: (line: string) => void },
  ): Promise<StateSwap> {
    const swap = new StateSwap(builder, settings)
    swap.#serve(await builder.start(first.db, first.state, settings.publicUrl, swap.controls))
    return swap
  }

  private constructor(builder: CoreBuilder, settings: { publicUrl: string; snapshots: SnapshotStore; log: (line: string) => void }) {
    this.#builder = builder
    this.#store = settings.snapshots
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
      reset: (self) => {
        const adminToken = this.#core.context.identity.adminToken
        return this.#swap(self, { genesis: (db) => this.#builder.open(db, adminToken) })
      },
    }
  }

  /** The core serving now. */
  get core(): Core {
    return this.#core
  }

  /** Hands a request to the current core, once no swap holds the gate. */
  admit(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.#gate.admit(res, () => this.#core.app(req, res))
  }

  /** From now on a restore or reset is refused: the sandbox is stopping. */
  refuseSwaps(): void {
    this.#stopping = true
  }

  /** Waits for the swap under way, then stops the core (services and database). */
  async stop(): Promise<void> {
    this.#stopping = true
    await this.#swapping
    this.#stopFollowing()
    await this.#core.stop()
  }

  /** Serves `core` from now on, and restarts it when another replica replaces the state under it. */
  #serve(core: Core): void {
    this.#core = core
    this.#stopFollowing = this.#store.onReplacedElsewhere(core.context.db, () => this.#follow())
  }

  /**
   * Replaces the running state with `source`: stops the services and closes the database, lets
   * the store put the other state in place, and starts the services on it. If that fails, the
   * sandbox carries on with the state the store gives back.
   */
  async #swap(self: http.ServerResponse, source: StateSource): Promise<StateSwapResult> {
    if (this.#stopping) throw new GateBusyError('The sandbox is stopping')
    return this.#exclusive(self, (replacement) => replacement.replace(source))
  }

  /**
   * Another replica replaced the state: the requests here wait at the gate while the core
   * restarts on the new rows, so none is answered from the old core's memory (business clock,
   * caches) once it finished. After any swap under way here, and never while stopping.
   */
  #follow(): void {
    this.#track(
      this.#swapping.then(async () => {
        if (this.#stopping) return
        try {
          await this.#exclusive(undefined, () => this.#store.reopen())
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

  async #exclusive(
    self: http.ServerResponse | undefined,
    replace: (replacement: StateReplacement) => Promise<SandboxDb>,
  ): Promise<StateSwapResult> {
    const swapped = this.#gate.exclusive(self, async () => {
      const current = this.#core
      const adminToken = current.context.identity.adminToken
      const replacement = await this.#store.beginReplacement(current.context.db)
      this.#stopFollowing()
      await current.stop()
      const db = await replace(replacement).catch(async (error: unknown) => {
        this.#serve(await this.#startOn(await replacement.rollback(), adminToken))
        throw error
      })
      try {
        this.#serve(await this.#startOn(db, adminToken))
        replacement.commit()
      } catch (error) {
        await db.destroy().catch(() => {})
        this.#serve(await this.#startOn(await replacement.rollback(), adminToken))
        throw error
      }
      const core = this.#core
      const frozenAt = await readFrozenAtMs(core.context.db)
      return {
        merchants: core.merchants,
        clock: { now: toIso(core.context.clock.now()), ...(frozenAt === undefined ? {} : { frozenAt: toIso(frozenAt) }) },
      }
    })
    this.#track(swapped)
    return swapped
  }

  async #startOn(db: SandboxDb, adminToken: string): Promise<Core> {
    return this.#builder.start(db, await this.#builder.open(db, adminToken), this.#publicUrl, this.controls)
  }
}
