// Webhook delivery rows: the only code that reads or writes the webhook_deliveries table.
import { sql, type Kysely } from 'kysely'
import { runStatement } from '../db/database.js'
import type { Database, Insertable, PaymentEventRow, PaymentEventsTable, WebhookDeliveryRow } from '../db/schema.js'
import type { PageRequest } from '../db/paginate.js'

/** The next delivery's sequence number; the caller's transaction holds the write lock until it inserts. */
export async function nextDeliverySequence(db: Kysely<Database>): Promise<number> {
  const { next } = await db
    .selectFrom('webhook_deliveries')
    .select(sql<number>`coalesce(max(sequence), 0) + 1`.as('next'))
    .executeTakeFirstOrThrow()
  return next
}

export async function insertDelivery(db: Kysely<Database>, delivery: WebhookDeliveryRow): Promise<void> {
  await db.insertInto('webhook_deliveries').values(delivery).execute()
}

export async function updateDelivery(db: Kysely<Database>, id: string, changes: Partial<WebhookDeliveryRow>): Promise<void> {
  await db.updateTable('webhook_deliveries').set(changes).where('id', '=', id).execute()
}

export function findDeliveryForMerchant(db: Kysely<Database>, merchantId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).where('merchant_id', '=', merchantId).executeTakeFirst()
}

// The dispatcher's hot statements, compiled once: kysely would rebuild and recompile each per
// delivery (tens of µs), and the driver caches the prepared statement by its text.
const PENDING_AFTER_SQL = "select * from webhook_deliveries where status = 'pending' and sequence > ? order by sequence limit ?"
const LOG_OUTCOME_SQL = `update webhook_deliveries set status = ?, http_status = ?, response_body = ?, error_message = ?,
  duration_ms = ?, last_attempt_at = ?, updated_at = ? where id = ?`
const EVENTS_AFTER_SQL = 'select * from payment_events where sequence > ? order by sequence limit ?'

const PENDING_AFTER_EXCEPT_SQL = `select * from webhook_deliveries where status = 'pending' and sequence > ?
  and merchant_id not in (select value from json_each(?)) and url not in (select value from json_each(?)) order by sequence limit ?`

/**
 * Pending deliveries with a sequence after `sequence`, oldest first (through the index of pending
 * ones), leaving out those of the merchants and to the URLs in `except`.
 */
export async function findPendingDeliveriesAfter(
  db: Kysely<Database>,
  sequence: number,
  limit: number,
  except?: { merchants: string[]; urls: string[] },
): Promise<WebhookDeliveryRow[]> {
  const { rows } =
    except === undefined
      ? await runStatement(db, PENDING_AFTER_SQL, [sequence, limit])
      : await runStatement(db, PENDING_AFTER_EXCEPT_SQL, [sequence, JSON.stringify(except.merchants), JSON.stringify(except.urls), limit])
  return rows as WebhookDeliveryRow[]
}

/**
 * Writes what happened to finished deliveries: their outcome columns only (status, answer, error,
 * duration, times); the rest of a row never changes once queued, and rewriting it would touch every
 * index of the table.
 */
export async function logDeliveryOutcomes(db: Kysely<Database>, deliveries: WebhookDeliveryRow[]): Promise<void> {
  for (const d of deliveries) {
    await runStatement(db, LOG_OUTCOME_SQL, [d.status, d.http_status, d.response_body, d.error_message, d.duration_ms, d.last_attempt_at, d.updated_at, d.id])
  }
}

export interface DeliveryFilters {
  status?: string
  paymentId?: string
}

/** One page of a merchant's deliveries, newest first, and how many match in all. */
export async function listDeliveries(
  db: Kysely<Database>,
  merchantId: string,
  filters: DeliveryFilters,
  page: PageRequest,
): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
  let query = db.selectFrom('webhook_deliveries').where('merchant_id', '=', merchantId)
  if (filters.status !== undefined) query = query.where('status', '=', filters.status as WebhookDeliveryRow['status'])
  if (filters.paymentId !== undefined) query = query.where('payment_id', '=', filters.paymentId)
  const rows = await query
    .selectAll()
    .orderBy('sequence', 'desc')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute()
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  return { rows, total: Number(total) }
}

const EVENT_COLUMNS = ['merchant_id', 'payment_id', 'event_type', 'payload', 'created_at'] as const
// Runs for every change of a payment: compiled by kysely once, run with each call's values.
let insertEventSql: string | undefined

export async function insertPaymentEvent(db: Kysely<Database>, event: Pick<Insertable<PaymentEventsTable>, (typeof EVENT_COLUMNS)[number]>): Promise<void> {
  insertEventSql ??= db
    .insertInto('payment_events')
    .values(Object.fromEntries(EVENT_COLUMNS.map((column) => [column, event[column]])) as Insertable<PaymentEventsTable>)
    .compile().sql
  await runStatement(db, insertEventSql, EVENT_COLUMNS.map((column) => event[column]))
}

/** Events after `sequence`, oldest first. */
export async function findEventsAfter(db: Kysely<Database>, sequence: number, limit: number): Promise<PaymentEventRow[]> {
  return (await runStatement(db, EVENTS_AFTER_SQL, [sequence, limit])).rows as PaymentEventRow[]
}

export async function lastEventSequence(db: Kysely<Database>): Promise<number> {
  const { last } = await db.selectFrom('payment_events').select(sql<number>`coalesce(max(sequence), 0)`.as('last')).executeTakeFirstOrThrow()
  return last
}
