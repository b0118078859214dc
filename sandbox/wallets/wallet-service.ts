// Customer wallets made on request (POST /sandbox/wallets, `paybox ledger wallet create`): a new
// ledger account funded like the genesis customer wallets (its XLM as the account's endowment,
// its USDC in a real payment from the issuer), whose secret is handed out so that real Stellar
// tools can sign for it. It is a sandbox: the secret opens nothing of value.
import type { Kysely } from 'kysely'
import {
  type CreateWalletBody,
  DEFAULT_WALLET_USDC,
  DEFAULT_WALLET_XLM,
  MAX_TRUSTLINE_LIMIT,
} from '../../src/api/contract/sandbox-admin.js'
import type { Database } from '../db/schema.js'
import type { RandomSource } from '../random.js'
import { readState } from '../state/sandbox-state.js'
import { createLedgerAccount } from '../ledger/ledger-accounts.js'
import { lockOpenLedger } from '../ledger/ledger-repository.js'
import type { Ledger } from '../ledger/ledger-types.js'

export interface CreatedWallet {
  publicKey: string
  secret: string
  /** Stroops. */
  usdc: bigint
  /** Stroops. */
  xlm: bigint
  /** The issuer's payment of the USDC; null when none was asked for. */
  fundingTxId: string | null
  /** The wallet's USDC trustline; null when it was made without one. */
  usdcTrustline: { limit: bigint } | null
}

/** Creates and funds a wallet, in one ledger; `db` must be a transaction. */
export async function createWallet(
  deps: { ledger: Ledger; random: RandomSource },
  db: Kysely<Database>,
  body: CreateWalletBody,
  now: number,
): Promise<CreatedWallet> {
  const trustline = body?.trustline === false ? null : { limit: body?.usdcLimit ?? MAX_TRUSTLINE_LIMIT }
  const usdc = body?.usdc ?? (trustline ? DEFAULT_WALLET_USDC : 0n)
  const xlm = body?.xlm ?? DEFAULT_WALLET_XLM
  return deps.ledger.inOneLedger(db, async () => {
    // The ledger lock (which creating the account takes anyway) before counting: two wallets made
    // at once on two replicas get two numbers.
    await lockOpenLedger(db)
    const number =
      (await deps.ledger.listAccounts(db, { role: 'customer' })).filter((account) => account.label.startsWith('Wallet ')).length + 1
    // A customer wallet like the genesis ones: `payments pay --from` can pay from it too.
    const account = await createLedgerAccount(db, deps.random, 'customer', `Wallet ${number}`, now, xlm, trustline)
    let fundingTxId: string | null = null
    if (usdc > 0n) {
      const issuer = (await readState(db, 'usdc_issuer'))!
      fundingTxId = (await deps.ledger.transfer(db, { from: issuer, to: account.public_key, asset: 'USDC', amount: usdc })).hash
    }
    return { publicKey: account.public_key, secret: account.secret!, usdc, xlm, fundingTxId, usdcTrustline: trustline }
  })
}
