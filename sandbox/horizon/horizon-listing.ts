// What every list of Horizon's resources shares: the scope handlers read the ledger through,
// the records past a cursor (transactions, payments, effects), and a page of them or, with
// Accept: text/event-stream, a stream from the cursor on.
import type { Request, Response } from 'express'
import type { SandboxContext } from '../context.js'
import type { ChangeFeed } from '../db/change-feed.js'
import {
  compareEffects,
  effectKey,
  effectsPageQuery,
  effectPointOf,
  effectsOf,
  parseEffectCursor,
  paymentsFrom,
  toEffectRecord,
  type EffectPoint,
} from './horizon-effects.js'
import { cursorPoint, nowCursor, pageOf, pageRequest, transactionCursorPosition, type PageRequest } from './horizon-paging.js'
import { badRequestProblem } from './horizon-problems.js'
import { HORIZON_PATH } from './horizon-requests.js'
import { toPaymentRecord, toTransactionRecord, type HorizonContext } from './horizon-resources.js'
import { lastEventCursor, ledgerFeed, streamRecords } from './horizon-stream.js'

/** What Horizon's handlers read: the sandbox, the record context, and the one feed of ledger changes. */
export interface HorizonScope {
  ctx: SandboxContext
  h: HorizonContext
  feed: ChangeFeed
}

export function horizonScope(ctx: SandboxContext): HorizonScope {
  // Read at each use: restoring a snapshot may change what the context holds.
  const h: HorizonContext = {
    get baseUrl() {
      return `${ctx.publicUrl}${HORIZON_PATH}`
    },
    get networkPassphrase() {
      return ctx.ledger.networkPassphrase
    },
    get usdcIssuer() {
      return ctx.identity.usdcIssuer
    },
  }
  // Every stream of this router hears of ledger changes from this one feed.
  return { ctx, h, feed: ledgerFeed(ctx) }
}

export const hrefOf = ({ h }: HorizonScope, req: Request): string => `${h.baseUrl}${req.path}`

const wantsStream = (req: Request): boolean => req.get('accept')?.includes('text/event-stream') ?? false

/** What a list holds: an account's, a transaction's or a ledger's records; failed ones; with their transactions. */
export type Filter = { account?: string; txHash?: string; ledger?: number; includeFailed: boolean; joinTransactions?: boolean }

type RecordsAfter = (
  s: HorizonScope,
  filter: Filter,
  order: 'asc' | 'desc',
  limit: number,
  cursor: bigint | undefined,
) => Promise<Array<{ paging_token: string }>>

/** The cursor of a page as a paging token; "now" is past everything applied so far. */
export async function cursorOf({ ctx }: HorizonScope, page: PageRequest): Promise<bigint | undefined> {
  if (page.cursor === undefined) return undefined
  if (page.cursor !== 'now') return BigInt(page.cursor)
  // Newest first from now is simply newest first.
  return page.order === 'desc' ? undefined : nowCursor(await ctx.ledger.lastPosition(ctx.db))
}

export const transactionsAfter = (
  { ctx, h }: HorizonScope,
  { account, ledger, includeFailed }: Filter,
  order: 'asc' | 'desc',
  limit: number,
  cursor: bigint | undefined,
) =>
  ctx.ledger
    .listTransactions(ctx.db, {
      account,
      ledger,
      includeFailed,
      order,
      limit,
      after: cursor === undefined ? undefined : transactionCursorPosition(cursor, order),
    })
    .then((transactions) => transactions.map((tx) => toTransactionRecord(h, tx)))

export async function paymentsAfter(
  { ctx, h }: HorizonScope,
  { joinTransactions, ...filter }: Filter,
  order: 'asc' | 'desc',
  limit: number,
  cursor: bigint | undefined,
) {
  const payments = await ctx.ledger.listPayments(ctx.db, {
    ...filter,
    order,
    limit,
    after: cursor === undefined ? undefined : cursorPoint(cursor),
  })
  if (!joinTransactions) return payments.map((payment) => toPaymentRecord(h, payment))
  // join=transactions: each operation embeds its transaction's record, read once per transaction.
  const hashes = [...new Set(payments.map((payment) => payment.txHash))]
  const transactions = new Map(
    await Promise.all(
      hashes.map(async (hash) => [hash, toTransactionRecord(h, (await ctx.ledger.getTransaction(ctx.db, hash))!)] as const),
    ),
  )
  return payments.map((payment) => ({ ...toPaymentRecord(h, payment), transaction: transactions.get(payment.txHash)! }))
}

