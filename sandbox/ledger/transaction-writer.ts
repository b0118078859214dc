// A submitted envelope, from its XDR to its rows: decoded, checked against the accounts it
// involves (envelope-rules.ts) without writing anything, then written whole, or for a
// transaction included as failed, its fee and sequence only.
import { FeeBumpTransaction, TransactionBuilder, type Transaction } from '@stellar/stellar-base'
import type { Kysely } from 'kysely'
import type { Database, LedgerLedgerRow, LedgerOperationRow, LedgerTransactionRow } from '../db/schema.js'
import { readState } from '../state/sandbox-state.js'
import {
  baseAccountId,
  checkAndApply,
  involvedAccounts,
  toWorkingAccount,
  type CheckedTransaction,
  type WorkingAccount,
} from './envelope-rules.js'
import { LedgerError } from './ledger-errors.js'
import { entryAccount, memoColumns, toLedgerTransaction } from './ledger-mappers.js'
import {
  ensureOpenLedger,
  insertTransaction,
  lockAccounts,
  lockOpenLedger,
  nextTransactionPosition,
  updateAccount,
  updateLedger,
} from './ledger-repository.js'
import type { LedgerTransaction } from './ledger-types.js'
import { transactionMeta } from './transaction-meta.js'

export interface Evaluation extends CheckedTransaction {
  tx: Transaction
  sourceId: string
  accounts: Map<string, WorkingAccount>
  openLedger: LedgerLedgerRow | undefined
  usdcIssuer: string | undefined
}

/** Reads what the checks need and runs them on working copies of the accounts; throws refusals. */
export async function evaluateEnvelope(
  db: Kysely<Database>,
  envelopeXdr: string,
  network: { nowMs: number; passphrase: string },
): Promise<Evaluation> {
  const tx = decodeEnvelope(envelopeXdr, network.passphrase)
  // Locked, not ensured: nothing is written until every check has passed. The ledger lock first,
  // then the accounts, so what the checks read stays true until the transaction commits.
  const openLedger = await lockOpenLedger(db)
  const usdcIssuer = await readState(db, 'usdc_issuer')
  const sourceId = baseAccountId(tx.source)
  const rows = await lockAccounts(db, [...new Set([sourceId, ...involvedAccounts(tx)])])
  const accounts = new Map(rows.map((row) => [row.public_key, toWorkingAccount(row)]))
  const checked = checkAndApply(tx, { now: network.nowMs, ledgerSequence: openLedger?.sequence ?? 1, sourceId, accounts, usdcIssuer })
  return { ...checked, tx, sourceId, accounts, openLedger, usdcIssuer }
}

/** Writes an evaluated transaction into the open ledger (opened at `now` if none is). */
export async function writeTransaction(db: Kysely<Database>, evaluation: Evaluation, now: number): Promise<LedgerTransaction> {
  const { tx, hash, sourceId, accounts, fee, failure } = evaluation
  const ledger = evaluation.openLedger ?? (await ensureOpenLedger(db, now))
  await writeAccounts(db, evaluation)
  await updateLedger(db, ledger.sequence, {
    transaction_count: ledger.transaction_count + 1,
    fee_pool: (BigInt(ledger.fee_pool) + fee).toString(),
  })
  const position = await nextTransactionPosition(db)
  const source = accounts.get(sourceId)!
  const { feeMetaXdr, resultMetaXdr } = transactionMeta({
    ledger: ledger.sequence,
    usdcIssuer: evaluation.usdcIssuer,
    source: entryAccount(source, { xlm: BigInt(source.row.xlm_balance), sequence: BigInt(source.row.sequence) }),
    fee,
    newSequence: source.sequence,
    accounts: new Map([...accounts].map(([id, account]) => [id, entryAccount(account)])),
    operations: failure ? [] : evaluation.changes,
  })
  const row: LedgerTransactionRow = {
    hash,
    position,
    ledger_sequence: ledger.sequence,
    source_account: sourceId,
    source_sequence: tx.sequence,
    fee_charged: Number(fee),
    ...memoColumns(tx.memo),
    envelope_xdr: tx.toEnvelope().toXDR('base64'),
    applied_at: now,
    successful: failure ? 0 : 1,
    operation_results: failure ? JSON.stringify(failure.operationCodes) : null,
    result_meta_xdr: resultMetaXdr,
    fee_meta_xdr: feeMetaXdr,
  }
  const operationRows: LedgerOperationRow[] = evaluation.operations.map((op) => ({
    tx_hash: hash,
    op_index: op.index,
    tx_position: position,
    type: op.type,
    from_account: op.from,
    to_account: op.to,
    asset_code: op.asset,
    amount: op.amount.toString(),
  }))
  await insertTransaction(db, row, operationRows)
  return toLedgerTransaction(row, operationRows)
}

/** The accounts' new balances and sequences: for a failed transaction, only its source's fee and sequence. */
async function writeAccounts(db: Kysely<Database>, { sourceId, accounts, failure, sourceXlmAfterFee }: Evaluation): Promise<void> {
  if (failure) {
    const source = accounts.get(sourceId)!
    await updateAccount(db, sourceId, {
      sequence: source.sequence.toString(),
      usdc_balance: source.row.usdc_balance,
      xlm_balance: sourceXlmAfterFee.toString(),
    })
    return
  }
  for (const account of accounts.values()) {
    const changes = {
      sequence: account.sequence.toString(),
      usdc_balance: account.usdc.toString(),
      xlm_balance: account.xlm.toString(),
    }
    const { row } = account
    if (changes.sequence !== row.sequence || changes.usdc_balance !== row.usdc_balance || changes.xlm_balance !== row.xlm_balance) {
      await updateAccount(db, row.public_key, changes)
    }
  }
}

function decodeEnvelope(envelopeXdr: string, networkPassphrase: string): Transaction {
  let decoded: Transaction | FeeBumpTransaction
  try {
    decoded = TransactionBuilder.fromXDR(envelopeXdr, networkPassphrase)
  } catch (error) {
    throw new LedgerError('tx_malformed', `The envelope is not a transaction envelope in base64 XDR: ${errorMessage(error)}`)
  }
  if (decoded instanceof FeeBumpTransaction) {
    throw new LedgerError('tx_not_supported', 'The sandbox ledger does not accept fee-bump transactions')
  }
  return decoded
}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error))
