// Merchant rows: the only code that reads or writes the merchants table.
import { sql, type Kysely } from 'kysely'
import { forUpdate } from '../db/sql-dialect.js'
import { defineStatement } from '../db/statement.js'
import type { Database, MerchantRow, NewMerchant } from '../db/schema.js'
import { forgetCachedMerchants } from './merchant-cache.js'

export async function insertMerchant(db: Kysely<Database>, merchant: NewMerchant): Promise<void> {
  await db.insertInto('merchants').values(merchant).execute()
}

// Authentication looks a key's merchant up (on PostgreSQL through merchant-cache.ts, which every
// write below and every replica's write clears): a statement, built once (db/statement.ts).
const merchantByApiKey = defineStatement((db, p: { apiKey: string }) =>
  // An archived merchant's key is unknown: 401, as for a key never issued.
  db.selectFrom('merchants').selectAll().where('api_key', '=', p.apiKey).where('archived_at', 'is', null).compile(),
)

export async function findMerchantByApiKey(db: Kysely<Database>, apiKey: string): Promise<MerchantRow | undefined> {
  return (await merchantByApiKey(db, { apiKey }))[0]
}

export function findMerchantById(db: Kysely<Database>, id: string): Promise<MerchantRow | undefined> {
  return db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst()
}

/**
 * The merchant's row, locked until the transaction ends: what is counted or moved per merchant
 * (its resends, its own clock) changes one transaction at a time across replicas.
 */
export function lockMerchant(db: Kysely<Database>, id: string): Promise<MerchantRow | undefined> {
  return forUpdate(db, db.selectFrom('merchants').selectAll().where('id', '=', id)).executeTakeFirst()
}

/** The merchants not archived, oldest first. */
export function listMerchants(db: Kysely<Database>): Promise<MerchantRow[]> {
  return db.selectFrom('merchants').selectAll().where('archived_at', 'is', null).orderBy('created_at').orderBy('id').execute()
}

export async function updateMerchant(
  db: Kysely<Database>,
  id: string,
  changes: Partial<Pick<MerchantRow, 'api_secret' | 'webhooks_paused'>>,
): Promise<void> {
  forgetCachedMerchants()
  await db.updateTable('merchants').set(changes).where('id', '=', id).execute()
}

/** Archived merchants' ids, for the lists that span merchants (an archived tenant's rows leave them). */
export const archivedMerchantIds = (db: Kysely<Database>) => db.selectFrom('merchants').select('id').where('archived_at', 'is not', null)

/**
 * The tenants not archived, oldest first. `tenant = 1` as a literal, not a parameter (here and in
 * countActiveTenants): SQLite, and PostgreSQL's generic plans (SESSION_SETTINGS), use the partial
 * index merchants_active_tenants only for a query they can see matches.
 */
export function listActiveTenants(db: Kysely<Database>): Promise<MerchantRow[]> {
  return db
    .selectFrom('merchants')
    .selectAll()
    .where('tenant', '=', sql.lit(1))
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

export async function countActiveTenants(db: Kysely<Database>): Promise<number> {
  const { count } = await db
    .selectFrom('merchants')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('tenant', '=', sql.lit(1))
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(count)
}

export type MerchantClockRow = Pick<MerchantRow, 'clock_offset_ms' | 'clock_frozen_at' | 'clock_advanced_ms'>

export function findMerchantClock(db: Kysely<Database>, id: string): Promise<MerchantClockRow | undefined> {
  return db
    .selectFrom('merchants')
    .select(['clock_offset_ms', 'clock_frozen_at', 'clock_advanced_ms'])
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function writeMerchantClock(db: Kysely<Database>, id: string, clock: MerchantClockRow): Promise<void> {
  forgetCachedMerchants()
  await db.updateTable('merchants').set(clock).where('id', '=', id).execute()
}

/** Archives the merchant at `at`, once; returns when it was archived (undefined: no such merchant). */
export async function archiveMerchant(db: Kysely<Database>, id: string, at: number): Promise<number | undefined> {
  forgetCachedMerchants()
  await db.updateTable('merchants').set({ archived_at: at }).where('id', '=', id).where('archived_at', 'is', null).execute()
  const row = await db.selectFrom('merchants').select('archived_at').where('id', '=', id).executeTakeFirst()
  return row?.archived_at ?? undefined
}

/** The instants a sweep reads business time at: the wall clock and the sandbox-wide clock. */
export interface SweepTimes {
  wallNow: number
  sandboxNow: number
  /** Only this merchant's due work (its clock was just moved). */
  merchantId?: string
}

/**
 * Business time of the row of `merchants` joined in a sweep's query, as merchantNowOf computes
 * it (merchant-time.ts): frozen, else the wall clock plus its offset, else the sandbox-wide time.
 * Each sweep selects from the active merchants cross joined with its table (so SQLite keeps the
 * merchants outside: one probe per merchant of an index that leads with the merchant), in ONE
 * query however many tenants there are.
 */
export const sweepNow = (times: SweepTimes) =>
  sql<number>`coalesce(merchants.clock_frozen_at, merchants.clock_offset_ms + ${times.wallNow}, ${times.sandboxNow})`

/** A due item and its merchant's business time, which the change is stamped with. */
export interface Due<T> {
  item: T
  now: number
}

/** A due row of a sweep's query with its merchant's time (due_now) apart. */
export function splitDue<T extends { due_now: number }>(row: T): Due<Omit<T, 'due_now'>> {
  const { due_now, ...item } = row
  return { item, now: Number(due_now) }
}
