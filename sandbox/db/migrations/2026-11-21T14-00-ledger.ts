// The simulated Stellar ledger: account sequences and balances, ledgers, applied transactions
// and their operations. Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  // int64 values as decimal text: SQLite integers would be exact, but better-sqlite3 hands them
  // to JavaScript as numbers, which are not exact beyond 2^53.
  for (const column of ['sequence', 'usdc_balance', 'xlm_balance']) {
    await db.schema
      .alterTable('ledger_accounts')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo('0'))
      .execute()
  }

  // Each ledger carries the network-wide XLM figures as of that ledger, like a Stellar ledger header.
  await db.schema
    .createTable('ledger_ledgers')
    .addColumn('sequence', 'integer', (c) => c.primaryKey())
    .addColumn('opened_at', 'integer', (c) => c.notNull())
    .addColumn('closed_at', 'integer')
    .addColumn('transaction_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_coins', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('fee_pool', 'text', (c) => c.notNull().defaultTo('0'))
    .execute()
  // At most one ledger is open at a time.
  await sql`create unique index ledger_ledgers_one_open on ledger_ledgers ((closed_at is null)) where closed_at is null`.execute(db)

  await db.schema
    .createTable('ledger_transactions')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    // Application order across the whole ledger: the paging token of transaction lists.
    .addColumn('position', 'integer', (c) => c.notNull().unique())
    .addColumn('ledger_sequence', 'integer', (c) => c.notNull().references('ledger_ledgers.sequence'))
    .addColumn('source_account', 'text', (c) => c.notNull())
    .addColumn('source_sequence', 'text', (c) => c.notNull())
    .addColumn('fee_charged', 'integer', (c) => c.notNull())
    .addColumn('memo_type', 'text', (c) => c.notNull().check(sql`memo_type in ('none', 'text', 'id', 'hash', 'return')`))
    .addColumn('memo', 'text')
    .addColumn('envelope_xdr', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('ledger_transactions_by_source').on('ledger_transactions').columns(['source_account', 'position']).execute()
  await db.schema.createIndex('ledger_transactions_by_ledger').on('ledger_transactions').columns(['ledger_sequence', 'position']).execute()
  await db.schema
    .createIndex('ledger_transactions_by_memo')
    .on('ledger_transactions')
    .column('memo')
    .where(sql.ref('memo'), 'is not', null)
    .execute()

  await db.schema
    .createTable('ledger_operations')
    .addColumn('tx_hash', 'text', (c) => c.notNull().references('ledger_transactions.hash'))
    .addColumn('op_index', 'integer', (c) => c.notNull())
    // The transaction's position, repeated so per-account history pages without a join.
    .addColumn('tx_position', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('payment')`))
    .addColumn('from_account', 'text', (c) => c.notNull())
    .addColumn('to_account', 'text', (c) => c.notNull())
    .addColumn('asset_code', 'text', (c) => c.notNull().check(sql`asset_code in ('USDC', 'XLM')`))
    .addColumn('amount', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_operations_pk', ['tx_hash', 'op_index'])
    .execute()
  await db.schema.createIndex('ledger_operations_by_from').on('ledger_operations').columns(['from_account', 'tx_position']).execute()
  await db.schema.createIndex('ledger_operations_by_to').on('ledger_operations').columns(['to_account', 'tx_position']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['ledger_operations', 'ledger_transactions', 'ledger_ledgers']) {
    await db.schema.dropTable(table).execute()
  }
  for (const column of ['sequence', 'usdc_balance', 'xlm_balance']) {
    await db.schema.alterTable('ledger_accounts').dropColumn(column).execute()
  }
}