/** Effects past a cursor: the payments from the cursor's operation on, each giving its two effects. */
async function effectsAfter(
  { ctx, h }: HorizonScope,
  { account, txHash, ledger }: Filter,
  order: 'asc' | 'desc',
  limit: number,
  cursor: EffectPoint | undefined,
) {
  // Each payment gives at least one effect of any account it involves: limit + 1 payments are enough.
  const payments = await ctx.ledger.listPayments(ctx.db, {
    account,
    txHash,
    ledger,
    order,
    limit: limit + 1,
    after: paymentsFrom(cursor, order),
  })
  return payments
    .flatMap((payment) => (order === 'asc' ? effectsOf(payment) : effectsOf(payment).reverse()))
    .filter((effect) => account === undefined || effect.account === account)
    .filter(
      (effect) =>
        cursor === undefined || (order === 'asc' ? compareEffects(effect.point, cursor) > 0 : compareEffects(effect.point, cursor) < 0),
    )
    .slice(0, limit)
    .map((effect) => toEffectRecord(h, effect))
}

/** A page of effects, or with Accept: text/event-stream, a stream of them from the cursor on. */
export async function effectsListOrStream(
  s: HorizonScope,
  req: Request,
  res: Response,
  filter: Omit<Filter, 'includeFailed'> = {},
): Promise<void> {
  const { ctx } = s
  const page = pageRequest(req.query, effectsPageQuery)
  const full = { ...filter, includeFailed: false }
  const lastPosition = () => ctx.ledger.lastPosition(ctx.db)
  // Newest first from now is simply newest first.
  const cursor =
    page.cursor === undefined || (page.cursor === 'now' && page.order === 'desc')
      ? undefined
      : await parseEffectCursor(page.cursor, lastPosition)
  if (wantsStream(req)) {
    if (page.order === 'desc') throw badRequestProblem('order: a stream runs oldest first; order=desc cannot be streamed', 'order')
    const resumed = req.get('last-event-id')
    const start =
      resumed !== undefined && /^\d{1,19}-\d{1,10}$/.test(resumed)
        ? await parseEffectCursor(resumed, lastPosition)
        : (cursor ?? { operation: 0n, order: 0 })
    const recordsAfter = (key: bigint, limit: number) => effectsAfter(s, full, 'asc', limit, effectPointOf(key))
    const keyOf = (record: { paging_token: string }) => effectKey(parseEffectCursor(record.paging_token, lastPosition) as EffectPoint)
    await streamRecords(req, res, effectKey(start), recordsAfter, s.feed, ctx.log, keyOf)
    return
  }
  res.json(pageOf(hrefOf(s, req), page, await effectsAfter(s, full, page.order, page.limit, cursor)))
}

/** A list of transactions or payments: a page, or with Accept: text/event-stream, a stream from the cursor on. */
export async function listOrStream(
  s: HorizonScope,
  req: Request,
  res: Response,
  recordsAfter: RecordsAfter,
  filter: Omit<Filter, 'includeFailed'> = {},
): Promise<void> {
  const page = pageRequest(req.query)
  const fullFilter = { ...filter, includeFailed: page.includeFailed, joinTransactions: page.joinTransactions }
  if (wantsStream(req)) {
    if (page.order === 'desc') throw badRequestProblem('order: a stream runs oldest first; order=desc cannot be streamed', 'order')
    const start = lastEventCursor(req) ?? (await cursorOf(s, page)) ?? 0n
    await streamRecords(req, res, start, (cursor, limit) => recordsAfter(s, fullFilter, 'asc', limit, cursor), s.feed, s.ctx.log)
    return
  }
  res.json(pageOf(hrefOf(s, req), page, await recordsAfter(s, fullFilter, page.order, page.limit, await cursorOf(s, page))))
}
