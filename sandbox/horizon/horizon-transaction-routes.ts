// Horizon's transactions: the list of them, one by its hash, and its operations and effects.
import type { Request, RequestHandler } from 'express'
import {
  effectsListOrStream,
  hrefOf,
  cursorOf,
  listOrStream,
  paymentsAfter,
  transactionsAfter,
  type HorizonScope,
} from './horizon-listing.js'
import { pageOf, pageRequest, recordQuery } from './horizon-paging.js'
import { badRequestProblem, notFoundProblem } from './horizon-problems.js'
import { toTransactionRecord } from './horizon-resources.js'

const HASH = /^[0-9a-f]{64}$/i

export function horizonTransactionHandlers(s: HorizonScope) {
  const { ctx } = s
  const transactionParam = async (req: Request) => {
    const hash = String(req.params.hash)
    if (!HASH.test(hash)) throw badRequestProblem(`tx_id: ${hash.slice(0, 80)} is not a transaction hash (64 hex digits)`, 'tx_id')
    const tx = await ctx.ledger.getTransaction(ctx.db, hash)
    if (!tx) throw notFoundProblem(`No transaction ${hash.toLowerCase()} on the sandbox ledger.`)
    return tx
  }

  const transactions: RequestHandler = async (req, res) => {
    await listOrStream(s, req, res, transactionsAfter)
  }

  const getTransaction: RequestHandler = async (req, res) => {
    recordQuery.parse(req.query)
    res.json(toTransactionRecord(s.h, await transactionParam(req)))
  }

  const transactionPayments: RequestHandler = async (req, res) => {
    const { hash } = await transactionParam(req)
    const page = pageRequest(req.query)
    const filter = { txHash: hash, includeFailed: true, joinTransactions: page.joinTransactions }
    res.json(pageOf(hrefOf(s, req), page, await paymentsAfter(s, filter, page.order, page.limit, await cursorOf(s, page))))
  }

  const transactionEffects: RequestHandler = async (req, res) => {
    const { hash } = await transactionParam(req)
    await effectsListOrStream(s, req, res, { txHash: hash })
  }

  return { transactions, getTransaction, transactionPayments, transactionEffects }
}
