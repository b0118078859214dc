// The digest signatures a shared sandbox has accepted on requests other than GET, each until its
// timestamp window is over (wall-clock ms): the primary key makes "insert if absent" atomic
// across every replica, so a captured request is accepted once (docs/security.md).
// On PostgreSQL the table is unlogged: a row costs no WAL flush of its own (about 5 ms on a
// disk that syncs, paid by every signed POST), and a crash of the server, which empties it, only
// reopens the signatures of the last 11 minutes to one replay each.
// Migrations never import app code: the schema here is frozen as of this migration.
import { PostgresAdapter, sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  const unlogged = db.getExecutor().adapter instanceof PostgresAdapter ? sql`unlogged ` : sql``
  await sql`create ${unlogged}table seen_signatures (signature text primary key, expires_at bigint not null)`.execute(db)
  await sql`create index seen_signatures_by_expiry on seen_signatures (expires_at)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table seen_signatures`.execute(db)
}
