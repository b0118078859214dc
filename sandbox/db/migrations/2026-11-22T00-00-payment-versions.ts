// A version per payment, bumped by a trigger on every change of the row, whoever makes it (any
// code path, another process on the same file). GET /payments/{id} keeps the JSON it rendered
// for a version and reads only the version to know it is still right (payments/rendered-payments.ts).
// Adding a column with a constant default rewrites nothing, even on a million rows.
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payments add column version integer not null default 0`.execute(db)
  // recursive_triggers is off: the trigger's own update does not fire it again.
  await sql`create trigger payments_version_after_update after update on payments
    when new.version = old.version begin
    update payments set version = old.version + 1 where rowid = new.rowid;
  end`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger payments_version_after_update`.execute(db)
  await sql`alter table payments drop column version`.execute(db)
}
