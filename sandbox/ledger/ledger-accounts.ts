// Accounts on the simulated Stellar ledger: real ed25519 keypairs (G… addresses) made from the
// sandbox's random source, each with its genesis XLM, and the escrow contract's C… address.
import { StrKey } from '@stellar/stellar-base'
import type { Kysely } from 'kysely'
import { MAX_TRUSTLINE_LIMIT } from '../../src/api/contract/sandbox-admin.js'
import type { LedgerAccountRole } from '../../src/api/enumerations.js'
import type { Database, LedgerAccountRow } from '../db/schema.js'
import type { RandomSource } from '../random.js'
import { publicKeyOfSeed } from './ed25519.js'
import { ensureOpenLedger, insertAccount, updateLedger } from './ledger-repository.js'

/** The sandbox network's passphrase: transactions signed for it are valid nowhere else. */
export const SANDBOX_NETWORK_PASSPHRASE = 'Paybox Sandbox Network ; November 2026'

export const USDC_ASSET_CODE = 'USDC'

export const STROOPS_PER_UNIT = 10_000_000n

// No friendbot or root account: the endowment is added to the ledger's total coins, so XLM stays
// conserved (balances + fee pool = total coins) while every account can pay fees.
export const GENESIS_XLM_ENDOWMENT = 10_000n * STROOPS_PER_UNIT

/** A new account key: its G… address and S… secret, as Keypair.fromRawEd25519Seed would give them. */
export function newKeypair(random: RandomSource): { publicKey: string; secret: string } {
  const seed = random.bytes(32)
  return { publicKey: StrKey.encodeEd25519PublicKey(publicKeyOfSeed(seed)), secret: StrKey.encodeEd25519SecretSeed(seed) }
}

export function newContractAddress(random: RandomSource): string {
  return StrKey.encodeContract(random.bytes(32))
}

// The sequence starts at the open ledger's sequence shifted left 32 bits, as Stellar starts
// accounts created in that ledger.
export async function createLedgerAccount(
  db: Kysely<Database>,
  random: RandomSource,
  role: LedgerAccountRole,
  label: string,
  now: number,
  xlm: bigint = GENESIS_XLM_ENDOWMENT,
  trustline: { limit: bigint } | null = { limit: MAX_TRUSTLINE_LIMIT },
): Promise<LedgerAccountRow> {
  const keypair = newKeypair(random)
  const ledger = await ensureOpenLedger(db, now)
  const row: LedgerAccountRow = {
    public_key: keypair.publicKey,
    secret: keypair.secret,
    role,
    label,
    created_at: now,
    sequence: (BigInt(ledger.sequence) << 32n).toString(),
    usdc_balance: '0',
    xlm_balance: xlm.toString(),
    usdc_trustline: trustline === null ? 0 : 1,
    usdc_limit: (trustline?.limit ?? MAX_TRUSTLINE_LIMIT).toString(),
  }
  await insertAccount(db, row)
  await updateLedger(db, ledger.sequence, { total_coins: (BigInt(ledger.total_coins) + xlm).toString() })
  return row
}

/** A contract's address: it has no key, sends no classic transactions and holds no balance. */
export async function createContractAccount(
  db: Kysely<Database>,
  random: RandomSource,
  label: string,
  now: number,
): Promise<LedgerAccountRow> {
  const row: LedgerAccountRow = {
    public_key: newContractAddress(random),
    secret: null,
    role: 'escrow',
    label,
    created_at: now,
    sequence: '0',
    usdc_balance: '0',
    xlm_balance: '0',
    usdc_trustline: 0,
    usdc_limit: '0',
  }
  await insertAccount(db, row)
  return row
}
