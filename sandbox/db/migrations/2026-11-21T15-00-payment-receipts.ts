// Payments remember how much USDC they have received, and the expiry sweep finds due
// payments by status and expiry through an index.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('payments')
    .addColumn('usdc_received', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('payments_by_status_expiry').on('payments').columns(['status', 'expires_at']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_by_status_expiry').execute()
  await db.schema.alterTable('payments').dropColumn('usdc_received').execute()
}
