// Horizon's streaming mode (server-sent events) for record lists such as an account's payments:
// an "open" event ("hello"), then every record past the cursor as a message whose id is its
// paging token, as records land. The database is polled, like the webhook dispatcher does, so
// transactions applied by any process sharing the database file are seen too.
import { createSession } from 'better-sse'
import type { Request, Response } from 'express'
import { markAsStream } from '../http/streams.js'

/** How often a stream looks for new records. */
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

/**
 * Streams the records after `start` until the client goes away (or the sandbox stops, which
 * ends every marked stream).
 */
export async function streamRecords(
  req: Request,
  res: Response,
  start: bigint,
  recordsAfter: RecordsAfter,
  log: (line: string) => void,
  /** A record's position as a cursor: its paging token, unless that is not a number (effects). */
  cursorOf: (record: { paging_token: string }) => bigint = (record) => BigInt(record.paging_token),
): Promise<void> {
  let cursor = start
  let closed = false
  let timer: NodeJS.Timeout | undefined
  res.once('close', () => {
    closed = true
    clearTimeout(timer)
  })
  markAsStream(res)
  // The SDK restarts a stream that has been silent for 15 s itself; comments would not count.
  const session = await createSession(req, res, { retry: 1000, keepAlive: null, trustClientEventId: false, headers: { 'cache-control': 'no-store' } })
  // Its id is the starting cursor: an EventSource reconnecting before any record resumes there.
  session.push('hello', 'open', cursor.toString())

  const poll = async (): Promise<void> => {
    try {
      for (;;) {
        const records = await recordsAfter(cursor, BATCH)
        for (const record of records) {
          if (closed) return
          session.push(record, 'message', record.paging_token)
          cursor = cursorOf(record)
        }
        if (records.length < BATCH) break
      }
    } catch (error) {
      if (closed) return
      log(`Horizon stream stopped: ${error instanceof Error ? error.message : String(error)}`)
      res.end()
      return
    }
    if (!closed) timer = setTimeout(() => void poll(), STREAM_POLL_MS)
  }
  await poll()
}
