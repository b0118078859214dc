// What a sandbox's snapshots are, whichever backend keeps them: SQLite keeps each in a file
// (sqlite-snapshot-store.ts), PostgreSQL in a schema of the sandbox's database
// (postgres-snapshot-store.ts). A store also knows how to put another state in place of the
// sandbox's (restore, reset), which state-swap.ts does behind the request gate.
import type { SandboxDb } from '../db/database.js'

export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
export const SNAPSHOT_NAME_RULE = '1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit'

export interface SnapshotInfo {
  name: string
  /** Bytes. */
  size: number
  /** When the snapshot was taken (wall time), ISO 8601. */
  createdAt: string
}

/** A snapshot this sandbox cannot use: unknown name, damaged copy, newer schema. */
export class SnapshotError extends Error {
  constructor(
    readonly kind: 'not_found' | 'exists' | 'unusable',
    message: string,
  ) {
    super(message)
    this.name = 'SnapshotError'
  }
}

/**
 * What replaces the sandbox's state: a snapshot, or a fresh genesis. `genesis` fills an empty
 * database with one, for a store that must build it before the swap (PostgreSQL: readers of
 * other replicas never see an empty sandbox); a store may instead leave the database empty, and
 * the genesis happens as the new core opens it.
 */
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

/** Keeps a sandbox's snapshots; `db` is the database the sandbox runs on now. */
export interface SnapshotStore {
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
  /** Calls `listener` when another process sharing `db` replaced the state; returns its stop. */
  onReplacedElsewhere(db: SandboxDb, listener: () => void): () => void
}
