// The subset of Horizon's REST API that @stellar/stellar-sdk's Horizon.Server uses, served from
// the sandbox ledger under /horizon, without authentication like Horizon itself: load accounts,
// submit signed transactions (through the same applyEnvelope, and so the same memo matching, as
// every other movement), read transactions, payments and ledgers, page and stream them.
import { StrKey, TransactionBuilder } from '@stellar/stellar-base'
import express, { Router, type Request } from 'express'
import { z } from 'zod'
import type { SandboxContext } from '../context.js'
import { MAX_BODY_BYTES } from '../http/body.js'
import { LedgerError } from '../ledger/ledger-errors.js'
import type { LedgerAccount } from '../ledger/ledger-service.js'
import {
  cursorPoint,
  nowCursor,
  pageOf,
  pageRequest,
  recordQuery,
  transactionCursorPosition,
  type PageRequest,
} from './horizon-paging.js'
import { HorizonProblem, badRequestProblem, horizonErrors, horizonNotFound, ledgerProblem, notFoundProblem } from './horizon-problems.js'
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
import { lastEventCursor, streamRecords } from './horizon-stream.js'
import { runTransaction } from '../db/database.js'

export const HORIZON_PATH = '/horizon'

/** Transactions fee_stats looks at, newest first. */
const FEE_STATS_WINDOW = 100

const HASH = /^[0-9a-f]{64}$/i
const LEDGER_SEQUENCE = /^\d{1,10}$/
const OPERATION_ID = /^\d{1,19}$/

export const submitForm = z.strictObject({
  tx: z.string({ message: 'is required: the base64 XDR of a signed transaction envelope' }).min(1, { message: 'must not be empty' }),
})

// Horizon takes the envelope as a form field; parameterLimit keeps a body of many fields cheap to refuse.
const readForm = express.urlencoded({ extended: false, limit: MAX_BODY_BYTES, parameterLimit: 10 })

const wantsStream = (req: Request): boolean => req.get('accept')?.includes('text/event-stream') ?? false

