// What the simulated Stellar network is to the rest of the sandbox: its records, the queries
// and inputs it takes, and the Ledger interface services call (LedgerService implements it).
import type { Kysely } from 'kysely'
import type { LedgerAccountRole } from '../../src/api/enumerations.js'
import type { Database, LedgerAssetCode, LedgerMemoType } from '../db/schema.js'
import type { OperationResultCode } from './ledger-errors.js'

/** 'instant' closes a ledger after every transaction; 'timer' leaves that to a LedgerCloser's interval. */
export type LedgerCloseMode = 'instant' | 'timer'

export interface TransferInput {
  from: string
  to: string
  asset: LedgerAssetCode
  /** Stroops. */
  amount: bigint
  /** A text memo, at most 28 bytes. */
  memo?: string
}

export interface PaymentsInput {
  /** The transaction's source: pays the fee and signs. */
  source: string
  /** One payment operation each; one whose `from` is not the source names it as the operation's source and signs too. */
  payments: Array<{ from: string; to: string; asset: LedgerAssetCode; amount: bigint }>
  /** A text memo, at most 28 bytes. */
  memo?: string
}

export interface AccountBalances {
  /** Stroops. */
  xlm: bigint
  /** Stroops; the issuer's is minus all USDC in circulation (it owes what it issued). */
  usdc: bigint
}

export interface LedgerAccount {
  publicKey: string
  role: LedgerAccountRole
  label: string
  /** The sequence number of the account's last transaction; a new one must use sequence + 1. */
  sequence: bigint
  balances: AccountBalances
  /** The account's USDC trustline and its limit (stroops); null when it has none. */
  usdcTrustline: { limit: bigint } | null
  createdAt: number
}

export interface LedgerOperation {
  index: number
  type: 'payment'
  from: string
  to: string
  asset: LedgerAssetCode
  /** Stroops. */
  amount: bigint
}

export interface LedgerTransaction {
  /** The transaction hash (64 hex): its id on the network. */
  hash: string
  /** Application order across the ledger, from 1: the paging token of transaction lists. */
  position: number
  ledgerSequence: number
  sourceAccount: string
  sourceSequence: bigint
  /** XLM stroops. */
  feeCharged: bigint
  memoType: LedgerMemoType
  /** Text memos as text, id memos as decimal text, hash and return memos as base64. */
  memo: string | null
  operations: LedgerOperation[]
  /** The signed envelope, base64 XDR. */
  envelopeXdr: string
  appliedAt: number
  /** False for a transaction included as failed: fee paid, sequence used, nothing else changed. */
  successful: boolean
  /** A failed transaction's result per operation; null when it succeeded (all op_success). */
  operationResults: OperationResultCode[] | null
  /** What it changed (TransactionMeta) and what its fee changed (LedgerEntryChanges), base64 XDR; null if applied before the sandbox kept them. */
  resultMetaXdr: string | null
  feeMetaXdr: string | null
}

export interface LedgerInfo {
  sequence: number
  openedAt: number
  /** Null while open. */
  closedAt: number | null
  transactionCount: number
  /** All XLM in existence, in stroops. */
  totalCoins: bigint
  /** All XLM ever paid in fees, in stroops. */
  feePool: bigint
}

export interface TransactionListQuery {
  /** Only transactions this account sent, or paid or was paid in. */
  account?: string
  /** Default 10, at most MAX_TRANSACTIONS_PAGE. */
  limit?: number
  /** A position: only transactions after it, in the order asked for. */
  after?: number
  /** Default 'asc' (oldest first). */
  order?: 'asc' | 'desc'
  /** Transactions included as failed too (default: successful ones only, as on Horizon). */
  includeFailed?: boolean
  ledger?: number
}

export interface PaymentListQuery {
  account?: string
  txHash?: string
  /** Default 10, at most MAX_TRANSACTIONS_PAGE. */
  limit?: number
  /** Only payments past this one (transaction position, operation index), in the order asked for. */
  after?: { position: number; index: number }
  /** Default 'asc' (oldest first). */
  order?: 'asc' | 'desc'
  /** Operations of transactions included as failed too (default: successful ones only). */
  includeFailed?: boolean
  ledger?: number
}

/** One payment operation as a history of payments shows it: with its transaction's identity. */
export interface LedgerPayment extends LedgerOperation {
  txHash: string
  txPosition: number
  ledgerSequence: number
  /** The transaction's source (which paid the fee); `from` is the operation's own source. */
  transactionSource: string
  appliedAt: number
  transactionSuccessful: boolean
}

export interface SupplyReport {
  usdc: {
    /** USDC the issuer owes: the negative of its balance. */
    issued: bigint
    /** The sum of every other account's USDC. */
    circulating: bigint
  }
  xlm: {
    totalCoins: bigint
    inAccounts: bigint
    feePool: bigint
  }
}

/** Runs inside the database transaction that applied `tx`; throwing rolls the transaction back. */
export type AppliedListener = (db: Kysely<Database>, tx: LedgerTransaction) => void | Promise<void>
/** Runs inside the database transaction that closed `ledger`; throwing rolls the close back. */
export type ClosedListener = (db: Kysely<Database>, ledger: LedgerInfo) => void | Promise<void>

/** The simulated network as services and routes use it; every call runs on the caller's database or transaction. */
export interface Ledger {
  readonly networkPassphrase: string
  onApplied(listener: AppliedListener): () => void
  onClosed(listener: ClosedListener): () => void
  /** One payment from `from` to `to`, signed by the sandbox's key for `from`. */
  transfer(db: Kysely<Database>, input: TransferInput): Promise<LedgerTransaction>
  /** Several payments in one transaction, signed by the sandbox's keys. */
  pay(db: Kysely<Database>, input: PaymentsInput): Promise<LedgerTransaction>
  /** As Horizon's submit: a refusal throws; a transaction whose operations fail is included as failed. */
  submit(db: Kysely<Database>, envelopeXdr: string): Promise<LedgerTransaction>
  /** Includes an envelope that failed as it was applied, as failed; undefined when it is not includable. */
  recordFailed(db: Kysely<Database>, envelopeXdr: string): Promise<LedgerTransaction | undefined>
  inOneLedger<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T>
  closeLedger(db: Kysely<Database>): Promise<LedgerInfo>
  currentLedger(db: Kysely<Database>): Promise<LedgerInfo | undefined>
  getLedger(db: Kysely<Database>, sequence: number): Promise<LedgerInfo | undefined>
  getAccount(db: Kysely<Database>, publicKey: string): Promise<LedgerAccount | undefined>
  listAccounts(db: Kysely<Database>, filter?: { role?: LedgerAccountRole }): Promise<LedgerAccount[]>
  balances(db: Kysely<Database>, publicKey: string): Promise<AccountBalances | undefined>
  getTransaction(db: Kysely<Database>, hash: string): Promise<LedgerTransaction | undefined>
  listTransactions(db: Kysely<Database>, query?: TransactionListQuery): Promise<LedgerTransaction[]>
  listTransactionsByMemo(db: Kysely<Database>, memo: string): Promise<LedgerTransaction[]>
  listPayments(db: Kysely<Database>, query?: PaymentListQuery): Promise<LedgerPayment[]>
  lastPosition(db: Kysely<Database>): Promise<number>
  ledgerCounts(db: Kysely<Database>, ledgerSequence: number): Promise<{ operations: number; failedTransactions: number }>
  checkInvariants(db: Kysely<Database>): Promise<SupplyReport>
}
