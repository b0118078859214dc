// A transaction that takes its idempotency claim with its writes, in its COMMIT's round trip
// (sandbox/db/postgres-write-transactions.ts), cannot read the claim's answer before the writes
// run: this function takes the claim without waiting and fails the transaction (SQLSTATE PB409)
// if another transaction holds it, so the writes after it in the same simple query never run.
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function paybox_take_claim(high int, low int) returns void language plpgsql as $$
    begin
      if not pg_try_advisory_xact_lock(high, low) then
        raise exception 'the claim is held by another transaction' using errcode = 'PB409';
      end if;
    end $$`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function paybox_take_claim(int, int)`.execute(db)
}
