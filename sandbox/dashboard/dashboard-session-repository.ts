// Dashboard sign-in tokens and sessions: the only code that touches their tables. Rows are keyed
// by digests; the raw token and session id never reach the database.
import type { Kysely } from 'kysely'
import type { Database, DashboardSessionRow } from '../db/schema.js'

export async function insertSignInToken(
  db: Kysely<Database>,
  token: { token_hash: string; merchant_id: string | null; created_at: number; expires_at: number },
): Promise<void> {
  await db.insertInto('dashboard_sign_in_tokens').values(token).execute()
}

/** Deletes the token and returns it: of two replicas redeeming it at once, only one gets a row. */
export function takeSignInToken(db: Kysely<Database>, tokenHash: string) {
  return db.deleteFrom('dashboard_sign_in_tokens').where('token_hash', '=', tokenHash).returningAll().executeTakeFirst()
}

export async function deleteExpiredSignInTokens(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('dashboard_sign_in_tokens').where('expires_at', '<=', now).execute()
}

export async function insertSession(db: Kysely<Database>, session: DashboardSessionRow): Promise<void> {
  await db.insertInto('dashboard_sessions').values(session).execute()
}

export function findSession(db: Kysely<Database>, idHash: string, now: number): Promise<DashboardSessionRow | undefined> {
  return db.selectFrom('dashboard_sessions').selectAll().where('id_hash', '=', idHash).where('expires_at', '>', now).executeTakeFirst()
}

export async function updateSessionMerchant(db: Kysely<Database>, idHash: string, merchantId: string): Promise<void> {
  await db.updateTable('dashboard_sessions').set({ merchant_id: merchantId }).where('id_hash', '=', idHash).execute()
}

export async function deleteSession(db: Kysely<Database>, idHash: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('id_hash', '=', idHash).execute()
}

export async function deleteExpiredSessions(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('expires_at', '<=', now).execute()
}
