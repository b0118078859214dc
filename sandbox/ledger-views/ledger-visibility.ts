// Which part of the simulated ledger a viewer sees. The sandbox's operator (admin) sees all of it. A
// merchant sees its settlement account, and the transactions that touch that account (as source,
// or as an operation's source or destination) or carry the memo of one of its own payments (an
// escrow merchant's payments are paid to the escrow custody, so only their memo names them).
import type { Kysely } from 'kysely'
import { MAX_TRANSACTIONS_PAGE } from '../../src/api/contract/sandbox-admin.js'
import type { Database, MerchantRow, PaymentRow } from '../db/schema.js'
import { notFound } from '../errors.js'
import { findPaymentByMemo } from '../payments/payment-repository.js'
import type { Ledger, LedgerAccount, LedgerTransaction } from '../ledger/ledger-types.js'

/** Who is looking: a merchant, or the operator (undefined: the whole ledger). */
export type LedgerViewer = MerchantRow | undefined

/** A transaction with the payment whose memo it carries, if any (another merchant's is left out for a merchant). */
export interface VisibleTransaction {
  tx: LedgerTransaction
  payment: Pick<PaymentRow, 'id' | 'merchant_id'> | undefined
}

export interface TransactionPageQuery {
  account?: string
  /** A position: only transactions past it, in the order asked for. */
  after?: number
  order: 'asc' | 'desc'
  limit: number
}

/** One page, and the position the next one starts after (undefined: this was the last). */
export interface TransactionPage {
  items: VisibleTransaction[]
  nextAfter: number | undefined
}

/** Ledger pages a merchant's page reads at most: its next link starts where the scan stopped, so nothing is skipped. */
const MERCHANT_SCAN_BATCHES = 5

type LedgerReader = { db: Kysely<Database>; ledger: Ledger }

export async function visibleAccounts(ctx: LedgerReader, viewer: LedgerViewer, role?: LedgerAccount['role']): Promise<LedgerAccount[]> {
  if (viewer === undefined) return ctx.ledger.listAccounts(ctx.db, { role })
  const own = await ctx.ledger.getAccount(ctx.db, viewer.account_id)
  return own && (role === undefined || own.role === role) ? [own] : []
}

async function withPayments(db: Kysely<Database>, transactions: LedgerTransaction[]): Promise<VisibleTransaction[]> {
  const memos = [...new Set(transactions.flatMap((tx) => (tx.memoType === 'text' && tx.memo !== null ? [tx.memo] : [])))]
  const payments = new Map(await Promise.all(memos.map(async (memo) => [memo, await findPaymentByMemo(db, memo)] as const)))
  return transactions.map((tx) => ({ tx, payment: tx.memoType === 'text' && tx.memo !== null ? payments.get(tx.memo) : undefined }))
}

function visibleTo(viewer: LedgerViewer, { tx, payment }: VisibleTransaction): boolean {
  if (viewer === undefined) return true
  if (payment?.merchant_id === viewer.id) return true
  const account = viewer.account_id
  return tx.sourceAccount === account || tx.operations.some((op) => op.from === account || op.to === account)
}

/** A page of the transactions the viewer sees (failed ones included, marked), paged by position as `paybox ledger transactions` does. */
export async function visibleTransactions(ctx: LedgerReader, viewer: LedgerViewer, query: TransactionPageQuery): Promise<TransactionPage> {
  const items: VisibleTransaction[] = []
  let after = query.after
  for (let batch = 0; batch < (viewer === undefined ? 1 : MERCHANT_SCAN_BATCHES); batch++) {
    const wanted = viewer === undefined ? query.limit : MAX_TRANSACTIONS_PAGE
    const read = await ctx.ledger.listTransactions(ctx.db, {
      account: query.account,
      after,
      order: query.order,
      limit: wanted,
      includeFailed: true,
    })
    for (const item of await withPayments(ctx.db, read)) {
      after = item.tx.position
      if (!visibleTo(viewer, item)) continue
      items.push(item)
      if (items.length === query.limit) return { items, nextAfter: after }
    }
    if (read.length < wanted) return { items, nextAfter: undefined }
  }
  return { items, nextAfter: after }
}

/** One transaction the viewer sees; one it does not is as unknown as a made-up hash (404). */
export async function visibleTransaction(ctx: LedgerReader, viewer: LedgerViewer, hash: string): Promise<VisibleTransaction> {
  const tx = /^[0-9a-f]{64}$/.test(hash) ? await ctx.ledger.getTransaction(ctx.db, hash) : undefined
  const item = tx && (await withPayments(ctx.db, [tx]))[0]
  if (!item || !visibleTo(viewer, item)) throw notFound(`No ledger transaction ${hash.slice(0, 80)}`)
  return item
}
