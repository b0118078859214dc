// Transactions included in a ledger as failed (tx_failed at apply time: op_underfunded,
// op_no_trust, op_line_full, …) are recorded as Stellar records them: the fee charged, the
// sequence used, and their operations' results. Accounts get a USDC trustline that may be absent
// and has a limit. Migrations never import app code: the schema here is frozen as of this one.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  // Constant defaults: adding these columns rewrites no row.
  await sql`alter table ledger_transactions add column successful integer not null default 1`.execute(db)
  // A failed transaction's operation result codes, as a JSON array; null when it succeeded.
  await sql`alter table ledger_transactions add column operation_results text`.execute(db)
  await sql`alter table ledger_accounts add column usdc_trustline integer not null default 1`.execute(db)
  // int64 stroops as decimal text; the default is int64's largest, Stellar's default limit.
  await sql`alter table ledger_accounts add column usdc_limit text not null default '9223372036854775807'`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of [
    ['ledger_transactions', 'successful'],
    ['ledger_transactions', 'operation_results'],
    ['ledger_accounts', 'usdc_trustline'],
    ['ledger_accounts', 'usdc_limit'],
  ] as const) {
    await db.schema.alterTable(table).dropColumn(column).execute()
  }
}
