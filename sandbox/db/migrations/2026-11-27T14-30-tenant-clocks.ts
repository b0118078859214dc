// Tenants and per-merchant business clocks (docs/clocks.md). A merchant with a clock of its own
// keeps it here, in the database, so every replica of a shared sandbox reads the same time: its
// offset from the wall clock while running, or the instant it stands still at; no offset means
// it follows the sandbox-wide clock. An archived merchant keeps its rows, but leaves lists,
// sweeps and authentication.
// The sweeps look for due work merchant by merchant, so their indexes lead with the merchant.
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

const LIVE_QUOTE = sql`status in ('PENDING_DEPOSIT', 'INCOMPLETE_DEPOSIT')`

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table merchants add column tenant integer not null default 0`.execute(db)
  await sql`alter table merchants add column archived_at bigint`.execute(db)
  await sql`alter table merchants add column clock_offset_ms bigint`.execute(db)
  await sql`alter table merchants add column clock_frozen_at bigint`.execute(db)
  await sql`alter table merchants add column clock_advanced_ms bigint not null default 0`.execute(db)
  await sql`create index merchants_active_tenants on merchants (created_at) where tenant = 1 and archived_at is null`.execute(db)

  await sql`drop index payments_by_status_expiry`.execute(db)
  await sql`create index payments_open_by_merchant_expiry on payments (merchant_id, expires_at) where status = 'open'`.execute(db)
  await sql`drop index payments_escrow_unfunded`.execute(db)
  await sql`create index payments_escrow_unfunded on payments (merchant_id, escrow_expires_at) where escrow_status = 'created'`.execute(db)
  await sql`drop index invoices_by_status_due`.execute(db)
  await sql`create index invoices_sent_by_merchant_due on invoices (merchant_id, due_at) where status = 'sent'`.execute(db)

  await sql`alter table cross_chain_quotes add column merchant_id text`.execute(db)
  await sql`update cross_chain_quotes set merchant_id = (select merchant_id from payments where payments.id = cross_chain_quotes.payment_id)`.execute(
    db,
  )
  await sql`drop index cross_chain_quotes_live_by_deadline`.execute(db)
  await sql`create index cross_chain_quotes_live_by_merchant_deadline on cross_chain_quotes (merchant_id, expires_at) where ${LIVE_QUOTE}`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index cross_chain_quotes_live_by_merchant_deadline`.execute(db)
  await sql`create index cross_chain_quotes_live_by_deadline on cross_chain_quotes (expires_at) where ${LIVE_QUOTE}`.execute(db)
  await sql`alter table cross_chain_quotes drop column merchant_id`.execute(db)
  await sql`drop index invoices_sent_by_merchant_due`.execute(db)
  await sql`create index invoices_by_status_due on invoices (status, due_at)`.execute(db)
  await sql`drop index payments_escrow_unfunded`.execute(db)
  await sql`create index payments_escrow_unfunded on payments (escrow_expires_at) where escrow_status = 'created'`.execute(db)
  await sql`drop index payments_open_by_merchant_expiry`.execute(db)
  await sql`create index payments_by_status_expiry on payments (status, expires_at)`.execute(db)
  await sql`drop index merchants_active_tenants`.execute(db)
  for (const column of ['clock_advanced_ms', 'clock_frozen_at', 'clock_offset_ms', 'archived_at', 'tenant'])
    await sql`alter table merchants drop column ${sql.ref(column)}`.execute(db)
}
