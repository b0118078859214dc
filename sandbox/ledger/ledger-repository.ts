// Rows of the simulated ledger: the only code that reads or writes ledger_accounts,
// ledger_ledgers, ledger_transactions and ledger_operations. Rules live in ledger-service.ts.
// Writers serialize on the open ledger's row (lockOpenLedger), then on the accounts they move,
// sorted by key: every ledger writer of every replica takes them in that order.
import { sql, type Kysely, type Updateable } from 'kysely'
import { forUpdate } from '../db/sql-dialect.js'
import type { LedgerAccountRole } from '../../src/api/enumerations.js'
import type {
  Database,
  LedgerAccountRow,
  LedgerAccountsTable,
  LedgerLedgerRow,
  LedgerLedgersTable,
  LedgerOperationRow,
  LedgerTransactionRow,
} from '../db/schema.js'

export async function insertAccount(db: Kysely<Database>, row: LedgerAccountRow): Promise<void> {
  await db.insertInto('ledger_accounts').values(row).execute()
}

/**
 * An account's columns, its balances as decimal text on both backends: PostgreSQL keeps them
 * numeric (with a CHECK on their sign), which the driver would read as JavaScript numbers.
 */
function selectAccounts(db: Kysely<Database>) {
  return db
    .selectFrom('ledger_accounts')
    .select(['public_key', 'secret', 'role', 'label', 'created_at', 'sequence', 'usdc_trustline', 'usdc_limit'])
    .select([sql<string>`cast(usdc_balance as text)`.as('usdc_balance'), sql<string>`cast(xlm_balance as text)`.as('xlm_balance')])
}

export function findAccount(db: Kysely<Database>, publicKey: string): Promise<LedgerAccountRow | undefined> {
  return selectAccounts(db).where('public_key', '=', publicKey).executeTakeFirst()
}

/** Locked until the transaction ends, in key order (after the open ledger: see lockOpenLedger). */
export async function lockAccounts(db: Kysely<Database>, publicKeys: string[]): Promise<LedgerAccountRow[]> {
  if (publicKeys.length === 0) return []
  // PostgreSQL locks the rows as the sorted result yields them, so in key order.
  return forUpdate(db, selectAccounts(db).where('public_key', 'in', publicKeys).orderBy('public_key')).execute()
}

/** In creation order (rowid breaks ties between accounts created at the same instant). */
export function listAccountRows(db: Kysely<Database>, filter: { role?: LedgerAccountRole } = {}): Promise<LedgerAccountRow[]> {
  let query = selectAccounts(db)
  if (filter.role !== undefined) query = query.where('role', '=', filter.role)
  return query
    .orderBy('created_at')
    .orderBy(sql`rowid`)
    .execute()
}

export async function updateAccount(
  db: Kysely<Database>,
  publicKey: string,
  changes: Pick<Updateable<LedgerAccountsTable>, 'sequence' | 'usdc_balance' | 'xlm_balance'>,
): Promise<void> {
  await db.updateTable('ledger_accounts').set(changes).where('public_key', '=', publicKey).execute()
}

/** The open ledger's totals beside each account's balances, as they are together at one instant. */
export interface SupplyRow {
  total_coins: string
  fee_pool: string
  public_key: string | null
  usdc_balance: string | null
  xlm_balance: string | null
}

/**
 * One statement, so one snapshot on both backends: on PostgreSQL, where commits of other
 * replicas land between two statements of the same reader, separate reads of the totals and the
 * balances could each be right and still disagree. No rows without an open ledger.
 */
export function supplyRows(db: Kysely<Database>): Promise<SupplyRow[]> {
  return db
    .selectFrom('ledger_ledgers as ledger')
    .leftJoin('ledger_accounts as account', (join) => join.onTrue())
    .where('ledger.closed_at', 'is', null)
    .select(['ledger.total_coins', 'ledger.fee_pool', 'account.public_key'])
    .select([
      sql<string | null>`cast(account.usdc_balance as text)`.as('usdc_balance'),
      sql<string | null>`cast(account.xlm_balance as text)`.as('xlm_balance'),
    ])
    .execute()
}

