// Sandbox-wide settings kept in the database (admin token, ledger identities, boot counter),
// so a restart on the same file is the same sandbox.
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.js'

export type StateKey =
  | 'admin_token'
  | 'boot_count'
  | 'network_passphrase'
  | 'usdc_issuer'
  | 'escrow_contract'
  | 'escrow_custody'
  | 'platform_fee_account'
  | 'clock_advanced_ms'
  | 'clock_frozen_at'
  | 'bridge_account'
  // sha256 of the --seed the database was created with, or 'none'.
  | 'seed_sha256'
  // PostgreSQL: counts the state's replacements (restore, reset), so a replica knows whether its core is current.
  | 'state_generation'
  // JSON: the ids of the merchants genesis made, in SEEDED_MERCHANTS' order (a reset keeps their keys).
  | 'genesis_merchants'

export async function readState(db: Kysely<Database>, key: StateKey): Promise<string | undefined> {
  const row = await db.selectFrom('sandbox_state').select('value').where('key', '=', key).executeTakeFirst()
  return row?.value
}

export async function writeState(db: Kysely<Database>, key: StateKey, value: string): Promise<void> {
  await db
    .insertInto('sandbox_state')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute()
}

/**
 * Writes `key` only if it has no value yet, and says whether this call wrote it. Of two
 * transactions claiming one key at once (two replicas on one PostgreSQL database), the second
 * waits on the first's row, then finds it and writes nothing: exactly one gets true.
 */
export async function claimState(db: Kysely<Database>, key: StateKey, value: string): Promise<boolean> {
  const inserted = await db
    .insertInto('sandbox_state')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst()
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1
}

export async function deleteState(db: Kysely<Database>, key: StateKey): Promise<void> {
  await db.deleteFrom('sandbox_state').where('key', '=', key).execute()
}
