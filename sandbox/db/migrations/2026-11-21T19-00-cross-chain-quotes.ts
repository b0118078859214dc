// Cross-chain payment quotes (spec 4.5): a deposit address on another chain whose simulated
// bridge delivers USDC to a payment. Migrations never import app code.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cross_chain_quotes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('origin_chain', 'text', (c) => c.notNull())
    .addColumn('origin_token', 'text', (c) => c.notNull())
    .addColumn('deposit_address', 'text', (c) => c.notNull())
    // In the origin token's base units (wei, lamports…), as decimal text: they exceed 2^53.
    .addColumn('amount_in', 'text', (c) => c.notNull())
    .addColumn('amount_out', 'integer', (c) => c.notNull())
    .addColumn('refund_address', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'completed')`))
    .addColumn('deposit_tx_id', 'text')
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('cross_chain_quotes_by_payment').on('cross_chain_quotes').column('payment_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cross_chain_quotes').execute()
}
