// Settlement and refunds: when a payment settled (the fee tier's trailing volume reads it), how
// much of it has been refunded, and the refunds themselves.
// Migrations never import app code: the schema here is frozen as of this migration.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('settled_at', 'integer').execute()
  await db.schema
    .alterTable('payments')
    .addColumn('usdc_refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  // Set by the pay simulation's failSettlement: the payment's settlement fails when it comes.
  await db.schema
    .alterTable('payments')
    .addColumn('settlement_will_fail', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  // Settlements in flight are found by status when a ledger closes; volume by merchant and time.
  await db.schema.createIndex('payments_by_settlement_status').on('payments').column('settlement_status').execute()
  await db.schema.createIndex('payments_by_merchant_settled').on('payments').columns(['merchant_id', 'settled_at']).execute()

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('usdc_amount', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text')
    .addColumn('settlement_tx_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('refunds_by_merchant_created').on('refunds').columns(['merchant_id', 'created_at', 'id']).execute()
  await db.schema.createIndex('refunds_by_payment').on('refunds').column('payment_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('refunds').execute()
  await db.schema.dropIndex('payments_by_merchant_settled').execute()
  await db.schema.dropIndex('payments_by_settlement_status').execute()
  await db.schema.alterTable('payments').dropColumn('settlement_will_fail').execute()
  await db.schema.alterTable('payments').dropColumn('usdc_refunded').execute()
  await db.schema.alterTable('payments').dropColumn('settled_at').execute()
}
