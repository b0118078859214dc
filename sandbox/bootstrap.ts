// First start on an empty database: the ledger's fixed accounts, the admin token, the two
// seeded merchants (one direct, one escrow), the escrow custody account and funded customer
// wallets. Later starts find them and change nothing.
import type { Kysely } from 'kysely'
import type { Database, LedgerAccountRow } from './db/schema.js'
import { createContractAccount, createLedgerAccount, SANDBOX_NETWORK_PASSPHRASE, STROOPS_PER_UNIT } from './ledger/ledger-accounts.js'
import { LedgerService } from './ledger/ledger-service.js'
import { listMerchants } from './merchants/merchant-repository.js'
import { createMerchant } from './merchants/merchant-service.js'
import { hex, type RandomSource } from './random.js'
import { claimState, readState, writeState } from './state/sandbox-state.js'
import { runTransaction } from './db/database.js'
import type { SandboxIdentity } from './context.js'

export const SEEDED_MERCHANTS = [
  { name: 'Acme Store', settlementMode: 'direct' },
  { name: 'Bazaar Marketplace', settlementMode: 'escrow', escrowFeeBps: 250 },
] as const

/** Customer wallets made at genesis, each paid this much USDC by the issuer. */
export const CUSTOMER_WALLET_COUNT = 5
export const CUSTOMER_USDC_ENDOWMENT = 1_000_000n * STROOPS_PER_UNIT

/** The identity, and whether this call made the genesis (false: it joined a sandbox already in the database). */
export interface Bootstrapped {
  identity: SandboxIdentity
  created: boolean
}

/** Whether genesis has yet to happen on this database. */
export async function isNewSandbox(db: Kysely<Database>): Promise<boolean> {
  return (await readState(db, 'admin_token')) === undefined
}

/** Counts this start and returns its number, which keys the seeded random stream of the boot. */
export async function countBoot(db: Kysely<Database>): Promise<number> {
  return runTransaction(db, async (trx) => {
    const boots = Number((await readState(trx, 'boot_count')) ?? '0')
    await writeState(trx, 'boot_count', String(boots + 1))
    return boots
  })
}

/** A genesis merchant's id and keys, which a reset keeps. */
export interface KeptMerchant {
  id: string
  apiKey: string
  apiSecret: string
}

export interface BootstrapOptions {
  /** Fixed credentials for the default direct merchant (the first seeded one). */
  defaultCredentials?: { apiKey: string; apiSecret: string }
  /** Keep this admin token instead of making one (a reset keeps the running sandbox's). */
  adminToken?: string
  /** Keep these ids and keys for the genesis merchants, in order (a reset keeps the running sandbox's). */
  merchants?: KeptMerchant[]
}

/**
 * The genesis merchants' ids and keys as they are now (a rotated secret included), for a reset to
 * keep. A database made before their ids were recorded has them first by creation.
 */
export async function genesisMerchants(db: Kysely<Database>): Promise<KeptMerchant[]> {
  const recorded = await readState(db, 'genesis_merchants')
  const all = await listMerchants(db)
  const ids = recorded === undefined ? all.slice(0, SEEDED_MERCHANTS.length).map((m) => m.id) : (JSON.parse(recorded) as string[])
  return ids.flatMap((id) => {
    const merchant = all.find((m) => m.id === id)
    return merchant ? [{ id: merchant.id, apiKey: merchant.api_key, apiSecret: merchant.api_secret }] : []
  })
}

export async function bootstrap(
  db: Kysely<Database>,
  random: RandomSource,
  now: number,
  options: BootstrapOptions = {},
): Promise<Bootstrapped> {
  const { defaultCredentials } = options
  return runTransaction(db, async (trx) => {
    // Drawn even when kept, so that the rest of a seeded genesis is the same either way.
    const drawn = `adm_${hex(random, 24)}`
    // Claimed, not read then written: of two replicas starting together on one database, one creates.
    const created = await claimState(trx, 'admin_token', options.adminToken ?? drawn)
    if (created) {
      await writeState(trx, 'network_passphrase', SANDBOX_NETWORK_PASSPHRASE)
      await writeState(trx, 'usdc_issuer', (await createLedgerAccount(trx, random, 'issuer', 'USDC issuer', now)).public_key)
      await writeState(trx, 'escrow_contract', (await createContractAccount(trx, random, 'Escrow contract', now)).public_key)
      const fees = await createLedgerAccount(trx, random, 'platform_fee', 'Platform fees', now)
      await writeState(trx, 'platform_fee_account', fees.public_key)
      const ids: string[] = []
      for (const [index, seed] of SEEDED_MERCHANTS.entries()) {
        const kept = options.merchants?.[index] ?? (index === 0 ? defaultCredentials : undefined)
        ids.push((await createMerchant(trx, random, { ...seed, ...kept }, now + index)).id)
      }
      await writeState(trx, 'genesis_merchants', JSON.stringify(ids))
      await ledgerGenesis(trx, random, now)
    }
    const identity: SandboxIdentity = {
      adminToken: (await readState(trx, 'admin_token'))!,
      networkPassphrase: (await readState(trx, 'network_passphrase'))!,
      usdcIssuer: (await readState(trx, 'usdc_issuer'))!,
      escrowContract: (await readState(trx, 'escrow_contract'))!,
      escrowCustody: (await readState(trx, 'escrow_custody'))!,
      platformFeeAccount: (await readState(trx, 'platform_fee_account'))!,
    }
    return { identity, created }
  })
}

/**
 * The escrow custody account and the customer wallets, all in the genesis ledger, which is then
 * closed. Like every account, they get their XLM as the endowment written at creation
 * (GENESIS_XLM_ENDOWMENT); their USDC comes in real payments from the issuer.
 */
async function ledgerGenesis(trx: Kysely<Database>, random: RandomSource, now: number): Promise<void> {
  // Classic payments cannot pay a contract (C…) address, so the funds the escrow contract holds
  // live in this ordinary account; 'escrow_contract' stays the contract's id.
  const custody = await createLedgerAccount(trx, random, 'escrow', 'Escrow contract custody', now)
  await writeState(trx, 'escrow_custody', custody.public_key)
  const customers: LedgerAccountRow[] = []
  for (let number = 1; number <= CUSTOMER_WALLET_COUNT; number++) {
    customers.push(await createLedgerAccount(trx, random, 'customer', `Customer ${number}`, now))
  }
  // Genesis happens at one instant, whatever the sandbox's close mode: every transaction is in
  // the genesis ledger, and the sandbox opens for business on the next one.
  const ledger = new LedgerService({ clock: { now: () => now }, closeMode: 'timer' })
  const issuer = (await readState(trx, 'usdc_issuer'))!
  for (const customer of customers) {
    await ledger.transfer(trx, { from: issuer, to: customer.public_key, asset: 'USDC', amount: CUSTOMER_USDC_ENDOWMENT })
  }
  await ledger.closeLedger(trx)
}
