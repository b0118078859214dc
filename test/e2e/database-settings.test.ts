// The durability promise in the README rests on these settings of the sandbox's SQLite file:
// WAL with synchronous=NORMAL by default, FULL with --durable, the database readable by its
// owner only, and the checkpoint and cache sizes docs/performance.md explains.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  COMMITS_BEFORE_CHECKPOINTER,
  WAL_FALLBACK_CHECKPOINT_PAGES,
  checkpointWorkerStarted,
  runTransaction,
  sqliteHandleOf,
} from '../../sandbox/db/database.js'
import { writeState } from '../../sandbox/state/sandbox-state.js'
import { startSandbox, type RunningSandbox } from '../../sandbox/server.js'
import { temporaryDir } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

const SYNCHRONOUS = { NORMAL: 1, FULL: 2 }

describe('the sandbox database file', () => {
  let running: RunningSandbox | undefined
  afterEach(async () => {
    await running?.stop()
    running = undefined
  })

  const start = async (durable?: boolean) => {
    const file = path.join(temporaryDir(), 'sandbox.db')
    running = await startSandbox({ port: 0, db: file, durable, log: () => {} })
    return { file, handle: sqliteHandleOf(running.context.db) }
  }

  it('is a WAL database synced at checkpoints (NORMAL), readable by its owner only', async () => {
    const { file, handle } = await start()
    expect(handle.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(handle.pragma('synchronous', { simple: true })).toBe(SYNCHRONOUS.NORMAL)
    expect(handle.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(handle.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_FALLBACK_CHECKPOINT_PAGES)
    expect(handle.pragma('cache_size', { simple: true })).toBe(-32_768)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
  })

  it('starts its checkpoint worker thread once written to, not while the sandbox idles', async () => {
    await start()
    const db = running!.context.db
    expect(checkpointWorkerStarted(db)).toBe(false)
    for (let i = 0; i < COMMITS_BEFORE_CHECKPOINTER; i++) await runTransaction(db, (trx) => writeState(trx, 'boot_count', String(i)))
    expect(checkpointWorkerStarted(db)).toBe(true)
  })

  it('has its checkpoint worker copy the WAL into the database file while the sandbox runs', async () => {
    const { file } = await start()
    const db = running!.context.db
    // The request connection checkpoints only at WAL_FALLBACK_CHECKPOINT_PAGES: until then, only the worker writes the file.
    const before = fs.statSync(file).size
    for (let i = 0; i < COMMITS_BEFORE_CHECKPOINTER; i++) await runTransaction(db, (trx) => writeState(trx, 'boot_count', String(i)))
    await waitFor('a checkpoint by the worker', () => fs.statSync(file).size > before)
  })

  it('syncs every commit with durable (sandbox start --durable)', async () => {
    const { handle } = await start(true)
    expect(handle.pragma('synchronous', { simple: true })).toBe(SYNCHRONOUS.FULL)
  })
})
