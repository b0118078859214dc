// Sandbox-wide settings kept in the database (admin token, ledger identities, boot counter),
// so a restart on the same file is the same sandbox.
import { sql, type Kysely } from 'kysely'
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
  // Moved up by every change of the business clock, whose row lock orders them (clock-service.ts).
  | 'clock_version'
  // A row only locked (lockState), never read: tenant creations count the active tenants one at a time.
  | 'tenant_creation'

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

/** The values of `keys` read in one statement, so that they are of one moment (a key not stored is absent). */
export async function readStates(db: Kysely<Database>, keys: readonly StateKey[]): Promise<Map<StateKey, string>> {
  const rows = await db.selectFrom('sandbox_state').select(['key', 'value']).where('key', 'in', keys).execute()
  return new Map(rows.map((row) => [row.key as StateKey, row.value]))
}

/**
 * Adds `amount` to the whole number stored at `key` (none: 0) and returns the sum, in one
 * statement that also keeps the row locked until the transaction ends: additions from every
 * replica add up, and whoever locks the row next reads this sum.
 */
export async function addToState(db: Kysely<Database>, key: StateKey, amount: number): Promise<number> {
  const { value } = await db
    .insertInto('sandbox_state')
    .values({ key, value: String(amount) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql<string>`cast(cast(sandbox_state.value as bigint) + ${amount} as text)` }))
    .returning('value')
    .executeTakeFirstOrThrow()
  return Number(value)
}

/**
 * Locks `key`'s row (made if missing) until the transaction ends: transactions that lock the same
 * key run one after another, whichever replica runs them. Adding 0 is a write that takes the lock.
 */
export async function lockState(db: Kysely<Database>, key: StateKey): Promise<void> {
  await addToState(db, key, 0)
}