export function findOpenLedger(db: Kysely<Database>): Promise<LedgerLedgerRow | undefined> {
  return db.selectFrom('ledger_ledgers').selectAll().where('closed_at', 'is', null).executeTakeFirst()
}

/**
 * The ledger lock: the open ledger's row, locked until the transaction ends. Every writer of the
 * ledger (applying, closing, creating an account) takes it first, so the chain is one serial
 * order across replicas, and what is derived from the last row (the next transaction position,
 * the next ledger sequence, total coins, the fee pool) is read and written by one at a time.
 */
export async function lockOpenLedger(db: Kysely<Database>): Promise<LedgerLedgerRow | undefined> {
  for (;;) {
    const open = await forUpdate(db, db.selectFrom('ledger_ledgers').selectAll().where('closed_at', 'is', null)).executeTakeFirst()
    if (open) return open
    // Either a close committed while this waited (the row it waited for is closed now, and the
    // next statement sees the ledger that close opened: lock that one), or there is no ledger yet.
    if (!(await findOpenLedger(db))) return undefined
  }
}

/** Locks the open ledger (above); a database without one (new) gets ledger 1, opened at `now`. */
export async function ensureOpenLedger(db: Kysely<Database>, now: number): Promise<LedgerLedgerRow> {
  const open = await lockOpenLedger(db)
  if (open) return open
  const genesis: LedgerLedgerRow = {
    sequence: 1,
    opened_at: now,
    closed_at: null,
    transaction_count: 0,
    total_coins: '0',
    fee_pool: '0',
  }
  await insertLedger(db, genesis)
  return genesis
}

export async function insertLedger(db: Kysely<Database>, row: LedgerLedgerRow): Promise<void> {
  await db.insertInto('ledger_ledgers').values(row).execute()
}

export async function updateLedger(
  db: Kysely<Database>,
  sequence: number,
  changes: Pick<Updateable<LedgerLedgersTable>, 'closed_at' | 'transaction_count' | 'total_coins' | 'fee_pool'>,
): Promise<void> {
  await db.updateTable('ledger_ledgers').set(changes).where('sequence', '=', sequence).execute()
}

export function findLedger(db: Kysely<Database>, sequence: number): Promise<LedgerLedgerRow | undefined> {
  return db.selectFrom('ledger_ledgers').selectAll().where('sequence', '=', sequence).executeTakeFirst()
}

/** Gapless and in commit order only under the ledger lock (lockOpenLedger), held until the transaction commits. */
export async function nextTransactionPosition(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('ledger_transactions')
    .select(sql<number>`coalesce(max(position), 0) + 1`.as('next'))
    .executeTakeFirstOrThrow()
  return row.next
}

export async function insertTransaction(
  db: Kysely<Database>,
  transaction: LedgerTransactionRow,
  operations: LedgerOperationRow[],
): Promise<void> {
  await db.insertInto('ledger_transactions').values(transaction).execute()
  if (operations.length > 0) await db.insertInto('ledger_operations').values(operations).execute()
}

export function findTransactionRow(db: Kysely<Database>, hash: string): Promise<LedgerTransactionRow | undefined> {
  return db.selectFrom('ledger_transactions').selectAll().where('hash', '=', hash).executeTakeFirst()
}

export interface TransactionRowQuery {
  account?: string
  /** Only transactions after this position in the given order (a paging cursor). */
  after?: number
  ledger?: number
  order: 'asc' | 'desc'
  limit: number
  includeFailed: boolean
}

export function listTransactionRows(db: Kysely<Database>, query: TransactionRowQuery): Promise<LedgerTransactionRow[]> {
  let select = db.selectFrom('ledger_transactions').selectAll()
  const { account, after } = query
  if (account !== undefined) {
    // Three indexed lookups rather than an OR across two tables, which SQLite would scan.
    select = select.where('position', 'in', (eb) =>
      eb
        .selectFrom('ledger_operations')
        .select('tx_position')
        .where('from_account', '=', account)
        .union(eb.selectFrom('ledger_operations').select('tx_position').where('to_account', '=', account))
        .union(eb.selectFrom('ledger_transactions').select('position as tx_position').where('source_account', '=', account)),
    )
  }
  if (after !== undefined) select = select.where('position', query.order === 'asc' ? '>' : '<', after)
  if (!query.includeFailed) select = select.where('successful', '=', 1)
  if (query.ledger !== undefined) select = select.where('ledger_sequence', '=', query.ledger)
  return select.orderBy('position', query.order).limit(query.limit).execute()
}

