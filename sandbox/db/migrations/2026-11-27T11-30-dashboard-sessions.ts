// The dashboard's sign-in tokens and sessions, in the database so that any replica can redeem a
// token or recognise a session. Only SHA-256 digests of the token and session id are stored.
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  // merchant_id null: an admin sign-in (the admin token minted it).
  await sql`create table dashboard_sign_in_tokens (
    token_hash text primary key,
    merchant_id text,
    created_at bigint not null,
    expires_at bigint not null
  )`.execute(db)
  // is_admin 1: may switch merchants; merchant_id is the merchant being looked at (null: none yet).
  await sql`create table dashboard_sessions (
    id_hash text primary key,
    is_admin integer not null,
    merchant_id text,
    csrf_token text not null,
    created_at bigint not null,
    expires_at bigint not null
  )`.execute(db)
  await sql`create index dashboard_sessions_by_expiry on dashboard_sessions (expires_at)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table dashboard_sessions`.execute(db)
  await sql`drop table dashboard_sign_in_tokens`.execute(db)
}
