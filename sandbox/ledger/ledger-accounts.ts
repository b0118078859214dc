// Accounts on the simulated Stellar ledger: real ed25519 keypairs (G… addresses) made from the
// sandbox's random source, and the escrow contract's C… address.
import { Keypair, StrKey } from '@stellar/stellar-sdk'
import type { Kysely } from 'kysely'
import type { Database, LedgerAccountRole, LedgerAccountRow } from '../db/schema.js'
import type { RandomSource } from '../random.js'

/** The sandbox network's passphrase: transactions signed for it are valid nowhere else. */
export const SANDBOX_NETWORK_PASSPHRASE = 'Paybox Sandbox Network ; November 2026'

export const USDC_ASSET_CODE = 'USDC'

export function newKeypair(random: RandomSource): Keypair {
  return Keypair.fromRawEd25519Seed(random.bytes(32))
}

export function newContractAddress(random: RandomSource): string {
  return StrKey.encodeContract(random.bytes(32))
}

export const isAccountAddress = (address: string): boolean => StrKey.isValidEd25519PublicKey(address)

export async function createLedgerAccount(
  db: Kysely<Database>,
  random: RandomSource,
  role: LedgerAccountRole,
  label: string,
  now: number,
): Promise<LedgerAccountRow> {
  const keypair = newKeypair(random)
  const row: LedgerAccountRow = { public_key: keypair.publicKey(), secret: keypair.secret(), role, label, created_at: now }
  await db.insertInto('ledger_accounts').values(row).execute()
  return row
}

export async function createContractAccount(
  db: Kysely<Database>,
  random: RandomSource,
  label: string,
  now: number,
): Promise<LedgerAccountRow> {
  const row: LedgerAccountRow = { public_key: newContractAddress(random), secret: null, role: 'escrow', label, created_at: now }
  await db.insertInto('ledger_accounts').values(row).execute()
  return row
}
