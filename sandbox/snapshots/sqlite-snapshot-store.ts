// Snapshot files: SQLite online backups of the whole database, one `<name>.sqlite` each (mode 0600
// from creation: they hold every merchant's secret) in a folder private to this user; and the file
// swaps of restore and reset.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { openDatabase, withCommittedHandle, type SandboxDb } from '../db/database.js'
import { migrationProvider } from '../db/migrations/index.js'
import { SNAPSHOT_NAME } from '../../src/api/contract/sandbox-admin.js'
import { SOLE_PROCESS_BARRIER, SnapshotError, type SnapshotInfo, type SnapshotStore, type StateReplacement } from './snapshot-store.js'

const SUFFIX = '.sqlite'

export class SqliteSnapshotStore implements SnapshotStore {
  /** One process serves an SQLite sandbox (a second one on the file does not follow its swaps). */
  readonly barrier = SOLE_PROCESS_BARRIER

  /** Undefined until the first save makes a fresh private temporary folder (an in-memory sandbox's). */
  #dir: string | undefined

  /** `dir` undefined: a folder of the sandbox's own, made with mkdtemp on first save, never a predictable name. */
  constructor(
    dir: string | undefined,
    private readonly file: string,
    private readonly durable: boolean | undefined,
  ) {
    this.#dir = dir
  }

