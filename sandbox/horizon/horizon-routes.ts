// The subset of Horizon's REST API that @stellar/stellar-sdk's Horizon.Server uses, served from
// the sandbox ledger under /horizon, without authentication like Horizon itself: load accounts,
// submit signed transactions (through the same applyEnvelope, and so the same memo matching, as
// every other movement), read transactions, payments and ledgers, page and stream them.
import { StrKey, TransactionBuilder, type Transaction } from '@stellar/stellar-base'
import express, { Router, type Request, type RequestHandler } from 'express'
import type { SandboxContext } from '../context.js'
import { MAX_BODY_BYTES } from '../http/body.js'
import { LedgerError } from '../ledger/ledger-errors.js'
import type { LedgerAccount } from '../ledger/ledger-types.js'
import { cursorPoint, nowCursor, pageOf, pageRequest, recordQuery, transactionCursorPosition, type PageRequest } from './horizon-paging.js'
import {
  HorizonProblem,
  badRequestProblem,
  failedTransactionProblem,
  horizonErrors,
  horizonNotFound,
  ledgerProblem,
  notFoundProblem,
} from './horizon-problems.js'
import {
  MAX_TX_SET_SIZE,
  creationLedger,
  toAccountRecord,
  toFeeStatsRecord,
  toLedgerRecord,
  toPaymentRecord,
  toRootRecord,
  toTransactionRecord,
  type AccountActivity,
  type HorizonContext,
} from './horizon-resources.js'
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
import { lastEventCursor, ledgerFeed, streamRecords } from './horizon-stream.js'
import { runTransaction } from '../db/database.js'
import type { HorizonHandlers } from './horizon-operations.js'
import { HORIZON_PATH, submitForm } from './horizon-requests.js'

/** Transactions fee_stats looks at, newest first. */
const FEE_STATS_WINDOW = 100

const HASH = /^[0-9a-f]{64}$/i
const LEDGER_SEQUENCE = /^\d{1,10}$/
const OPERATION_ID = /^\d{1,19}$/

// Horizon takes the envelope as a form field; parameterLimit keeps a body of many fields cheap to refuse.
const readForm = express.urlencoded({ extended: false, limit: MAX_BODY_BYTES, parameterLimit: 10 })

const wantsStream = (req: Request): boolean => req.get('accept')?.includes('text/event-stream') ?? false

