// Webhook delivery rows: the only code that reads or writes the webhook_deliveries table.
import { sql, type Kysely } from 'kysely'
import type { WebhookDeliveryStatus, WebhookEventType } from '../../src/api/enumerations.js'
import { isPostgres } from '../db/database.js'
import { jsonTextValues } from '../db/sql-dialect.js'
import { defineStatement } from '../db/statement.js'
import type { Database, Insertable, PaymentEventRow, PaymentEventsTable, WebhookDeliveryRow } from '../db/schema.js'
import type { PageRequest } from '../db/paginate.js'

/**
 * The next delivery's sequence number. SQLite: one past the largest (its one writer holds the
 * database until the caller inserts). PostgreSQL: drawn from the column's identity, so no lock is
 * needed; numbers may then commit out of order across subjects, but a subject's own changes are
 * serialized by its row lock, so its deliveries are numbered in the order they commit.
 */
export async function nextDeliverySequence(db: Kysely<Database>): Promise<number> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ next: number }>`select nextval(pg_get_serial_sequence('webhook_deliveries', 'sequence')) as next`.execute(
      db,
    )
    return Number(rows[0]!.next)
  }
  const { next } = await db
    .selectFrom('webhook_deliveries')
    .select(sql<number>`coalesce(max(sequence), 0) + 1`.as('next'))
    .executeTakeFirstOrThrow()
  return next
}

export async function insertDelivery(db: Kysely<Database>, delivery: WebhookDeliveryRow): Promise<void> {
  await db.insertInto('webhook_deliveries').values(delivery).execute()
}

