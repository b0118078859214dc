// Initial schema: merchants, ledger accounts, payments and idempotency keys.
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_state')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('merchants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('api_key', 'text', (c) => c.notNull().unique())
    .addColumn('api_secret', 'text', (c) => c.notNull())
    .addColumn('settlement_mode', 'text', (c) => c.notNull().check(sql`settlement_mode in ('direct', 'escrow')`))
    .addColumn('escrow_fee_bps', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('ledger_accounts')
    .addColumn('public_key', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('settlement_status', 'text', (c) => c.notNull())
    .addColumn('amount_value', 'integer', (c) => c.notNull())
    .addColumn('amount_currency', 'text', (c) => c.notNull())
    .addColumn('usdc_amount', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('merchant_name', 'text', (c) => c.notNull())
    .addColumn('redirect_url', 'text')
    .addColumn('cancel_url', 'text')
    .addColumn('webhook_url', 'text')
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text')
    .addColumn('partner_id', 'text')
    .addColumn('store_id', 'text')
    .addColumn('memo', 'text', (c) => c.notNull().unique())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('auth_token', 'text', (c) => c.notNull())
    .addColumn('short_code', 'text', (c) => c.notNull().unique())
    .addColumn('amount_paid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settlement_amount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settlement_fee', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stellar_tx_id', 'text')
    .addColumn('settlement_tx_id', 'text')
    .addColumn('sender_account', 'text')
    .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('history', 'text', (c) => c.notNull())
    .addColumn('escrow_status', 'text')
    .addColumn('escrow_order_id', 'text')
    .addColumn('escrow_contract_address', 'text')
    .addColumn('escrow_fee_bps', 'integer')
    .addColumn('escrow_payee', 'text')
    .addColumn('escrow_expires_at', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .execute()

  // Lists are newest first per merchant, optionally filtered by status or store.
  await db.schema.createIndex('payments_by_merchant_created').on('payments').columns(['merchant_id', 'created_at', 'id']).execute()
  await db.schema
    .createIndex('payments_by_merchant_status_created')
    .on('payments')
    .columns(['merchant_id', 'status', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('payments_by_merchant_store_created')
    .on('payments')
    .columns(['merchant_id', 'store_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['merchant_id', 'key'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['idempotency_keys', 'payments', 'ledger_accounts', 'merchants', 'sandbox_state']) {
    await db.schema.dropTable(table).execute()
  }
}
