// The simulated Stellar ledger in the terminal: accounts, transaction lists and one transaction.
import type { LedgerAccount, LedgerOperation, LedgerTransaction } from '../../client/types.js'
import { USDC_SCALE, formatDecimalShort } from '../../money.js'
import { chalk, details, table } from '../output.js'

/** Enough of a hash to tell transactions apart in a list; `ledger tx` and --json show it whole. */
export const shortHash = (hash: string): string => `${hash.slice(0, 8)}…${hash.slice(-4)}`

export function memoText(tx: Pick<LedgerTransaction, 'memoType' | 'memo'>): string {
  if (tx.memoType === 'none' || tx.memo === null) return ''
  return tx.memoType === 'text' ? tx.memo : `${tx.memoType}: ${tx.memo}`
}

const operationAmount = (op: LedgerOperation): string => `${op.amount} ${op.asset}`

/** The payment a transaction's memo names; "unmatched" when it carries a memo no payment has (the money landed anyway). */
export const paymentText = (tx: Pick<LedgerTransaction, 'payment' | 'unmatched'>): string => tx.payment ?? (tx.unmatched ? 'unmatched' : '')

export function renderLedgerAccounts(accounts: LedgerAccount[]): string {
  if (accounts.length === 0) return 'No accounts match.'
  return table(
    ['Label', 'Role', 'Public key', 'USDC', 'XLM'],
    accounts.map((a) => [a.label, a.role, a.publicKey, a.balances.USDC, a.balances.XLM]),
  )
}

export function renderLedgerTransactions(transactions: LedgerTransaction[]): string {
  if (transactions.length === 0) return 'No transactions match.'
  // One line per operation inside each cell, so a multi-payment transaction stays one row.
  const rows = transactions.map((tx) => [
    tx.ledger,
    shortHash(tx.hash),
    tx.operations.map((op) => `${op.from} → ${op.to}`).join('\n'),
    tx.operations.map(operationAmount).join('\n') + (tx.successful ? '' : chalk.red('\nfailed')),
    memoText(tx),
    tx.unmatched ? chalk.yellow(paymentText(tx)) : paymentText(tx),
    tx.appliedAt,
  ])
  return table(['Ledger', 'Hash', 'From → To', 'Amount', 'Memo', 'Payment', 'Time'], rows)
}

export function renderLedgerTransaction(tx: LedgerTransaction): string {
  // XLM has 7 decimal places like every Stellar asset, USDC included.
  const fee = `${tx.feeCharged} stroops (${formatDecimalShort(BigInt(tx.feeCharged), USDC_SCALE)} XLM)`
  const summary = details([
    ['Hash', tx.hash],
    ['Ledger', tx.ledger],
    ['Position', tx.position],
    ['Source account', tx.sourceAccount],
    ['Source sequence', tx.sourceSequence],
    ['Fee charged', fee],
    [
      'Result',
      tx.successful ? 'success' : `failed (${(tx.operationResults ?? []).join(', ')}): only the fee and the sequence number were taken`,
    ],
    ['Memo', tx.memoType === 'none' ? 'none' : `${memoText(tx)}${tx.memoType === 'text' ? ' (text)' : ''}`],
    ['Payment', tx.unmatched ? 'unmatched: no payment has this memo; the money landed all the same' : (tx.payment ?? 'none')],
    ['Signatures', tx.signatures],
    ['Applied', tx.appliedAt],
    ['Closed', tx.closedAt ?? 'not yet (its ledger is open)'],
    ['Horizon', tx.horizonUrl],
  ])
  const operations = table(
    ['#', 'Type', 'From', 'To', 'Amount'],
    tx.operations.map((op) => [op.index, op.type, op.from, op.to, operationAmount(op)]),
  )
  // The envelope is hundreds of characters: below the tables, so that they stay narrow.
  return [summary, chalk.bold('Operations'), operations, chalk.bold('Envelope XDR (base64)'), tx.envelopeXdr].join('\n')
}
