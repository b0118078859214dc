// Horizon's network and ledgers: the root and fee stats (read from the newest closed ledger),
// a closed ledger, and its transactions, operations and effects.
import { TransactionBuilder, type Transaction } from '@stellar/stellar-base'
import type { Request, RequestHandler } from 'express'
import { effectsListOrStream, listOrStream, paymentsAfter, transactionsAfter, type HorizonScope } from './horizon-listing.js'
import { recordQuery } from './horizon-paging.js'
import { badRequestProblem, notFoundProblem } from './horizon-problems.js'
import { MAX_TX_SET_SIZE, toFeeStatsRecord, toLedgerRecord, toRootRecord } from './horizon-resources.js'

/** Transactions fee_stats looks at, newest first. */
const FEE_STATS_WINDOW = 100

const LEDGER_SEQUENCE = /^\d{1,10}$/

export function horizonLedgerHandlers(s: HorizonScope) {
  const { ctx, h } = s
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
    await listOrStream(s, req, res, transactionsAfter, { ledger: sequence })
  }

  const ledgerPayments: RequestHandler = async (req, res) => {
    const { sequence } = await ledgerParam(req)
    await listOrStream(s, req, res, paymentsAfter, { ledger: sequence })
  }

  const ledgerEffects: RequestHandler = async (req, res) => {
    const { sequence } = await ledgerParam(req)
    await effectsListOrStream(s, req, res, { ledger: sequence })
  }

  return { root, feeStats, getLedger, ledgerTransactions, ledgerPayments, ledgerEffects }
}