export function findDeliveryById(db: Kysely<Database>, id: string): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The deliveries of `ids` that exist, in the order of `ids`. */
export async function findDeliveriesByIds(db: Kysely<Database>, ids: readonly string[]): Promise<WebhookDeliveryRow[]> {
  if (ids.length === 0) return []
  const rows = await db.selectFrom('webhook_deliveries').selectAll().where('id', 'in', ids).execute()
  const byId = new Map(rows.map((row) => [row.id, row]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

export function findDeliveryForMerchant(db: Kysely<Database>, merchantId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).where('merchant_id', '=', merchantId).executeTakeFirst()
}

// The dispatcher's hot statements, built once (db/statement.ts): kysely would rebuild and
// recompile each per delivery.
const pendingAfter = defineStatement((db, p: { sequence: number; limit: number }) =>
  sql<WebhookDeliveryRow>`select * from webhook_deliveries where status = 'pending' and sequence > ${p.sequence} order by sequence limit ${p.limit}`.compile(
    db,
  ),
)
const pendingAfterExcept = defineStatement((db, p: { sequence: number; merchants: string; urls: string; limit: number }) =>
  sql<WebhookDeliveryRow>`select * from webhook_deliveries where status = 'pending' and sequence > ${p.sequence}
    and merchant_id not in (${jsonTextValues(db, p.merchants)}) and url not in (${jsonTextValues(db, p.urls)})
    order by sequence limit ${p.limit}`.compile(db),
)
type DeliveryOutcome = Pick<
  WebhookDeliveryRow,
  'id' | 'status' | 'http_status' | 'response_body' | 'error_message' | 'duration_ms' | 'last_attempt_at' | 'updated_at'
>
const logOutcome = defineStatement((db, d: DeliveryOutcome) =>
  db
    .updateTable('webhook_deliveries')
    .set({
      status: d.status,
      http_status: d.http_status,
      response_body: d.response_body,
      error_message: d.error_message,
      duration_ms: d.duration_ms,
      last_attempt_at: d.last_attempt_at,
      updated_at: d.updated_at,
    })
    .where('id', '=', d.id)
    .compile(),
)
// Positions are final once a reader sees them: on PostgreSQL a row has none (null, never `>` a
// cursor) until it is placed after its commit, above every position placed before
// (db/postgres-event-positions.ts), so paging past a cursor skips no row that commits late.
const EVENT_COLUMNS = ['sequence', 'merchant_id', 'subject_type', 'subject_id', 'event_type', 'payload', 'created_at'] as const
const eventsAfter = defineStatement((db, p: { sequence: number; limit: number }) =>
  db.selectFrom('payment_events').select(EVENT_COLUMNS).where('sequence', '>', p.sequence).orderBy('sequence').limit(p.limit).compile(),
)
// Deferred: on PostgreSQL it goes with the change's other writes and its COMMIT (db/statement.ts).
const insertEventRow = defineStatement((db, event: NewEvent) => db.insertInto('payment_events').values(event).compile(), { deferred: true })

export async function findPendingDeliveriesAfter(
  db: Kysely<Database>,
  sequence: number,
  limit: number,
  except?: { merchants: string[]; urls: string[] },
): Promise<WebhookDeliveryRow[]> {
  return except === undefined
    ? pendingAfter(db, { sequence, limit })
    : pendingAfterExcept(db, { sequence, merchants: JSON.stringify(except.merchants), urls: JSON.stringify(except.urls), limit })
}

// Only the outcome columns: the rest of a row never changes once queued, and rewriting it would
// touch every index of the table.
export async function logDeliveryOutcomes(db: Kysely<Database>, deliveries: WebhookDeliveryRow[]): Promise<void> {
  for (const delivery of deliveries) await logOutcome(db, delivery)
}

export interface DeliveryFilters {
  status?: WebhookDeliveryStatus
  paymentId?: string
  eventType?: WebhookEventType
}

export async function listDeliveries(
  db: Kysely<Database>,
  merchantId: string,
  filters: DeliveryFilters,
  page: PageRequest,
): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
  let query = db.selectFrom('webhook_deliveries').where('merchant_id', '=', merchantId)
  if (filters.status !== undefined) query = query.where('status', '=', filters.status)
  // Through webhook_deliveries_by_subject: a payment's few entries, not the merchant's whole log.
  if (filters.paymentId !== undefined) query = query.where('subject_type', '=', 'payment').where('subject_id', '=', filters.paymentId)
  if (filters.eventType !== undefined) query = query.where('event_type', '=', filters.eventType)
  const rows = await query
    .selectAll()
    .orderBy('sequence', 'desc')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute()
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  return { rows, total: Number(total) }
}

type NewEvent = Pick<
  Insertable<PaymentEventsTable>,
  'merchant_id' | 'subject_type' | 'subject_id' | 'event_type' | 'payload' | 'created_at'
>

// Runs for every event of every subject.
/** Deliveries of the payment's events not attempted yet (the outbox's pending rows are few). */
export async function countPendingDeliveries(db: Kysely<Database>, paymentId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .where('subject_type', '=', 'payment')
    .where('subject_id', '=', paymentId)
    .where('status', '=', 'pending')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export async function insertEvent(db: Kysely<Database>, event: NewEvent): Promise<void> {
  await insertEventRow(db, event)
}

export async function findEventsAfter(db: Kysely<Database>, sequence: number, limit: number): Promise<PaymentEventRow[]> {
  return eventsAfter(db, { sequence, limit })
}

/** The highest position placed so far (a row still unplaced will be given a higher one). */
export async function lastEventSequence(db: Kysely<Database>): Promise<number> {
  const { last } = await db
    .selectFrom('payment_events')
    .select(sql<number>`coalesce(max(sequence), 0)`.as('last'))
    .executeTakeFirstOrThrow()
  return last
}

/** A merchant's resend times after `since`, oldest first (at most `limit`); older ones are deleted. */
export async function recentResendTimes(db: Kysely<Database>, merchantId: string, since: number, limit: number): Promise<number[]> {
  await db.deleteFrom('webhook_resend_times').where('merchant_id', '=', merchantId).where('at', '<=', since).execute()
  const rows = await db
    .selectFrom('webhook_resend_times')
    .select('at')
    .where('merchant_id', '=', merchantId)
    .orderBy('at')
    .limit(limit)
    .execute()
  return rows.map((row) => row.at)
}

export async function insertResendTime(db: Kysely<Database>, merchantId: string, at: number): Promise<void> {
  await db.insertInto('webhook_resend_times').values({ merchant_id: merchantId, at }).execute()
}

/**
 * Finished deliveries of these merchants created in [since, since + buckets × bucketMs), counted
 * per bucket and outcome: one range of the (merchant_id, created_at) index per merchant.
 */
export async function countDeliveryOutcomes(
  db: Kysely<Database>,
  merchantIds: readonly string[],
  since: number,
  bucketMs: number,
  buckets: number,
): Promise<Array<{ bucket: number; status: WebhookDeliveryRow['status']; count: number }>> {
  if (merchantIds.length === 0) return []
  const rows = await db
    .selectFrom('webhook_deliveries')
    .where('merchant_id', 'in', merchantIds)
    .where('created_at', '>=', since)
    .where('created_at', '<', since + bucketMs * buckets)
    .where('status', 'in', ['success', 'failed'])
    .select((eb) => [
      // Integer literals: a bound JS number is a REAL to SQLite, and the division would not truncate.
      sql<number>`(created_at - ${sql.lit(Math.trunc(since))}) / ${sql.lit(Math.trunc(bucketMs))}`.as('bucket'),
      'status',
      eb.fn.countAll<number>().as('total'),
    ])
    .groupBy([sql`1`, sql`2`])
    .execute()
  return rows.map((row) => ({ bucket: Number(row.bucket), status: row.status, count: Number(row.total) }))
}
