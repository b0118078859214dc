// Which snapshot store a sandbox uses, chosen once by where its database is: the only place
// that tells the backends apart for snapshots, restore and reset.
import path from 'node:path'
import { isPostgresUrl } from '../../src/database-location.js'
import type { SnapshotStore } from './snapshot-store.js'
import { SqliteSnapshotStore } from './sqlite-snapshot-store.js'

export interface SnapshotStoreOptions {
  /** The sandbox's database: a file, ':memory:' or a postgres:// URL. */
  db: string
  /** SQLite: where the snapshot files go (default: a `snapshots` folder next to the database file; for :memory:, a fresh private temporary one). */
  snapshotDir?: string
  durable?: boolean
  busyTimeoutMs?: number
  /** PostgreSQL: how long a restore or reset waits for every replica to pause (default 10 s). */
  pauseTimeoutMs?: number
}

export async function createSnapshotStore(options: SnapshotStoreOptions): Promise<SnapshotStore> {
  if (isPostgresUrl(options.db)) {
    // As openDatabase: the PostgreSQL driver is loaded only for a PostgreSQL sandbox.
    const { PostgresSnapshotStore } = await import('./postgres-snapshot-store.js')
    return new PostgresSnapshotStore(options.db, options.busyTimeoutMs, options.pauseTimeoutMs)
  }
  return new SqliteSnapshotStore(options.snapshotDir ?? defaultSnapshotDir(options.db), options.db, options.durable)
}

/** Next to a database file; a sandbox in memory gets a new private temporary folder, made on first save (undefined). */
function defaultSnapshotDir(db: string): string | undefined {
  return db === ':memory:' ? undefined : path.join(path.dirname(path.resolve(db)), 'snapshots')
}
