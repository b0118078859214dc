// Turns ledger rows into the records the Ledger interface hands out, and transactions into rows.
import type { Memo } from '@stellar/stellar-base'
import type { LedgerAccountRow, LedgerLedgerRow, LedgerMemoType, LedgerOperationRow, LedgerTransactionRow } from '../db/schema.js'
import type { WorkingAccount } from './envelope-rules.js'
import type { OperationResultCode } from './ledger-errors.js'
import type { OperationWithTransactionRow } from './ledger-repository.js'
import type { LedgerAccount, LedgerInfo, LedgerOperation, LedgerPayment, LedgerTransaction } from './ledger-types.js'
import type { EntryAccount } from './transaction-meta.js'

export function memoColumns(memo: Memo): { memo_type: LedgerMemoType; memo: string | null } {
  const value = memo.value
  switch (memo.type) {
    case 'none':
      return { memo_type: 'none', memo: null }
    case 'text':
      return { memo_type: 'text', memo: Buffer.isBuffer(value) ? value.toString('utf8') : String(value) }
    case 'id':
      return { memo_type: 'id', memo: String(value) }
    default:
      // Hash and return memos are 32 raw bytes; Horizon shows them in base64.
      return { memo_type: memo.type, memo: Buffer.isBuffer(value) ? value.toString('base64') : String(value) }
  }
}

/** A working account as its ledger entries show it (optionally as it was: XLM and sequence). */
export function entryAccount(account: WorkingAccount, as?: { xlm: bigint; sequence: bigint }): EntryAccount {
  return {
    publicKey: account.row.public_key,
    xlm: as?.xlm ?? account.xlm,
    sequence: as?.sequence ?? account.sequence,
    usdc: account.usdc,
    usdcLimit: account.trustsUsdc ? account.usdcLimit : null,
  }
}

export function toLedgerAccount(row: LedgerAccountRow): LedgerAccount {
  return {
    publicKey: row.public_key,
    role: row.role,
    label: row.label,
    sequence: BigInt(row.sequence),
    balances: { xlm: BigInt(row.xlm_balance), usdc: BigInt(row.usdc_balance) },
    usdcTrustline: row.usdc_trustline === 1 ? { limit: BigInt(row.usdc_limit) } : null,
    createdAt: row.created_at,
  }
}

export function toLedgerInfo(row: LedgerLedgerRow): LedgerInfo {
  return {
    sequence: row.sequence,
    openedAt: row.opened_at,
    closedAt: row.closed_at,
    transactionCount: row.transaction_count,
    totalCoins: BigInt(row.total_coins),
    feePool: BigInt(row.fee_pool),
  }
}

export function toLedgerTransaction(row: LedgerTransactionRow, operations: LedgerOperationRow[]): LedgerTransaction {
  return {
    hash: row.hash,
    position: row.position,
    ledgerSequence: row.ledger_sequence,
    sourceAccount: row.source_account,
    sourceSequence: BigInt(row.source_sequence),
    feeCharged: BigInt(row.fee_charged),
    memoType: row.memo_type,
    memo: row.memo,
    operations: operations.map(toLedgerOperation),
    envelopeXdr: row.envelope_xdr,
    appliedAt: row.applied_at,
    successful: row.successful === 1,
    operationResults: row.operation_results === null ? null : (JSON.parse(row.operation_results) as OperationResultCode[]),
    resultMetaXdr: row.result_meta_xdr,
    feeMetaXdr: row.fee_meta_xdr,
  }
}

export function toLedgerOperation(row: LedgerOperationRow): LedgerOperation {
  return {
    index: row.op_index,
    type: row.type,
    from: row.from_account,
    to: row.to_account,
    asset: row.asset_code,
    amount: BigInt(row.amount),
  }
}

export function toLedgerPayment(row: OperationWithTransactionRow): LedgerPayment {
  return {
    ...toLedgerOperation(row),
    txHash: row.tx_hash,
    txPosition: row.tx_position,
    ledgerSequence: row.ledger_sequence,
    transactionSource: row.source_account,
    appliedAt: row.applied_at,
    transactionSuccessful: row.successful === 1,
  }
}

export function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const group = groups.get(key(item))
    if (group) group.push(item)
    else groups.set(key(item), [item])
  }
  return groups
}
