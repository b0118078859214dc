// Invoices, their customers, and each merchant's invoice numbering (prefix and next number).
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('customers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('customer_type', 'text', (c) => c.notNull().check(sql`customer_type in ('business', 'individual')`))
    .addColumn('name', 'text')
    .addColumn('company_name', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('vat_number', 'text')
    .addColumn('address', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('invoice_number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('draft', 'sent', 'paid', 'overdue', 'voided')`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('line_items', 'text', (c) => c.notNull())
    .addColumn('subtotal', 'integer', (c) => c.notNull())
    .addColumn('tax_percentage', 'text', (c) => c.notNull())
    .addColumn('tax_total', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('issued_at', 'integer', (c) => c.notNull())
    .addColumn('due_at', 'integer')
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('notes', 'text')
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addUniqueConstraint('invoices_number_per_merchant', ['merchant_id', 'invoice_number'])
    .execute()
  await db.schema.createIndex('invoices_by_merchant_created').on('invoices').columns(['merchant_id', 'created_at', 'id']).execute()
  await db.schema.createIndex('invoices_by_payment').on('invoices').column('payment_id').execute()
  await db.schema.createIndex('invoices_by_status_due').on('invoices').columns(['status', 'due_at']).execute()

  await db.schema
    .createTable('invoice_settings')
    .addColumn('merchant_id', 'text', (c) => c.primaryKey().references('merchants.id'))
    .addColumn('invoice_prefix', 'text', (c) => c.notNull())
    .addColumn('next_number', 'integer', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['invoice_settings', 'invoices', 'customers']) await db.schema.dropTable(table).execute()
}
