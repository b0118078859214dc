// Events about more than payments (issue 26): the event log and the outbox name an event's subject
// by type and id. Rows so far are all about payments, which the column default says without
// rewriting them; the index serves the per-subject log lookups (the log filtered by payment).
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

const TABLES = ['payment_events', 'webhook_deliveries'] as const

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await sql`alter table ${sql.table(table)} rename column payment_id to subject_id`.execute(db)
    await sql`alter table ${sql.table(table)} add column subject_type text not null default 'payment'
      check (subject_type in ('payment', 'invoice', 'refund'))`.execute(db)
  }
  await sql`create index webhook_deliveries_by_subject on webhook_deliveries (subject_type, subject_id, sequence)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_deliveries_by_subject`.execute(db)
  for (const table of TABLES) {
    await sql`delete from ${sql.table(table)} where subject_type <> 'payment'`.execute(db)
    await sql`alter table ${sql.table(table)} drop column subject_type`.execute(db)
    await sql`alter table ${sql.table(table)} rename column subject_id to payment_id`.execute(db)
  }
}
