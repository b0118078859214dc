// What the ledger holds, as services, Horizon and the admin API read it: ledgers, accounts,
// transactions and payments, mapped from their rows.
import type { Kysely } from 'kysely'
import { MAX_TRANSACTIONS_PAGE } from '../../src/api/contract/sandbox-admin.js'
import type { LedgerAccountRole } from '../../src/api/enumerations.js'
import type { Database, LedgerTransactionRow } from '../db/schema.js'
import { groupBy, toLedgerAccount, toLedgerInfo, toLedgerPayment, toLedgerTransaction } from './ledger-mappers.js'
import {
  countFailedTransactionsInLedger,
  countOperationsInLedger,
  findAccount,
  findLedger,
  findOpenLedger,
  findOperationsOf,
  findTransactionRow,
  findTransactionRowsByMemo,
  listAccountRows,
  listOperationRows,
  listTransactionRows,
} from './ledger-repository.js'
import type { LedgerAccount, LedgerInfo, LedgerPayment, LedgerTransaction, PaymentListQuery, TransactionListQuery } from './ledger-types.js'

export async function currentLedger(db: Kysely<Database>): Promise<LedgerInfo | undefined> {
  const open = await findOpenLedger(db)
  return open && toLedgerInfo(open)
}

export async function getLedger(db: Kysely<Database>, sequence: number): Promise<LedgerInfo | undefined> {
  const row = await findLedger(db, sequence)
  return row && toLedgerInfo(row)
}

/** How many operations the successful transactions of a ledger hold, and how many of its transactions failed. */
export async function ledgerCounts(
  db: Kysely<Database>,
  ledgerSequence: number,
): Promise<{ operations: number; failedTransactions: number }> {
  return {
    operations: await countOperationsInLedger(db, ledgerSequence),
    failedTransactions: await countFailedTransactionsInLedger(db, ledgerSequence),
  }
}

export async function getAccount(db: Kysely<Database>, publicKey: string): Promise<LedgerAccount | undefined> {
  const row = await findAccount(db, publicKey)
  return row && toLedgerAccount(row)
}

export async function listAccounts(db: Kysely<Database>, filter: { role?: LedgerAccountRole } = {}): Promise<LedgerAccount[]> {
  return (await listAccountRows(db, filter)).map(toLedgerAccount)
}

export async function getTransaction(db: Kysely<Database>, hash: string): Promise<LedgerTransaction | undefined> {
  const row = await findTransactionRow(db, hash.toLowerCase())
  return row && toLedgerTransaction(row, await findOperationsOf(db, [row.hash]))
}

export async function listTransactions(db: Kysely<Database>, query: TransactionListQuery = {}): Promise<LedgerTransaction[]> {
  const rows = await listTransactionRows(db, {
    account: query.account,
    ledger: query.ledger,
    after: query.after,
    order: query.order ?? 'asc',
    limit: pageLimit(query.limit),
    includeFailed: query.includeFailed ?? false,
  })
  return withOperations(db, rows)
}

/** Transactions with this text memo (a payment's), oldest first, at most MAX_TRANSACTIONS_PAGE. */
export async function listTransactionsByMemo(db: Kysely<Database>, memo: string): Promise<LedgerTransaction[]> {
  return withOperations(db, await findTransactionRowsByMemo(db, memo, MAX_TRANSACTIONS_PAGE))
}

/** Payment operations in application order, each with its transaction's hash, ledger, time and source. */
export async function listPayments(db: Kysely<Database>, query: PaymentListQuery = {}): Promise<LedgerPayment[]> {
  const limit = pageLimit(query.limit)
  const rows = await listOperationRows(db, { ...query, order: query.order ?? 'asc', limit, includeFailed: query.includeFailed ?? false })
  return rows.map(toLedgerPayment)
}

const pageLimit = (limit = 10): number => Math.min(Math.max(Math.trunc(limit), 1), MAX_TRANSACTIONS_PAGE)

async function withOperations(db: Kysely<Database>, rows: LedgerTransactionRow[]): Promise<LedgerTransaction[]> {
  const operations = groupBy(
    await findOperationsOf(
      db,
      rows.map((row) => row.hash),
    ),
    (op) => op.tx_hash,
  )
  return rows.map((row) => toLedgerTransaction(row, operations.get(row.hash) ?? []))
}
