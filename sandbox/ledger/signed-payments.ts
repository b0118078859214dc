// Payments the sandbox makes from accounts it holds the keys of: built and signed here, then
// applied exactly as an envelope submitted from outside.
import { Account, Asset, Memo, Operation, StrKey, TransactionBuilder, xdr } from '@stellar/stellar-base'
import type { Kysely } from 'kysely'
import { formatDecimal, USDC_SCALE } from '../../src/money.js'
import type { Database, LedgerAccountRow } from '../db/schema.js'
import { readState } from '../state/sandbox-state.js'
import { signatureHint, signWithKey } from './ed25519.js'
import { BASE_FEE, INT64_MAX, operationFailure, transactionHash } from './envelope-rules.js'
import { USDC_ASSET_CODE } from './ledger-accounts.js'
import { LedgerError, type OperationResultCode } from './ledger-errors.js'
import { findAccount } from './ledger-repository.js'
import type { PaymentsInput } from './ledger-types.js'

/** How long a transaction built by `transfer` stays valid, like the SDK's setTimeout. */
export const TRANSFER_TIMEOUT_SECONDS = 300

/** The envelope (base64 XDR) of `input`'s payments, signed by every account that sends one. */
export async function signedPaymentEnvelope(
  db: Kysely<Database>,
  input: PaymentsInput,
  network: { nowMs: number; passphrase: string },
): Promise<string> {
  const signers = new Map<string, LedgerAccountRow>()
  for (const publicKey of new Set([input.source, ...input.payments.map((payment) => payment.from)])) {
    const account = StrKey.isValidEd25519PublicKey(publicKey) ? await findAccount(db, publicKey) : undefined
    if (!account?.secret) throw new LedgerError('tx_no_account', `${publicKey} is not an account the sandbox holds the key of`)
    signers.set(publicKey, account)
  }
  let memo: Memo = Memo.none()
  if (input.memo !== undefined) {
    try {
      memo = Memo.text(input.memo)
    } catch {
      throw new LedgerError('tx_malformed', 'A text memo holds at most 28 bytes')
    }
  }
  const source = signers.get(input.source)!
  const nowSeconds = Math.floor(network.nowMs / 1000)
  const builder = new TransactionBuilder(new Account(source.public_key, source.sequence), {
    fee: (BASE_FEE * BigInt(input.payments.length)).toString(),
    networkPassphrase: network.passphrase,
    memo,
    // From the business clock, not the SDK's setTimeout (which reads Date.now()).
    timebounds: { minTime: 0, maxTime: nowSeconds + TRANSFER_TIMEOUT_SECONDS },
  })
  const applied: OperationResultCode[] = []
  let usdc: Promise<Asset> | undefined
  for (const payment of input.payments) {
    if (!StrKey.isValidEd25519PublicKey(payment.to) && !StrKey.isValidMed25519PublicKey(payment.to)) {
      // Contracts (C…) cannot be paid by a classic payment: funds for the escrow contract go to its custody account.
      throw operationFailure(applied, 'op_malformed', `${payment.to} is not an account address (G… or M…)`)
    }
    if (payment.amount <= 0n || payment.amount > INT64_MAX) {
      throw operationFailure(applied, 'op_malformed', `The amount must be between 1 stroop and ${INT64_MAX} stroops`)
    }
    const asset = payment.asset === 'XLM' ? Asset.native() : await (usdc ??= usdcAsset(db))
    const amount = formatDecimal(payment.amount, USDC_SCALE)
    builder.addOperation(
      Operation.payment({ destination: payment.to, asset, amount, ...(payment.from === input.source ? {} : { source: payment.from }) }),
    )
    applied.push('op_success')
  }
  const tx = builder.build()
  // What tx.sign(Keypair.fromSecret(secret)) adds, signed by node:crypto (ed25519.ts says why).
  const hash = transactionHash(tx)
  for (const { public_key, secret } of signers.values()) {
    const key = { seed: StrKey.decodeEd25519SecretSeed(secret!), publicKey: StrKey.decodeEd25519PublicKey(public_key) }
    tx.addDecoratedSignature(new xdr.DecoratedSignature({ hint: signatureHint(key.publicKey), signature: signWithKey(key, hash) }))
  }
  return tx.toEnvelope().toXDR('base64')
}

async function usdcAsset(db: Kysely<Database>): Promise<Asset> {
  const issuer = await readState(db, 'usdc_issuer')
  if (issuer === undefined) throw operationFailure([], 'op_no_trust', 'The sandbox has no USDC issuer yet')
  return new Asset(USDC_ASSET_CODE, issuer)
}
