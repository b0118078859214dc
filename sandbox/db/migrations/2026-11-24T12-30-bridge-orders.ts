// Cross-chain quotes become bridge orders with 1Click's lifecycle (docs/bridge.md): statuses,
// what was deposited and refunded on the origin chain, the origin-chain transactions, the
// status history, and which quote superseded this one. SQLite cannot change a CHECK
// constraint, so the table is rebuilt; old rows keep their meaning (pending → PENDING_DEPOSIT,
// completed → SUCCESS). Migrations never import app code: the schema here is frozen as of this one.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bridge_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('origin_chain', 'text', (c) => c.notNull())
    .addColumn('origin_token', 'text', (c) => c.notNull())
    .addColumn('deposit_address', 'text', (c) => c.notNull())
    // Base units of the origin token (wei, lamports…), decimal text: they exceed 2^53.
    .addColumn('amount_in', 'text', (c) => c.notNull())
    .addColumn('amount_out', 'integer', (c) => c.notNull())
    .addColumn('refund_address', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`status in ('PENDING_DEPOSIT', 'INCOMPLETE_DEPOSIT', 'KNOWN_DEPOSIT_TX', 'PROCESSING', 'SUCCESS', 'REFUNDED', 'FAILED', 'EXPIRED')`,
        ),
    )
    .addColumn('deposit_tx_id', 'text')
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('amount_deposited', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('amount_refunded', 'text', (c) => c.notNull().defaultTo('0'))
    // Deposits and refunds on the origin chain: [{type, hash, amount, at}], JSON.
    .addColumn('origin_transactions', 'text', (c) => c.notNull().defaultTo('[]'))
    // Every status the order went through: [{status, at}], JSON.
    .addColumn('history', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('superseded_by', 'text')
    .execute()
  await sql`insert into bridge_orders (id, payment_id, origin_chain, origin_token, deposit_address, amount_in, amount_out,
      refund_address, status, deposit_tx_id, expires_at, created_at, amount_deposited, history)
    select id, payment_id, origin_chain, origin_token, deposit_address, amount_in, amount_out, refund_address,
      case status when 'completed' then 'SUCCESS' else 'PENDING_DEPOSIT' end, deposit_tx_id, expires_at, created_at,
      case status when 'completed' then amount_in else '0' end,
      json_array(json_object('status', case status when 'completed' then 'SUCCESS' else 'PENDING_DEPOSIT' end, 'at', created_at))
    from cross_chain_quotes`.execute(db)
  await db.schema.dropTable('cross_chain_quotes').execute()
  await sql`alter table bridge_orders rename to cross_chain_quotes`.execute(db)
  await db.schema.createIndex('cross_chain_quotes_by_payment').on('cross_chain_quotes').column('payment_id').execute()
  // The clock's sweep finds live orders past their deadline.
  await sql`create index cross_chain_quotes_live_by_deadline on cross_chain_quotes (expires_at)
    where status in ('PENDING_DEPOSIT', 'INCOMPLETE_DEPOSIT')`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('old_quotes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('origin_chain', 'text', (c) => c.notNull())
    .addColumn('origin_token', 'text', (c) => c.notNull())
    .addColumn('deposit_address', 'text', (c) => c.notNull())
    .addColumn('amount_in', 'text', (c) => c.notNull())
    .addColumn('amount_out', 'integer', (c) => c.notNull())
    .addColumn('refund_address', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'completed')`))
    .addColumn('deposit_tx_id', 'text')
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()
  await sql`insert into old_quotes select id, payment_id, origin_chain, origin_token, deposit_address, amount_in, amount_out,
      refund_address, case status when 'SUCCESS' then 'completed' else 'pending' end, deposit_tx_id, expires_at, created_at
    from cross_chain_quotes`.execute(db)
  await db.schema.dropTable('cross_chain_quotes').execute()
  await sql`alter table old_quotes rename to cross_chain_quotes`.execute(db)
  await db.schema.createIndex('cross_chain_quotes_by_payment').on('cross_chain_quotes').column('payment_id').execute()
}
