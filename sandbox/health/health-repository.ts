// The reads behind the health check: cheap queries that prove the database answers and show
// what the webhook dispatcher has still to send.
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.js'

/** How many sandbox settings the database holds: a real read, and zero means no genesis. */
export async function countStateRows(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('sandbox_state')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export interface PendingDeliveries {
  count: number
  /** The id of the oldest pending delivery (the next the dispatcher should finish). */
  oldestId: string | undefined
}

export async function findPendingDeliverySummary(db: Kysely<Database>): Promise<PendingDeliveries> {
  const { count } = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow()
  if (Number(count) === 0) return { count: 0, oldestId: undefined }
  const oldest = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .orderBy('sequence')
    .limit(1)
    .executeTakeFirst()
  return { count: Number(count), oldestId: oldest?.id }
}
