// Where the sandbox may send webhooks (--shared, --allow-webhook-to), stored once for the sandbox:
// every replica enforces this row, not its own flags (issue 29). One row; `allow_webhook_to` is a
// JSON array of the normalized entries. Migrations never import app code: frozen as of this one.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table egress_policy (
    id integer primary key check (id = 1),
    shared integer not null check (shared in (0, 1)),
    allow_webhook_to text not null
  )`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table egress_policy`.execute(db)
}
