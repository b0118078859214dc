// First start on an empty database: the ledger's fixed accounts, the admin token and the two
// seeded merchants (one direct, one escrow). Later starts find them and change nothing.
import type { Kysely } from 'kysely'
import type { Database } from './db/schema.js'
import { createContractAccount, createLedgerAccount, SANDBOX_NETWORK_PASSPHRASE } from './ledger/ledger-accounts.js'
import { createMerchant } from './merchants/merchant-service.js'
import { hex, type RandomSource } from './random.js'
import { readState, writeState } from './state/sandbox-state.js'

export const SEEDED_MERCHANTS = [
  { name: 'Acme Store', settlementMode: 'direct', escrowFeeBps: 0 },
  { name: 'Bazaar Marketplace', settlementMode: 'escrow', escrowFeeBps: 250 },
] as const

export interface SandboxIdentity {
  adminToken: string
  networkPassphrase: string
  usdcIssuer: string
  escrowContract: string
  platformFeeAccount: string
}

/** Counts this start and returns its number, which keys the seeded random stream of the boot. */
export async function countBoot(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const boots = Number((await readState(trx, 'boot_count')) ?? '0')
    await writeState(trx, 'boot_count', String(boots + 1))
    return boots
  })
}

export async function bootstrap(
  db: Kysely<Database>,
  random: RandomSource,
  now: number,
  defaultCredentials?: { apiKey: string; apiSecret: string },
): Promise<SandboxIdentity> {
  return db.transaction().execute(async (trx) => {
    if ((await readState(trx, 'admin_token')) === undefined) {
      await writeState(trx, 'admin_token', `adm_${hex(random, 24)}`)
      await writeState(trx, 'network_passphrase', SANDBOX_NETWORK_PASSPHRASE)
      await writeState(trx, 'usdc_issuer', (await createLedgerAccount(trx, random, 'issuer', 'USDC issuer', now)).public_key)
      await writeState(trx, 'escrow_contract', (await createContractAccount(trx, random, 'Escrow contract', now)).public_key)
      const fees = await createLedgerAccount(trx, random, 'platform_fee', 'Platform fees', now)
      await writeState(trx, 'platform_fee_account', fees.public_key)
      for (const [index, seed] of SEEDED_MERCHANTS.entries()) {
        await createMerchant(trx, random, { ...seed, ...(index === 0 ? defaultCredentials : {}) }, now + index)
      }
    }
    return {
      adminToken: (await readState(trx, 'admin_token'))!,
      networkPassphrase: (await readState(trx, 'network_passphrase'))!,
      usdcIssuer: (await readState(trx, 'usdc_issuer'))!,
      escrowContract: (await readState(trx, 'escrow_contract'))!,
      platformFeeAccount: (await readState(trx, 'platform_fee_account'))!,
    }
  })
}
