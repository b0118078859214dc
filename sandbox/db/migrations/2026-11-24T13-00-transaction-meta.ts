// What each transaction changed, as Horizon serves it: result_meta_xdr (a TransactionMeta) and
// fee_meta_xdr (the fee's LedgerEntryChanges), base64 XDR written when the transaction is
// applied; null for transactions applied before this migration. Migrations never import app code.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_transactions add column result_meta_xdr text`.execute(db)
  await sql`alter table ledger_transactions add column fee_meta_xdr text`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ledger_transactions').dropColumn('result_meta_xdr').execute()
  await db.schema.alterTable('ledger_transactions').dropColumn('fee_meta_xdr').execute()
}