export async function findOperationsOf(db: Kysely<Database>, hashes: string[]): Promise<LedgerOperationRow[]> {
  if (hashes.length === 0) return []
  return db.selectFrom('ledger_operations').selectAll().where('tx_hash', 'in', hashes).orderBy('tx_position').orderBy('op_index').execute()
}

export async function countTransactions(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('ledger_transactions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
  return row.count
}

/** Transactions carrying a text memo, in application order (the memo index finds them). */
export function findTransactionRowsByMemo(db: Kysely<Database>, memo: string, limit: number): Promise<LedgerTransactionRow[]> {
  return db
    .selectFrom('ledger_transactions')
    .selectAll()
    .where('memo_type', '=', 'text')
    .where('memo', '=', memo)
    .orderBy('position')
    .limit(limit)
    .execute()
}

/** A payment operation with what Horizon shows of its transaction. */
export interface OperationWithTransactionRow extends LedgerOperationRow {
  ledger_sequence: number
  applied_at: number
  source_account: string
  successful: number
}

export interface OperationRowQuery {
  account?: string
  txHash?: string
  ledger?: number
  /** Only operations past this one (transaction position, operation index) in the given order. */
  after?: { position: number; index: number }
  order: 'asc' | 'desc'
  limit: number
  includeFailed: boolean
}

/** Operations in application order (position, then index), with their transaction's ledger, time and source. */
export function listOperationRows(db: Kysely<Database>, query: OperationRowQuery): Promise<OperationWithTransactionRow[]> {
  let select = db
    .selectFrom('ledger_operations as op')
    .innerJoin('ledger_transactions as tx', 'tx.position', 'op.tx_position')
    .selectAll('op')
    .select(['tx.ledger_sequence', 'tx.applied_at', 'tx.source_account', 'tx.successful'])
  const { account, txHash, after } = query
  if (!query.includeFailed) select = select.where('tx.successful', '=', 1)
  if (query.ledger !== undefined) select = select.where('tx.ledger_sequence', '=', query.ledger)
  if (account !== undefined) select = select.where((eb) => eb.or([eb('op.from_account', '=', account), eb('op.to_account', '=', account)]))
  if (txHash !== undefined) select = select.where('op.tx_hash', '=', txHash)
  if (after !== undefined) {
    const beyond = query.order === 'asc' ? '>' : '<'
    select = select.where((eb) =>
      eb.or([
        eb('op.tx_position', beyond, after.position),
        eb.and([eb('op.tx_position', '=', after.position), eb('op.op_index', beyond, after.index)]),
      ]),
    )
  }
  return select.orderBy('op.tx_position', query.order).orderBy('op.op_index', query.order).limit(query.limit).execute()
}

export async function lastTransactionPosition(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('ledger_transactions')
    .select(sql<number>`coalesce(max(position), 0)`.as('last'))
    .executeTakeFirstOrThrow()
  return row.last
}

export async function countOperationsInLedger(db: Kysely<Database>, sequence: number): Promise<number> {
  const row = await db
    .selectFrom('ledger_operations as op')
    .innerJoin('ledger_transactions as tx', 'tx.position', 'op.tx_position')
    .where('tx.ledger_sequence', '=', sequence)
    .where('tx.successful', '=', 1)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
  return row.count
}

export async function countFailedTransactionsInLedger(db: Kysely<Database>, sequence: number): Promise<number> {
  const row = await db
    .selectFrom('ledger_transactions')
    .where('ledger_sequence', '=', sequence)
    .where('successful', '=', 0)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
  return row.count
}
