// The next free invoice number is found through an index range over the numbers that start with
// the prefix (invoice-repository.ts). SQLite orders text byte by byte, so the unique index on
// (merchant_id, invoice_number) serves it; PostgreSQL orders it by the database's collation,
// where a prefix is no range, so it gets the same index in the "C" collation.
// Migrations never import app code: the schema here is frozen as of this migration.
import { PostgresAdapter, sql, type Kysely } from 'kysely'

const onPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter

export async function up(db: Kysely<unknown>): Promise<void> {
  if (onPostgres(db)) {
    await sql`create index invoices_number_bytes on invoices (merchant_id, (invoice_number collate "C"))`.execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (onPostgres(db)) await sql`drop index invoices_number_bytes`.execute(db)
}
