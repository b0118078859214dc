// The digest signatures a shared sandbox has accepted on requests other than GET, each until its
// timestamp window is over (wall-clock ms): the primary key makes "insert if absent" atomic
// across every replica, so a captured request is accepted once (docs/security.md).
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table seen_signatures (signature text primary key, expires_at bigint not null)`.execute(db)
  await sql`create index seen_signatures_by_expiry on seen_signatures (expires_at)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table seen_signatures`.execute(db)
}
