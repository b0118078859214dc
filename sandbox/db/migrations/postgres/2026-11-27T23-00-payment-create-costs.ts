// What a POST /payments costs PostgreSQL (issue #25):
// - A transaction that takes its idempotency claim with its writes, in its COMMIT's round trip
//   (sandbox/db/postgres-write-transactions.ts), cannot read the claim's answer before the writes
//   run: paybox_take_claim takes it without waiting and fails the transaction (SQLSTATE PB409) if
//   another transaction holds it, so the writes after it in the same simple query never run.
// - payments and payment_events lose their foreign keys to merchants: each insert share-locked
//   its merchant's row (FOR KEY SHARE: a row lock written to the WAL, a multixact among the
//   creates in flight). Merchants are never deleted, and a payment is only made for the merchant
//   a request authenticated as.
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function paybox_take_claim(high int, low int) returns void language plpgsql as $$
    begin
      if not pg_try_advisory_xact_lock(high, low) then
        raise exception 'the claim is held by another transaction' using errcode = 'PB409';
      end if;
    end $$`.execute(db)
  await sql`alter table payments drop constraint payments_merchant_id_fkey`.execute(db)
  await sql`alter table payment_events drop constraint payment_events_merchant_id_fkey`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payment_events add constraint payment_events_merchant_id_fkey foreign key (merchant_id) references merchants (id)`.execute(
    db,
  )
  await sql`alter table payments add constraint payments_merchant_id_fkey foreign key (merchant_id) references merchants (id)`.execute(db)
  await sql`drop function paybox_take_claim(int, int)`.execute(db)
}
