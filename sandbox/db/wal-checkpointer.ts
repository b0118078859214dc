// The WAL checkpoint worker thread's body (started by database.ts): on a connection of its own,
// so a PASSIVE checkpoint never blocks the sandbox's writer, it copies the WAL into the database
// file on a timer, and stops when told to.
import { parentPort, workerData } from 'node:worker_threads'
import BetterSqlite3 from 'better-sqlite3'

export interface WalCheckpointerData {
  file: string
  synchronous: 'NORMAL' | 'FULL'
  intervalMs: number
}

const port = parentPort
if (port === null) throw new Error('wal-checkpointer runs as a worker thread (database.ts starts it)')
const { file, synchronous, intervalMs } = workerData as WalCheckpointerData
const db = new BetterSqlite3(file, { fileMustExist: true })
db.pragma(`synchronous = ${synchronous}`)

const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
  } catch {
    // A busy or failed checkpoint only costs speed: the writer's own fallback checkpoint remains.
  }
}
const timer = setInterval(checkpoint, intervalMs)
port.on('message', () => {
  clearInterval(timer)
  checkpoint()
  db.close()
  port.close()
})
