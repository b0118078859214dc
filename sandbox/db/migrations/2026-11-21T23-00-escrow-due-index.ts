// The due-work sweep looks for unfunded escrow orders past their expiry every second, in a write
// transaction; without an index that was a scan of every payment. A partial index holds only the
// unfunded orders (escrow_status created), so a direct merchant's payment writes no entry into it.
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index payments_escrow_unfunded on payments (escrow_expires_at) where escrow_status = 'created'`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_escrow_unfunded').execute()
}
