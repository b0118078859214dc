// When each merchant asked for its recent webhook resends (wall-clock ms): the limit of 10 a
// minute is counted here, in the database, so replicas of a shared sandbox count together.
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table webhook_resend_times (merchant_id text not null, at bigint not null)`.execute(db)
  await sql`create index webhook_resend_times_by_merchant on webhook_resend_times (merchant_id, at)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table webhook_resend_times`.execute(db)
}
