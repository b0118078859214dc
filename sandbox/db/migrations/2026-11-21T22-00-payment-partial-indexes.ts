// Two indexes on payments that only serve rows a new payment never is: settling payments
// (settlement_status processing) and settled ones (settled_at set). As partial indexes, creating
// a payment no longer writes an entry into either (two B-tree pages fewer in each creation's
// commit); the queries they serve (settlements waiting for their ledger, a merchant's settled
// volume) read the same entries as before.
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_by_settlement_status').execute()
  await sql`create index payments_settling on payments (settlement_tx_id) where settlement_status = 'processing'`.execute(db)
  await db.schema.dropIndex('payments_by_merchant_settled').execute()
  await sql`create index payments_by_merchant_settled on payments (merchant_id, settled_at) where settled_at is not null`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_by_merchant_settled').execute()
  await db.schema.createIndex('payments_by_merchant_settled').on('payments').columns(['merchant_id', 'settled_at']).execute()
  await db.schema.dropIndex('payments_settling').execute()
  await db.schema.createIndex('payments_by_settlement_status').on('payments').column('settlement_status').execute()
}
