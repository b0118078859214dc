// The signatures a shared sandbox has accepted on requests other than GET (replay-guard.ts).
import type { Kysely } from 'kysely'
import { defineStatement } from '../db/statement.js'
import type { Database } from '../db/schema.js'

// Runs on every signed POST of a shared sandbox: a statement, built once (db/statement.ts).
const insertIfAbsent = defineStatement((db, p: { signature: string; expiresAt: number }) =>
  db
    .insertInto('seen_signatures')
    .values({ signature: p.signature, expires_at: p.expiresAt })
    .onConflict((conflict) => conflict.column('signature').doNothing())
    .returning('signature')
    .compile(),
)

/** Records `signature` unless it is there already; whether this call recorded it. */
export async function rememberSignature(db: Kysely<Database>, signature: string, expiresAt: number): Promise<boolean> {
  return (await insertIfAbsent(db, { signature, expiresAt })).length === 1
}

/** Forgets the signatures whose window ended before `before` (wall-clock ms). */
export async function forgetSignaturesExpiredBefore(db: Kysely<Database>, before: number): Promise<void> {
  await db.deleteFrom('seen_signatures').where('expires_at', '<', before).execute()
}
