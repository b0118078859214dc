// Horizon's streaming mode (server-sent events): "hello", then each record past the cursor with its
// paging token as id. Streams read only when the one ChangeFeed says the ledger moved.
import type { Request, Response } from 'express'
import type { SandboxContext } from '../context.js'
import { ChangeFeed } from '../db/change-feed.js'
import { openEventSession } from '../http/event-stream.js'
import { markAsStream } from '../http/streams.js'

/** How often the one poll looks for transactions another process applied to the same database file. */
export const STREAM_POLL_MS = 100
/** Records read per query while catching up. */
const BATCH = 200

/** Records past a paging token, oldest first, at most `limit`. */
export type RecordsAfter = (cursor: bigint, limit: number) => Promise<Array<{ paging_token: string }>>

/** A Last-Event-ID sent by a reconnecting EventSource, when it is one of our paging tokens. */
export function lastEventCursor(req: Request): bigint | undefined {
  const id = req.get('last-event-id')
  return id !== undefined && /^\d{1,19}$/.test(id) && BigInt(id) < 2n ** 63n ? BigInt(id) : undefined
}

/** What Horizon streams watch: the newest transaction, and the open ledger (ledgers close without any). */
export function ledgerFeed(ctx: Pick<SandboxContext, 'db' | 'ledger'>): ChangeFeed {
  return new ChangeFeed(
    ctx.db,
    async (db) => `${await ctx.ledger.lastPosition(db)}:${(await ctx.ledger.currentLedger(db))?.sequence ?? 0}`,
    STREAM_POLL_MS,
  )
}

export async function streamRecords(
  req: Request,
  res: Response,
  start: bigint,
  recordsAfter: RecordsAfter,
  feed: ChangeFeed,
  log: (line: string) => void,
  /** A record's position as a cursor: its paging token, unless that is not a number (effects). */
  cursorOf: (record: { paging_token: string }) => bigint = (record) => BigInt(record.paging_token),
): Promise<void> {
  let cursor = start
  let closed = false
  let stopListening = () => {}
  res.once('close', () => {
    closed = true
    stopListening()
  })
  markAsStream(res)
  // The SDK restarts a stream that has been silent for 15 s itself; comments would not count.
  const session = await openEventSession(req, res, { retry: 1000, keepAlive: null, trustClientEventId: false })
  // Its id is the starting cursor: an EventSource reconnecting before any record resumes there.
  session.push('hello', 'open', cursor.toString())

  const readAll = async (): Promise<void> => {
    for (;;) {
      const records = await recordsAfter(cursor, BATCH)
      for (const record of records) {
        if (closed) return
        session.push(record, 'message', record.paging_token)
        cursor = cursorOf(record)
      }
      if (records.length < BATCH) return
    }
  }
  // One read at a time; a change heard during one is read right after it.
  let reading = false
  let readAgain = false
  const read = async (): Promise<void> => {
    if (reading || closed) {
      readAgain = true
      return
    }
    reading = true
    try {
      do {
        readAgain = false
        await readAll()
      } while (readAgain && !closed)
    } catch (error) {
      if (closed) return
      log(`Horizon stream stopped: ${error instanceof Error ? error.message : String(error)}`)
      res.end()
    } finally {
      reading = false
    }
  }
  // Listening starts before the first read, so a record landing in between is read again, not missed.
  if (!closed) stopListening = feed.subscribe(() => void read())
  await read()
}
