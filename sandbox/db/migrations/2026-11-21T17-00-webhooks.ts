// Webhook deliveries: the outbox of events to send and, once sent, the delivery log (spec 2.8).
// Merchants can pause webhooks. Migrations never import app code: the schema here is frozen.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('merchants')
    .addColumn('webhooks_paused', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()

  // Every payment event, webhookUrl or not: what `paybox listen` forwards.
  await db.schema
    .createTable('payment_events')
    .addColumn('sequence', 'integer', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Order of creation across the sandbox: events of one payment are delivered in this order.
    .addColumn('sequence', 'integer', (c) => c.notNull().unique())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'success', 'failed', 'skipped')`))
    .addColumn('request_payload', 'text', (c) => c.notNull())
    .addColumn('response_body', 'text')
    .addColumn('http_status', 'integer')
    .addColumn('error_message', 'text')
    .addColumn('attempt_count', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'integer')
    .addColumn('resend_of', 'text')
    .addColumn('last_attempt_at', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('webhook_deliveries_by_merchant')
    .on('webhook_deliveries')
    .columns(['merchant_id', 'created_at', 'sequence'])
    .execute()
  await db.schema
    .createIndex('webhook_deliveries_pending')
    .on('webhook_deliveries')
    .column('sequence')
    .where(sql.ref('status'), '=', 'pending')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute()
  await db.schema.dropTable('payment_events').execute()
  await db.schema.alterTable('merchants').dropColumn('webhooks_paused').execute()
}
