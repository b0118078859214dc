// Work that falls due on the business clock (expiry, overdue invoices, unfunded escrow) is done
// a batch per transaction, so a large backlog after a big clock advance never holds the write
// lock for long, and each batch is all-or-nothing. Each item falls due by its merchant's own
// clock (docs/clocks.md), so the finder answers each item with the time it was due at.
import type { Kysely } from 'kysely'
import type { SandboxContext } from '../context.js'
import type { Database } from '../db/schema.js'
import { runTransaction } from '../db/database.js'
import type { Due, SweepTimes } from '../merchants/merchant-repository.js'

const BATCH = 200

/**
 * Finds what is due at each merchant's business time and handles each item, a batch per
 * transaction, until nothing due is left (only `merchantId`'s, when given); returns how many items it handled.
 */
export async function handleDueInBatches<T>(
  ctx: Pick<SandboxContext, 'db' | 'clock' | 'wallClock'>,
  findDue: (db: Kysely<Database>, times: SweepTimes, limit: number) => Promise<Array<Due<T>>>,
  handle: (db: Kysely<Database>, item: T, now: number) => Promise<unknown>,
  merchantId?: string,
): Promise<number> {
  let handled = 0
  for (;;) {
    const times = { wallNow: ctx.wallClock.now(), sandboxNow: ctx.clock.now(), merchantId }
    // A plain read first: on the usual idle sweep nothing is due, and a write transaction would
    // take the write lock (which another process on the file waits for) and wake the webhook
    // dispatcher for nothing. The transaction finds the due items again, authoritatively.
    if ((await findDue(ctx.db, times, 1)).length === 0) return handled
    const count = await runTransaction(ctx.db, async (trx) => {
      const due = await findDue(trx, times, BATCH)
      for (const { item, now } of due) await handle(trx, item, now)
      return due.length
    })
    handled += count
    if (count < BATCH) return handled
  }
}
