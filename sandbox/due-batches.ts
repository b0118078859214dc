// Work that falls due on the business clock (expiry, overdue invoices, unfunded escrow) is done
// a batch per transaction, so a large backlog after a big clock advance never holds the write
// lock for long, and each batch is all-or-nothing.
import type { Kysely } from 'kysely'
import type { SandboxContext } from './context.js'
import type { Database } from './db/schema.js'
import { runTransaction } from './db/database.js'

const BATCH = 200

/**
 * Finds what is due at the current business time and handles each item, a batch per
 * transaction, until nothing due is left; returns how many items it handled.
 */
export async function handleDueInBatches<T>(
  ctx: Pick<SandboxContext, 'db' | 'clock'>,
  findDue: (db: Kysely<Database>, now: number, limit: number) => Promise<T[]>,
  handle: (db: Kysely<Database>, item: T, now: number) => Promise<unknown>,
): Promise<number> {
  let handled = 0
  for (;;) {
    const now = ctx.clock.now()
    // A plain read first: on the usual idle sweep nothing is due, and a write transaction would
    // take the write lock (which another process on the file waits for) and wake the webhook
    // dispatcher for nothing. The transaction finds the due items again, authoritatively.
    if ((await findDue(ctx.db, now, 1)).length === 0) return handled
    const count = await runTransaction(ctx.db, async (trx) => {
      const due = await findDue(trx, now, BATCH)
      for (const item of due) await handle(trx, item, now)
      return due.length
    })
    handled += count
    if (count < BATCH) return handled
  }
}