export function horizonRoutes(ctx: SandboxContext): Router {
  const router = Router()
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

  // Date is the business clock: server.fetchTimebounds() then gives bounds the ledger accepts
  // even after `sandbox clock advance`.
  router.use((_req, res, next) => {
    res.setHeader('Date', new Date(ctx.clock.now()).toUTCString())
    next()
  })

  const accountParam = async (req: Request): Promise<LedgerAccount> => {
    const id = String(req.params.accountId)
    if (!StrKey.isValidEd25519PublicKey(id)) throw badRequestProblem(`account_id: ${id.slice(0, 64)} is not a Stellar account address (G…)`, 'account_id')
    const account = await ctx.ledger.getAccount(ctx.db, id)
    if (!account) throw notFoundProblem(`No account ${id} on the sandbox ledger.`)
    return account
  }

  const activityOf = async (account: LedgerAccount): Promise<AccountActivity> => {
    const [last] = await ctx.ledger.listTransactions(ctx.db, { account: account.publicKey, order: 'desc', limit: 1 })
    return last ? { ledger: last.ledgerSequence, at: last.appliedAt } : { ledger: creationLedger(account), at: account.createdAt }
  }

  /** The cursor of a page as a paging token; "now" is past everything applied so far. */
  const cursorOf = async (page: PageRequest): Promise<bigint | undefined> => {
    if (page.cursor === undefined) return undefined
    if (page.cursor !== 'now') return BigInt(page.cursor)
    // Newest first from now is simply newest first.
    return page.order === 'desc' ? undefined : nowCursor(await ctx.ledger.lastPosition(ctx.db))
  }

  const transactionsAfter = (account: string | undefined, order: 'asc' | 'desc', limit: number, cursor: bigint | undefined) =>
    ctx.ledger
      .listTransactions(ctx.db, { account, order, limit, after: cursor === undefined ? undefined : transactionCursorPosition(cursor, order) })
      .then((transactions) => transactions.map((tx) => toTransactionRecord(h, tx)))

  const paymentsAfter = (filter: { account?: string; txHash?: string }, order: 'asc' | 'desc', limit: number, cursor: bigint | undefined) =>
    ctx.ledger
      .listPayments(ctx.db, { ...filter, order, limit, after: cursor === undefined ? undefined : cursorPoint(cursor) })
      .then((payments) => payments.map((payment) => toPaymentRecord(h, payment)))

  /** A list of transactions or payments: a page, or with Accept: text/event-stream, a stream from the cursor on. */
  const listOrStream = async (
    req: Request,
    res: express.Response,
    recordsAfter: (order: 'asc' | 'desc', limit: number, cursor: bigint | undefined) => Promise<Array<{ paging_token: string }>>,
  ) => {
    const page = pageRequest(req.query)
    if (wantsStream(req)) {
      if (page.order === 'desc') throw badRequestProblem('order: a stream runs oldest first; order=desc cannot be streamed', 'order')
      const start = lastEventCursor(req) ?? (await cursorOf(page)) ?? 0n
      await streamRecords(req, res, start, (cursor, limit) => recordsAfter('asc', limit, cursor), ctx.log)
      return
    }
    res.json(pageOf(hrefOf(req), page, await recordsAfter(page.order, page.limit, await cursorOf(page))))
  }

  /** The newest closed ledger: the one before the open one, if any has closed yet. */
  const lastClosedLedger = async () => {
    const open = await ctx.ledger.currentLedger(ctx.db)
    return open && open.sequence > 1 ? ctx.ledger.getLedger(ctx.db, open.sequence - 1) : undefined
  }

  router.get('/', async (req, res) => {
    recordQuery.parse(req.query)
    const latest = await lastClosedLedger()
    res.json(toRootRecord(h, latest?.closedAt == null ? undefined : { sequence: latest.sequence, closedAt: latest.closedAt }))
  })

  router.get('/fee_stats', async (req, res) => {
    recordQuery.parse(req.query)
    const lastClosed = await lastClosedLedger()
    const recent = await ctx.ledger.listTransactions(ctx.db, { order: 'desc', limit: FEE_STATS_WINDOW })
    // Per operation, as Horizon reports them: what was charged, and what the envelope offered.
    const charged = recent.map((tx) => tx.feeCharged / BigInt(tx.operations.length))
    const bids = recent.map((tx) => {
      const envelope = TransactionBuilder.fromXDR(tx.envelopeXdr, h.networkPassphrase)
      return BigInt(envelope.fee) / BigInt(tx.operations.length)
    })
    const usage = (lastClosed?.transactionCount ?? 0) / MAX_TX_SET_SIZE
    res.json(toFeeStatsRecord(lastClosed?.sequence ?? 0, usage, charged, bids))
  })

  router.get('/accounts/:accountId', async (req, res) => {
    recordQuery.parse(req.query)
    const account = await accountParam(req)
    res.json(toAccountRecord(h, account, await activityOf(account)))
  })

  // Sandbox accounts hold no data entries: every key is missing, as on Horizon.
  router.get('/accounts/:accountId/data/:key', async (req) => {
    recordQuery.parse(req.query)
    const account = await accountParam(req)
    throw notFoundProblem(`Account ${account.publicKey} has no data entry ${String(req.params.key).slice(0, 64)}.`)
  })

  router.get('/accounts/:accountId/transactions', async (req, res) => {
    const { publicKey } = await accountParam(req)
    await listOrStream(req, res, (order, limit, cursor) => transactionsAfter(publicKey, order, limit, cursor))
  })

  // Every operation on the sandbox ledger is a payment: /operations lists the same records.
  for (const kind of ['payments', 'operations']) {
    router.get(`/accounts/:accountId/${kind}`, async (req, res) => {
      const { publicKey } = await accountParam(req)
      await listOrStream(req, res, (order, limit, cursor) => paymentsAfter({ account: publicKey }, order, limit, cursor))
    })
    router.get(`/${kind}`, async (req, res) => {
      await listOrStream(req, res, (order, limit, cursor) => paymentsAfter({}, order, limit, cursor))
    })
  }

  router.get('/transactions', async (req, res) => {
    await listOrStream(req, res, (order, limit, cursor) => transactionsAfter(undefined, order, limit, cursor))
  })

  router.post('/transactions', readForm, async (req, res) => {
    if (req.body === undefined) {
      const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined
      if (hasBody) {
        throw new HorizonProblem(415, 'unsupported_media_type', 'Unsupported Media Type', 'Submit the envelope as a form: Content-Type application/x-www-form-urlencoded, field tx.')
      }
    }
    const { tx: envelopeXdr } = submitForm.parse(req.body ?? {})
    try {
      const applied = await runTransaction(ctx.db, (trx) => ctx.ledger.applyEnvelope(trx, envelopeXdr))
      res.json(toTransactionRecord(h, applied))
    } catch (error) {
      if (error instanceof LedgerError) throw ledgerProblem(error, envelopeXdr)
      throw error
    }
  })

  const transactionParam = async (req: Request) => {
    const hash = String(req.params.hash)
    if (!HASH.test(hash)) throw badRequestProblem(`tx_id: ${hash.slice(0, 80)} is not a transaction hash (64 hex digits)`, 'tx_id')
    const tx = await ctx.ledger.getTransaction(ctx.db, hash)
    if (!tx) throw notFoundProblem(`No transaction ${hash.toLowerCase()} on the sandbox ledger.`)
    return tx
  }

  router.get('/transactions/:hash', async (req, res) => {
    recordQuery.parse(req.query)
    res.json(toTransactionRecord(h, await transactionParam(req)))
  })

  for (const kind of ['payments', 'operations']) {
    router.get(`/transactions/:hash/${kind}`, async (req, res) => {
      const { hash } = await transactionParam(req)
      const page = pageRequest(req.query)
      res.json(pageOf(hrefOf(req), page, await paymentsAfter({ txHash: hash }, page.order, page.limit, await cursorOf(page))))
    })
  }

  router.get('/operations/:id', async (req, res) => {
    recordQuery.parse(req.query)
    const id = String(req.params.id)
    if (!OPERATION_ID.test(id) || BigInt(id) >= 2n ** 63n) throw badRequestProblem(`id: ${id.slice(0, 64)} is not an operation id`, 'id')
    const { position, index } = cursorPoint(BigInt(id))
    const [payment] = index < 0 ? [] : await ctx.ledger.listPayments(ctx.db, { after: { position, index: index - 1 }, order: 'asc', limit: 1 })
    if (!payment || payment.txPosition !== position || payment.index !== index) throw notFoundProblem(`No operation ${id} on the sandbox ledger.`)
    res.json(toPaymentRecord(h, payment))
  })

  router.get('/ledgers/:sequence', async (req, res) => {
    recordQuery.parse(req.query)
    const text = String(req.params.sequence)
    if (!LEDGER_SEQUENCE.test(text) || Number(text) > 0xffff_ffff) throw badRequestProblem(`sequence: ${text.slice(0, 64)} is not a ledger sequence`, 'sequence')
    const ledger = await ctx.ledger.getLedger(ctx.db, Number(text))
    // Horizon knows a ledger once it has closed; the sandbox's open ledger is not history yet.
    if (!ledger || ledger.closedAt === null) throw notFoundProblem(`Ledger ${text} has not closed on the sandbox ledger.`)
    res.json(toLedgerRecord(h, { ...ledger, closedAt: ledger.closedAt }, await ctx.ledger.countOperations(ctx.db, ledger.sequence)))
  })

  router.use(horizonNotFound)
  router.use(horizonErrors)
  return router
}
