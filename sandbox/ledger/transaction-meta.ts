// fee_meta_xdr and result_meta_xdr (TransactionMeta v2), as Stellar reports them to Horizon. A USDC
// change of the issuer has no entry: the issuer holds no trustline to its own asset.
import { Asset, StrKey, xdr } from '@stellar/stellar-base'
import type { LedgerAssetCode } from '../db/schema.js'
import { USDC_ASSET_CODE } from './ledger-accounts.js'

export interface EntryAccount {
  publicKey: string
  xlm: bigint
  sequence: bigint
  usdc: bigint
  /** The USDC trustline's limit; null without one. */
  usdcLimit: bigint | null
}

export interface BalanceChange {
  account: string
  asset: LedgerAssetCode
  before: bigint
  after: bigint
}

// Straight from the address's bytes: a Keypair would also set up an ed25519 key it never uses.
const accountId = (publicKey: string) => xdr.PublicKey.publicKeyTypeEd25519(StrKey.decodeEd25519PublicKey(publicKey))
const int64 = (value: bigint) => xdr.Int64.fromString(value.toString())
/** TrustLineFlags.AUTHORIZED_FLAG: every sandbox trustline is authorized. */
const AUTHORIZED = 1

function accountEntry(account: EntryAccount, xlm: bigint, sequence: bigint, ledger: number): xdr.LedgerEntry {
  const entry = new xdr.AccountEntry({
    accountId: accountId(account.publicKey),
    balance: int64(xlm),
    seqNum: int64(sequence),
    numSubEntries: account.usdcLimit === null ? 0 : 1,
    inflationDest: null,
    flags: 0,
    homeDomain: '',
    // Master key weight 1, thresholds 0: as Horizon's account record says.
    thresholds: Buffer.from([1, 0, 0, 0]),
    signers: [],
    ext: new xdr.AccountEntryExt(0),
  })
  return new xdr.LedgerEntry({ lastModifiedLedgerSeq: ledger, data: xdr.LedgerEntryData.account(entry), ext: new xdr.LedgerEntryExt(0) })
}

function trustlineEntry(account: EntryAccount, usdc: bigint, issuer: string, ledger: number): xdr.LedgerEntry {
  const entry = new xdr.TrustLineEntry({
    accountId: accountId(account.publicKey),
    asset: new Asset(USDC_ASSET_CODE, issuer).toTrustLineXDRObject(),
    balance: int64(usdc),
    limit: int64(account.usdcLimit ?? 0n),
    flags: AUTHORIZED,
    ext: new xdr.TrustLineEntryExt(0),
  })
  return new xdr.LedgerEntry({ lastModifiedLedgerSeq: ledger, data: xdr.LedgerEntryData.trustline(entry), ext: new xdr.LedgerEntryExt(0) })
}

const stateThenUpdated = (before: xdr.LedgerEntry, after: xdr.LedgerEntry): xdr.LedgerEntryChange[] => [
  xdr.LedgerEntryChange.ledgerEntryState(before),
  xdr.LedgerEntryChange.ledgerEntryUpdated(after),
]

export interface MetaInput {
  ledger: number
  usdcIssuer: string | undefined
  /** The source as it was before the transaction. */
  source: EntryAccount
  fee: bigint
  newSequence: bigint
  /** Accounts as they are once the transaction is applied (for the fields an operation did not change). */
  accounts: Map<string, EntryAccount>
  /** Per operation, the balances it changed; empty for a failed transaction, whose operations changed nothing. */
  operations: BalanceChange[][]
}

/** fee_meta_xdr and result_meta_xdr of an applied (or failed) transaction. */
export function transactionMeta(input: MetaInput): { feeMetaXdr: string; resultMetaXdr: string } {
  const { ledger, source, fee } = input
  const afterFee = source.xlm - fee
  const feeChanges = stateThenUpdated(
    accountEntry(source, source.xlm, source.sequence, ledger),
    accountEntry(source, afterFee, source.sequence, ledger),
  )
  const sequenceChanges = stateThenUpdated(
    accountEntry(source, afterFee, source.sequence, ledger),
    accountEntry(source, afterFee, input.newSequence, ledger),
  )
  const operations = input.operations.map(
    (changes) =>
      new xdr.OperationMeta({
        changes: changes.flatMap((change) => {
          const account = input.accounts.get(change.account)!
          if (change.asset === 'XLM') {
            return stateThenUpdated(
              accountEntry(account, change.before, account.sequence, ledger),
              accountEntry(account, change.after, account.sequence, ledger),
            )
          }
          if (change.account === input.usdcIssuer || input.usdcIssuer === undefined) return []
          return stateThenUpdated(
            trustlineEntry(account, change.before, input.usdcIssuer, ledger),
            trustlineEntry(account, change.after, input.usdcIssuer, ledger),
          )
        }),
      }),
  )
  const meta = new xdr.TransactionMeta(2, new xdr.TransactionMetaV2({ txChangesBefore: sequenceChanges, operations, txChangesAfter: [] }))
  // LedgerEntryChanges is an XDR array, which the SDK encodes only inside a struct: OperationMeta
  // holds nothing but one, so its encoding is exactly the array's.
  const feeMetaXdr = new xdr.OperationMeta({ changes: feeChanges }).toXDR('base64')
  return { feeMetaXdr, resultMetaXdr: meta.toXDR('base64') }
}