  fileOf(name: string): string {
    // The name rule keeps every file inside the folder (no separators, no leading dot).
    if (!SNAPSHOT_NAME.test(name)) throw new RangeError(`Invalid snapshot name "${name}"`)
    if (this.#dir === undefined) throw new SnapshotError('not_found', `No snapshot named "${name}"`)
    return path.join(this.#dir, `${name}${SUFFIX}`)
  }

  /**
   * The folder, made if missing (0700) and refused unless it is a real folder of this user that
   * no one else may enter: anyone who can write there could read the snapshots or plant one.
   */
  #privateDir(): string {
    this.#dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'paybox-snapshots-'))
    const dir = this.#dir
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    const stat = fs.lstatSync(dir)
    const problem = !stat.isDirectory()
      ? 'is not a folder (a link or a file)'
      : process.getuid !== undefined && stat.uid !== process.getuid()
        ? `belongs to another user (uid ${stat.uid})`
        : (stat.mode & 0o077) !== 0
          ? `may be entered by other users (mode 0${(stat.mode & 0o777).toString(8)})`
          : undefined
    if (problem !== undefined) {
      throw new SnapshotError('unsafe', `The snapshot folder ${dir} ${problem}: use a folder of your own with mode 0700 (chmod 700 it)`)
    }
    return dir
  }

  async list(): Promise<SnapshotInfo[]> {
    if (this.#dir === undefined) return []
    let entries: string[]
    try {
      entries = fs.readdirSync(this.#dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    return entries
      .filter((entry) => entry.endsWith(SUFFIX) && SNAPSHOT_NAME.test(entry.slice(0, -SUFFIX.length)))
      .map((entry) => this.#info(entry.slice(0, -SUFFIX.length)))
      .sort((a, b) => a.name.localeCompare(b.name))
  }

  async get(_db: SandboxDb, name: string): Promise<SnapshotInfo> {
    if (!fs.existsSync(this.fileOf(name))) throw new SnapshotError('not_found', `No snapshot named "${name}"`)
    return this.#info(name)
  }

  async remove(_db: SandboxDb, name: string): Promise<void> {
    const file = this.fileOf(name)
    if (!fs.existsSync(file)) throw new SnapshotError('not_found', `No snapshot named "${name}"`)
    fs.rmSync(file)
  }

  // The backup holds the only connection, so no transaction is half in it; requests wait a few ms.
  async save(db: SandboxDb, name: string, options: { replace?: boolean } = {}): Promise<SnapshotInfo> {
    this.#privateDir()
    const file = this.fileOf(name)
    if (!options.replace && fs.existsSync(file)) throw new SnapshotError('exists', `A snapshot named "${name}" exists already`)
    const partial = `${file}.${process.pid}.partial`
    try {
      // Made here, 0600 and new, before SQLite writes a page into it (its journal files take its
      // mode); one left by a crashed save of a process with the same pid goes first.
      fs.rmSync(partial, { force: true })
      fs.closeSync(fs.openSync(partial, 'wx', 0o600))
      // All pages in one step: nothing else can use the connection meanwhile anyway.
      await withCommittedHandle(db, (handle) => handle.backup(partial, { progress: () => 1_000_000 }))
      // A self-contained file: no WAL next to it is needed to read it.
      const copy = new BetterSqlite3(partial)
      try {
        copy.pragma('journal_mode = DELETE')
      } finally {
        copy.close()
      }
      fs.renameSync(partial, file)
    } finally {
      fs.rmSync(partial, { force: true })
    }
    return this.#info(name)
  }

  async check(_db: SandboxDb, name: string): Promise<void> {
    const file = this.fileOf(name)
    // Restored from a folder only this user can write to: nobody else can have planted it.
    this.#privateDir()
    if (!fs.existsSync(file)) throw new SnapshotError('not_found', `No snapshot named "${name}"`)
    const known = new Set(Object.keys(await migrationProvider.getMigrations()))
    let snapshot: BetterSqlite3.Database | undefined
    try {
      snapshot = new BetterSqlite3(file, { readonly: true, fileMustExist: true })
      const integrity = snapshot.pragma('quick_check', { simple: true })
      if (integrity !== 'ok') throw new SnapshotError('unusable', `Snapshot "${name}" is damaged (${String(integrity)})`)
      const applied = snapshot.prepare('select name from kysely_migration').pluck().all() as string[]
      const unknown = applied.filter((migration) => !known.has(migration))
      if (unknown.length > 0) throw new SnapshotError('unusable', `Snapshot "${name}" comes from a newer paybox (migration ${unknown[0]})`)
      const genesis = snapshot.prepare("select value from sandbox_state where key = 'admin_token'").pluck().get()
      if (genesis === undefined) throw new SnapshotError('unusable', `Snapshot "${name}" holds no sandbox`)
    } catch (error) {
      if (error instanceof SnapshotError) throw error
      throw new SnapshotError(
        'unusable',
        `Snapshot "${name}" is not a sandbox database: ${error instanceof Error ? error.message : String(error)}`,
      )
    } finally {
      snapshot?.close()
    }
  }

  async beginReplacement(db: SandboxDb): Promise<StateReplacement> {
    const { file, durable } = this
    // An in-memory database dies with its connection: keep an image to fall back on.
    const image = file === ':memory:' ? await withCommittedHandle(db, (handle) => handle.serialize()) : undefined
    let swapped: { commit(): void; rollback(): void } | undefined
    return {
      replace: async (source) => {
        // Checked before the gate closed (check), once: a full integrity read.
        const from = 'snapshot' in source ? this.fileOf(source.snapshot) : undefined
        if (file === ':memory:') return openDatabase({ file, durable, image: from === undefined ? undefined : fs.readFileSync(from) })
        const swap = swapDatabaseFile(file, from)
        try {
          const opened = await openDatabase({ file, durable })
          swapped = swap
          return opened
        } catch (error) {
          swap.rollback()
          throw error
        }
      },
      commit: () => swapped?.commit(),
      rollback: () => {
        swapped?.rollback()
        return openDatabase({ file, durable, image })
      },
    }
  }

  reopen(): Promise<SandboxDb> {
    return openDatabase({ file: this.file, durable: this.durable })
  }

  onReplacedElsewhere(): () => void {
    return () => {}
  }

  #info(name: string): SnapshotInfo {
    const stat = fs.statSync(this.fileOf(name))
    return { name, size: stat.size, createdAt: stat.mtime.toISOString() }
  }
}

// The old file is kept aside until `commit`. Its WAL and shared-memory files go too: applied to the
// new file they would corrupt it.
function swapDatabaseFile(dbFile: string, replacement: string | undefined): { commit(): void; rollback(): void } {
  const aside = `${dbFile}.before-swap`
  const incoming = `${dbFile}.incoming`
  const sidecars = [`${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`]
  // The copy is made before the old file is touched: if it fails, nothing has moved.
  if (replacement !== undefined) {
    fs.copyFileSync(replacement, incoming)
    fs.chmodSync(incoming, 0o600)
  }
  fs.rmSync(aside, { force: true })
  if (fs.existsSync(dbFile)) fs.renameSync(dbFile, aside)
  for (const sidecar of sidecars) fs.rmSync(sidecar, { force: true })
  if (replacement !== undefined) fs.renameSync(incoming, dbFile)
  return {
    commit: () => fs.rmSync(aside, { force: true }),
    rollback: () => {
      for (const file of [dbFile, ...sidecars]) fs.rmSync(file, { force: true })
      if (fs.existsSync(aside)) fs.renameSync(aside, dbFile)
    },
  }
}
