// Holds the core the sandbox serves and swaps it for another state (a snapshot's, or a fresh
// genesis) behind the request gate: requests wait, the services stop, the database is replaced,
// and the services start again; a failed swap puts the previous database back.
import fs from 'node:fs'
import type http from 'node:http'
import { toIso } from '../clock.js'
import { openDatabase, withCommittedHandle, type SandboxDb } from '../db/database.js'
import { isPostgresUrl } from '../../src/database-location.js'
import type { Core, CoreBuilder, OpenedState } from '../sandbox-core.js'
import { readFrozenAtMs } from '../simulation/clock-service.js'
import { GateBusyError, RequestGate } from './request-gate.js'
import type { SandboxStateControls, StateSwapResult } from './snapshot-routes.js'
import { swapDatabaseFile, type SnapshotStore } from './snapshot-store.js'

/** A database put in place of the current one, to keep (commit) or to undo (rollback). */
interface Replacement {
  db: SandboxDb
  commit(): void
  rollback(): Promise<SandboxDb>
}

export class StateSwap {
  readonly controls: SandboxStateControls
  readonly #gate = new RequestGate()
  readonly #builder: CoreBuilder
  readonly #file: string
  readonly #durable: boolean | undefined
  readonly #publicUrl: string
  /** Set by start, before any request is admitted. */
  #core!: Core
  #stopping = false
  /** The last swap, which stopping waits for before closing the database. */
  #swapping: Promise<void> = Promise.resolve()

  /** Starts serving the first state's core. */
  static async start(
    builder: CoreBuilder,
    first: { db: SandboxDb; state: OpenedState },
    settings: { file: string; durable?: boolean; publicUrl: string; snapshots: SnapshotStore },
  ): Promise<StateSwap> {
    const swap = new StateSwap(builder, settings)
    swap.#core = await builder.start(first.db, first.state, settings.publicUrl, swap.controls)
    return swap
  }

  private constructor(builder: CoreBuilder, settings: { file: string; durable?: boolean; publicUrl: string; snapshots: SnapshotStore }) {
    this.#builder = builder
    this.#file = settings.file
    this.#durable = settings.durable
    this.#publicUrl = settings.publicUrl
    const { snapshots } = settings
    this.controls = {
      snapshots,
      restore: async (name, self) => {
        // Checked before the gate closes, so a bad snapshot holds no request up; checked once (a full integrity read).
        const file = await snapshots.check(name)
        return this.#swap(
          self,
          this.#replaceWith(async () => file),
        )
      },
      reset: (self) =>
        this.#swap(
          self,
          this.#replaceWith(async () => undefined),
        ),
      // Snapshots copy and swap SQLite files; a PostgreSQL sandbox has no file to copy (yet).
      unavailable: isPostgresUrl(settings.file)
        ? 'Snapshots and reset are not available yet on a PostgreSQL sandbox (docs/postgres.md); they work on SQLite'
        : undefined,
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
    await this.#core.stop()
  }

  /**
   * Replaces the running state: stops the services and closes the database, lets `replace`
   * put another database in its place, and starts the services on it. If that fails, the
   * previous database is put back and the sandbox carries on with it.
   */
  async #swap(self: http.ServerResponse, replace: (file: string) => Promise<Replacement>): Promise<StateSwapResult> {
    if (this.#stopping) throw new GateBusyError('The sandbox is stopping')
    const swapped = this.#gate.exclusive(self, async () => {
      const current = this.#core
      const adminToken = current.context.identity.adminToken
      // An in-memory database dies with its connection: keep an image to fall back on.
      const memoryImage =
        this.#file === ':memory:' ? await withCommittedHandle(current.context.db, (handle) => handle.serialize()) : undefined
      await current.stop()
      const swap = await replace(this.#file).catch(async (error: unknown) => {
        const db = await openDatabase({ file: this.#file, durable: this.#durable, image: memoryImage })
        this.#core = await this.#startOn(db, adminToken)
        throw error
      })
      try {
        this.#core = await this.#startOn(swap.db, adminToken)
        swap.commit()
      } catch (error) {
        await swap.db.destroy().catch(() => {})
        this.#core = await this.#startOn(await swap.rollback(), adminToken)
        throw error
      }
      const core = this.#core
      const frozenAt = await readFrozenAtMs(core.context.db)
      return {
        merchants: core.merchants,
        clock: { now: toIso(core.context.clock.now()), ...(frozenAt === undefined ? {} : { frozenAt: toIso(frozenAt) }) },
      }
    })
    this.#swapping = swapped.then(
      () => {},
      () => {},
    )
    return swapped
  }

  async #startOn(db: SandboxDb, adminToken: string): Promise<Core> {
    return this.#builder.start(db, await this.#builder.open(db, adminToken), this.#publicUrl, this.controls)
  }

  /** Puts `source` (a snapshot file, or nothing for a new database) in place of the database. */
  #replaceWith(source: () => Promise<string | undefined>): (file: string) => Promise<Replacement> {
    const durable = this.#durable
    return async (file) => {
      const from = await source()
      if (file === ':memory:') {
        const db = await openDatabase({ file, durable, image: from === undefined ? undefined : fs.readFileSync(from) })
        return { db, commit: () => {}, rollback: () => Promise.reject(new Error('The in-memory state could not be replaced')) }
      }
      const swap = swapDatabaseFile(file, from)
      try {
        const db = await openDatabase({ file, durable })
        return { db, commit: swap.commit, rollback: async () => (swap.rollback(), openDatabase({ file, durable })) }
      } catch (error) {
        swap.rollback()
        throw error
      }
    }
  }
}
