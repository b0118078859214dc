// A sandbox's snapshots, whichever backend keeps them (a file each on SQLite, a schema on
// PostgreSQL), and how a store puts another state in place for state-swap.ts.
import type { SandboxDb } from '../db/database.js'

export interface SnapshotInfo {
  name: string
  /** Bytes. */
  size: number
  /** When the snapshot was taken (wall time), ISO 8601. */
  createdAt: string
}

/** A snapshot this sandbox cannot use: unknown name, damaged copy, newer schema, a folder others may write to. */
export class SnapshotError extends Error {
  constructor(
    readonly kind: 'not_found' | 'exists' | 'unusable' | 'unsafe',
    message: string,
  ) {
    super(message)
    this.name = 'SnapshotError'
  }
}

// `genesis` is for a store that must build it before the swap (PostgreSQL: other replicas' readers
// never see an empty sandbox); otherwise the new core makes it as it opens the empty database.
export type StateSource = { snapshot: string } | { genesis: (db: SandboxDb) => Promise<unknown> }

/** One swap of the state, begun while the current state is still open. */
export interface StateReplacement {
  /** Puts `source` in place of the state, once the core on it stopped; the database to start on. */
  replace(source: StateSource): Promise<SandboxDb>
  /** The new state started: what was kept to undo the swap can go. */
  commit(): void
  /** After a failed replace or start: the state to carry on with, open (the previous one where it can be). */
  rollback(): Promise<SandboxDb>
}

// A process answers requests only while it holds its part of the barrier; a replacement goes ahead
// once every process let go (postgres-serving-barrier.ts).
export interface ServingBarrier {
  /** Waits until no replacement holds the state, then holds it for serving. Once, before serving. */
  enter(): Promise<void>
  /** From now on, `events` hears the other processes (a pause asked before this is offered now). */
  listen(events: BarrierEvents): void
  /** Before this process replaces the state: asks every other one to pause. */
  pause(): Promise<LocalPause>
  /** Changes whenever another process may have replaced the state; undefined where none can. */
  generation(db: SandboxDb): Promise<string | undefined>
  /** Stops serving: lets go of the barrier for good. */
  leave(): Promise<void>
}

export interface BarrierEvents {
  /** Another process asks this one to pause while it replaces the state. */
  paused(pause: RemotePause): void
  /** This process holds the state again after losing its hold (its connection): it may have been replaced meanwhile. */
  rejoined(): void
}

/** Another process's replacement, which this one is asked to pause for. */
export interface RemotePause {
  /** Aborted once the other process is done (replaced the state, or gave up): no need to pause any more. */
  readonly over: AbortSignal
  /** How long this process's requests have to finish. */
  readonly timeoutMs: number
  /** With the gate closed and drained: returns once the replacement is over and this process serves again. */
  yieldTo(): Promise<void>
}

/** This process's replacement, which every other one was asked to pause for. */
export interface LocalPause {
  /** How long this process's own requests, then the others', have to finish, in all. */
  readonly timeoutMs: number
  /** With this process's gate closed and drained: waits for every other one to pause; GateBusyError if one did not in time. */
  hold(): Promise<void>
  /** Tells the others the replacement is over and holds the state for serving again (after any other replacement). Idempotent. */
  end(): Promise<void>
}

/** `db` is the database the sandbox runs on now. */
export interface SnapshotStore {
  readonly barrier: ServingBarrier
  list(db: SandboxDb): Promise<SnapshotInfo[]>
  /** The snapshot's info; SnapshotError not_found when there is none. */
  get(db: SandboxDb, name: string): Promise<SnapshotInfo>
  /** Saves the whole state as it is now; SnapshotError exists unless `replace`. */
  save(db: SandboxDb, name: string, options?: { replace?: boolean }): Promise<SnapshotInfo>
  remove(db: SandboxDb, name: string): Promise<void>
  /** Checks that the snapshot can be restored here (it exists, is intact, and of a schema this sandbox knows). */
  check(db: SandboxDb, name: string): Promise<void>
  /** Begins replacing the state on `db`, before its core stops (an in-memory state is kept to fall back on). */
  beginReplacement(db: SandboxDb): Promise<StateReplacement>
  /** The sandbox's database opened again as it is: how a replica takes up a state another replica put in place. */
  reopen(): Promise<SandboxDb>
  onReplacedElsewhere(db: SandboxDb, listener: () => void): () => void
}

/** A state one process owns (SQLite): nobody else serves it, so a replacement waits for no one. */
export const SOLE_PROCESS_BARRIER: ServingBarrier = {
  enter: async () => {},
  listen: () => {},
  // Its own requests have as long to finish as before there were replicas.
  pause: async () => ({ timeoutMs: 30_000, hold: async () => {}, end: async () => {} }),
  generation: async () => undefined,
  leave: async () => {},
}
