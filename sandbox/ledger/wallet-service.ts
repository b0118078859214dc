// Customer wallets made on request (POST /sandbox/wallets, `paybox ledger wallet create`): a new
// ledger account funded like the genesis customer wallets (its XLM as the account's endowment,
// its USDC in a real payment from the issuer), whose secret is handed out so that real Stellar
// tools can sign for it. It is a sandbox: the secret opens nothing of value.
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { USDC_SCALE, formatDecimal, parseDecimal } from '../../src/money.js'
import type { Database } from '../db/schema.js'
import type { RandomSource } from '../random.js'
import { readState } from '../state/sandbox-state.js'
import { MAX_TRUSTLINE_LIMIT, STROOPS_PER_UNIT, createLedgerAccount } from './ledger-accounts.js'
import type { Ledger } from './ledger-types.js'

export const DEFAULT_WALLET_USDC = 100n * STROOPS_PER_UNIT
export const DEFAULT_WALLET_XLM = 10_000n * STROOPS_PER_UNIT
/** As much USDC as a genesis customer wallet holds. */
export const MAX_WALLET_USDC = 1_000_000n * STROOPS_PER_UNIT
/** XLM is endowed, not paid: at least enough for fees, at most the genesis endowment a hundredfold. */
export const MIN_WALLET_XLM = 1n * STROOPS_PER_UNIT
export const MAX_WALLET_XLM = 1_000_000n * STROOPS_PER_UNIT

const amountText = (min: bigint, max: bigint) =>
  z.string({ message: 'must be decimal text, e.g. "100" or "12.5"' }).transform((text, context) => {
    const stroops = /^\d{1,16}(\.\d{1,7})?$/.test(text) ? parseDecimal(text, USDC_SCALE) : undefined
    if (stroops === undefined || stroops < min || stroops > max) {
      context.addIssue({
        code: 'custom',
        message: `must be decimal text from ${formatDecimal(min, USDC_SCALE)} to ${formatDecimal(max, USDC_SCALE)} with at most 7 places`,
      })
      return z.NEVER
    }
    return stroops
  })

export const createWalletBody = z
  .strictObject({
    usdc: amountText(0n, MAX_WALLET_USDC).optional(),
    xlm: amountText(MIN_WALLET_XLM, MAX_WALLET_XLM).optional(),
    // A wallet that never added a USDC trustline: paying USDC from it or to it fails in the ledger.
    trustline: z.boolean({ message: 'must be true or false' }).optional(),
    usdcLimit: amountText(1n, MAX_TRUSTLINE_LIMIT).optional(),
  })
  .refine((body) => body.trustline !== false || ((body.usdc ?? 0n) === 0n && body.usdcLimit === undefined), {
    message: 'a wallet without a trustline holds no USDC: leave out usdc (or send "0") and usdcLimit',
    path: ['trustline'],
  })
  .refine((body) => body.usdcLimit === undefined || (body.usdc ?? DEFAULT_WALLET_USDC) <= body.usdcLimit, {
    message: 'the USDC to fund the wallet with must not exceed its trustline limit',
    path: ['usdcLimit'],
  })
  .optional()
export type CreateWalletBody = z.infer<typeof createWalletBody>

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