export function horizonHandlers(ctx: SandboxContext) {
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
  const hrefOf = (req: Request) => `${h.baseUrl}${req.path}`
  // Every stream of this router hears of ledger changes from this one feed.
  const feed = ledgerFeed(ctx)

  const accountParam = async (req: Request): Promise<LedgerAccount> => {
    const id = String(req.params.accountId)
    if (!StrKey.isValidEd25519PublicKey(id))
      throw badRequestProblem(`account_id: ${id.slice(0, 64)} is not a Stellar account address (G…)`, 'account_id')
    const account = await ctx.ledger.getAccount(ctx.db, id)
    if (!account) throw notFoundProblem(`No account ${id} on the sandbox ledger.`)
    return account
  }

  const activityOf = async (account: LedgerAccount): Promise<AccountActivity> => {
    // A failed transaction modified the account too: its fee and sequence number.
    const [last] = await ctx.ledger.listTransactions(ctx.db, { account: account.publicKey, order: 'desc', limit: 1, includeFailed: true })
    return last ? { ledger: last.ledgerSequence, at: last.appliedAt } : { ledger: creationLedger(account), at: account.createdAt }
  }

  /** The cursor of a page as a paging token; "now" is past everything applied so far. */
  const cursorOf = async (page: PageRequest): Promise<bigint | undefined> => {
    if (page.cursor === undefined) return undefined
    if (page.cursor !== 'now') return BigInt(page.cursor)
    // Newest first from now is simply newest first.
    return page.order === 'desc' ? undefined : nowCursor(await ctx.ledger.lastPosition(ctx.db))
  }

  /** What a list holds: an account's, a transaction's or a ledger's records; failed ones; with their transactions. */
  type Filter = { account?: string; txHash?: string; ledger?: number; includeFailed: boolean; joinTransactions?: boolean }
  const transactionsAfter = (
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

  const paymentsAfter = async (
    { joinTransactions, ...filter }: Filter,
    order: 'asc' | 'desc',
    limit: number,
    cursor: bigint | undefined,
  ) => {
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
  const effectsAfter = async (
    { account, txHash, ledger }: Filter,
    order: 'asc' | 'desc',
    limit: number,
    cursor: EffectPoint | undefined,
  ) => {
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
  const effectsListOrStream = async (req: Request, res: express.Response, filter: Omit<Filter, 'includeFailed'> = {}) => {
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
      const recordsAfter = (key: bigint, limit: number) => effectsAfter(full, 'asc', limit, effectPointOf(key))
      const keyOf = (record: { paging_token: string }) => effectKey(parseEffectCursor(record.paging_token, lastPosition) as EffectPoint)
      await streamRecords(req, res, effectKey(start), recordsAfter, feed, ctx.log, keyOf)
      return
    }
    res.json(pageOf(hrefOf(req), page, await effectsAfter(full, page.order, page.limit, cursor)))
  }

  /** A list of transactions or payments: a page, or with Accept: text/event-stream, a stream from the cursor on. */
  const listOrStream = async (
    req: Request,
    res: express.Response,
    recordsAfter: (
      filter: Filter,
      order: 'asc' | 'desc',
      limit: number,
      cursor: bigint | undefined,
    ) => Promise<Array<{ paging_token: string }>>,
    filter: Omit<Filter, 'includeFailed'> = {},
  ) => {
    const page = pageRequest(req.query)
    const fullFilter = { ...filter, includeFailed: page.includeFailed, joinTransactions: page.joinTransactions }
    if (wantsStream(req)) {
      if (page.order === 'desc') throw badRequestProblem('order: a stream runs oldest first; order=desc cannot be streamed', 'order')
      const start = lastEventCursor(req) ?? (await cursorOf(page)) ?? 0n
      await streamRecords(req, res, start, (cursor, limit) => recordsAfter(fullFilter, 'asc', limit, cursor), feed, ctx.log)
      return
    }
    res.json(pageOf(hrefOf(req), page, await recordsAfter(fullFilter, page.order, page.limit, await cursorOf(page))))
  }

  /** The newest closed ledger: the one before the open one, if any has closed yet. */
  const lastClosedLedger = async () => {
    const open = await ctx.ledger.currentLedger(ctx.db)
    return open && open.sequence > 1 ? ctx.ledger.getLedger(ctx.db, open.sequence - 1) : undefined
  }

  const root: RequestHandler = async (req, res) => {
    recordQuery.parse(req.query)
    const latest = await lastClosedLedger()
    res.json(toRootRecord(h, latest?.closedAt == null ? undefined : { sequence: latest.sequence, closedAt: latest.closedAt }))
  }

  const feeStats: RequestHandler = async (req, res) => {
    recordQuery.parse(req.query)
    const lastClosed = await lastClosedLedger()
    // Failed transactions paid their fees too.
    const recent = await ctx.ledger.listTransactions(ctx.db, { order: 'desc', limit: FEE_STATS_WINDOW, includeFailed: true })
    // Per operation, as Horizon reports them: what was charged, and what the envelope offered.
    const envelopes = recent.map((tx) => TransactionBuilder.fromXDR(tx.envelopeXdr, h.networkPassphrase) as Transaction)
    const charged = recent.map((tx, i) => tx.feeCharged / BigInt(envelopes[i]!.operations.length))
    const bids = envelopes.map((envelope) => BigInt(envelope.fee) / BigInt(envelope.operations.length))
    const usage = (lastClosed?.transactionCount ?? 0) / MAX_TX_SET_SIZE
    res.json(toFeeStatsRecord(lastClosed?.sequence ?? 0, usage, charged, bids))
  }

  const getAccount: RequestHandler = async (req, res) => {
    recordQuery.parse(req.query)
    const account = await accountParam(req)
    res.json(toAccountRecord(h, account, await activityOf(account)))
  }

  // Sandbox accounts hold no data entries: every key is missing, as on Horizon.
  const getAccountData: RequestHandler = async (req) => {
    recordQuery.parse(req.query)
    const account = await accountParam(req)
    throw notFoundProblem(`Account ${account.publicKey} has no data entry ${String(req.params.key).slice(0, 64)}.`)
  }

  const accountTransactions: RequestHandler = async (req, res) => {
    const { publicKey } = await accountParam(req)
    await listOrStream(req, res, transactionsAfter, { account: publicKey })
  }

  // Every operation on the sandbox ledger is a payment: /operations lists the same records.
  const accountPayments: RequestHandler = async (req, res) => {
    const { publicKey } = await accountParam(req)
    await listOrStream(req, res, paymentsAfter, { account: publicKey })
  }
  const payments: RequestHandler = async (req, res) => {
    await listOrStream(req, res, paymentsAfter)
  }

  const transactions: RequestHandler = async (req, res) => {
    await listOrStream(req, res, transactionsAfter)
  }

  const allEffects: RequestHandler = async (req, res) => {
    await effectsListOrStream(req, res)
  }

  const accountEffects: RequestHandler = async (req, res) => {
    const { publicKey } = await accountParam(req)
    await effectsListOrStream(req, res, { account: publicKey })
  }

  const submitTransaction: RequestHandler = async (req, res) => {
    if (req.body === undefined) {
      const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined
      if (hasBody) {
        throw new HorizonProblem(
          415,
          'unsupported_media_type',
          'Unsupported Media Type',
          'Submit the envelope as a form: Content-Type application/x-www-form-urlencoded, field tx.',
        )
      }
    }
    const { tx: envelopeXdr } = submitForm.parse(req.body ?? {})
    let applied
    try {
      applied = await runTransaction(ctx.db, (trx) => ctx.ledger.submit(trx, envelopeXdr))
    } catch (error) {
      if (error instanceof LedgerError) throw ledgerProblem(error, envelopeXdr)
      throw error
    }
    // Included as failed and committed so (fee charged, sequence used), yet answered 400 as on Horizon.
    if (!applied.successful) throw failedTransactionProblem(applied)
    res.json(toTransactionRecord(h, applied))
  }

  const transactionParam = async (req: Request) => {
    const hash = String(req.params.hash)
    if (!HASH.test(hash)) throw badRequestProblem(`tx_id: ${hash.slice(0, 80)} is not a transaction hash (64 hex digits)`, 'tx_id')
    const tx = await ctx.ledger.getTransaction(ctx.db, hash)
    if (!tx) throw notFoundProblem(`No transaction ${hash.toLowerCase()} on the sandbox ledger.`)
    return tx
  }

  const getTransaction: RequestHandler = async (req, res) => {
    recordQuery.parse(req.query)
    res.json(toTransactionRecord(h, await transactionParam(req)))
  }

  const transactionPayments: RequestHandler = async (req, res) => {
    const { hash } = await transactionParam(req)
    const page = pageRequest(req.query)
    const filter = { txHash: hash, includeFailed: true, joinTransactions: page.joinTransactions }
    res.json(pageOf(hrefOf(req), page, await paymentsAfter(filter, page.order, page.limit, await cursorOf(page))))
  }

  const transactionEffects: RequestHandler = async (req, res) => {
    const { hash } = await transactionParam(req)
    await effectsListOrStream(req, res, { txHash: hash })
  }

  const operationParam = async (req: Request) => {
    const id = String(req.params.id)
    if (!OPERATION_ID.test(id) || BigInt(id) >= 2n ** 63n) throw badRequestProblem(`id: ${id.slice(0, 64)} is not an operation id`, 'id')
    const { position, index } = cursorPoint(BigInt(id))
    const [payment] =
      index < 0
        ? []
        : await ctx.ledger.listPayments(ctx.db, { after: { position, index: index - 1 }, order: 'asc', limit: 1, includeFailed: true })
    if (!payment || payment.txPosition !== position || payment.index !== index)
      throw notFoundProblem(`No operation ${id} on the sandbox ledger.`)
    return payment
  }

  const getOperation: RequestHandler = async (req, res) => {
    recordQuery.parse(req.query)
    res.json(toPaymentRecord(h, await operationParam(req)))
  }

  const operationEffects: RequestHandler = async (req, res) => {
    const payment = await operationParam(req)
    const page = pageRequest(req.query, effectsPageQuery)
    const cursor =
      page.cursor === undefined || page.cursor === 'now'
        ? undefined
        : await parseEffectCursor(page.cursor, () => ctx.ledger.lastPosition(ctx.db))
    // A failed transaction's operation has no effects.
    const effects = (payment.transactionSuccessful ? effectsOf(payment) : [])
      .filter(
        (effect) =>
          cursor === undefined ||
          (page.order === 'asc' ? compareEffects(effect.point, cursor) > 0 : compareEffects(effect.point, cursor) < 0),
      )
      .sort((a, b) => (page.order === 'asc' ? 1 : -1) * compareEffects(a.point, b.point))
      .slice(0, page.limit)
    res.json(
      pageOf(
        hrefOf(req),
        page,
        effects.map((effect) => toEffectRecord(h, effect)),
      ),
    )
  }

  /** A closed ledger: Horizon knows a ledger once it has closed; the sandbox's open ledger is not history yet. */
  const ledgerParam = async (req: Request) => {
    const text = String(req.params.sequence)
    if (!LEDGER_SEQUENCE.test(text) || Number(text) > 0xffff_ffff)
      throw badRequestProblem(`sequence: ${text.slice(0, 64)} is not a ledger sequence`, 'sequence')
    const ledger = await ctx.ledger.getLedger(ctx.db, Number(text))
    if (!ledger || ledger.closedAt === null) throw notFoundProblem(`Ledger ${text} has not closed on the sandbox ledger.`)
    return { ...ledger, closedAt: ledger.closedAt }
  }

  const getLedger: RequestHandler = async (req, res) => {
    recordQuery.parse(req.query)
    const ledger = await ledgerParam(req)
    res.json(toLedgerRecord(h, ledger, await ctx.ledger.ledgerCounts(ctx.db, ledger.sequence)))
  }

  const ledgerTransactions: RequestHandler = async (req, res) => {
    const { sequence } = await ledgerParam(req)
    await listOrStream(req, res, transactionsAfter, { ledger: sequence })
  }

  const ledgerPayments: RequestHandler = async (req, res) => {
    const { sequence } = await ledgerParam(req)
    await listOrStream(req, res, paymentsAfter, { ledger: sequence })
  }

  const ledgerEffects: RequestHandler = async (req, res) => {
    const { sequence } = await ledgerParam(req)
    await effectsListOrStream(req, res, { ledger: sequence })
  }

  return {
    horizonRoot: root,
    horizonFeeStats: feeStats,
    horizonGetAccount: getAccount,
    horizonGetAccountData: getAccountData,
    horizonAccountTransactions: accountTransactions,
    horizonAccountPayments: accountPayments,
    horizonAccountOperations: accountPayments,
    horizonPayments: payments,
    horizonOperations: payments,
    horizonTransactions: transactions,
    horizonSubmitTransaction: [readForm, submitTransaction],
    horizonGetTransaction: getTransaction,
    horizonTransactionPayments: transactionPayments,
    horizonTransactionOperations: transactionPayments,
    horizonGetOperation: getOperation,
    horizonGetLedger: getLedger,
    horizonLedgerTransactions: ledgerTransactions,
    horizonLedgerPayments: ledgerPayments,
    horizonLedgerOperations: ledgerPayments,
    horizonEffects: allEffects,
    horizonAccountEffects: accountEffects,
    horizonTransactionEffects: transactionEffects,
    horizonOperationEffects: operationEffects,
    horizonLedgerEffects: ledgerEffects,
  } satisfies Partial<HorizonHandlers>
}

/**
 * Around Horizon's routes: its Date header is the business clock (server.fetchTimebounds() then
 * gives bounds the ledger accepts even after `sandbox clock advance`), and what no route
 * answers, or what fails, is a Horizon problem document.
 */
export function horizonRouter(ctx: Pick<SandboxContext, 'clock'>, routes: Router): Router {
  return Router()
    .use((_req, res, next) => {
      res.setHeader('Date', new Date(ctx.clock.now()).toUTCString())
      next()
    })
    .use(routes)
    .use(horizonNotFound)
    .use(horizonErrors)
}
