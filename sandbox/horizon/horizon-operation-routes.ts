// Horizon's operations and effects: every operation on the sandbox ledger is a payment, so
// /payments and /operations list the same records; each payment gives its effects.
import type { Request, RequestHandler } from 'express'
import { compareEffects, effectsOf, effectsPageQuery, parseEffectCursor, toEffectRecord } from './horizon-effects.js'
import { effectsListOrStream, hrefOf, listOrStream, paymentsAfter, type HorizonScope } from './horizon-listing.js'
import { cursorPoint, pageOf, pageRequest, recordQuery } from './horizon-paging.js'
import { badRequestProblem, notFoundProblem } from './horizon-problems.js'
import { toPaymentRecord } from './horizon-resources.js'

const OPERATION_ID = /^\d{1,19}$/

export function horizonOperationHandlers(s: HorizonScope) {
  const { ctx } = s
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

  const payments: RequestHandler = async (req, res) => {
    await listOrStream(s, req, res, paymentsAfter)
  }

  const getOperation: RequestHandler = async (req, res) => {
    recordQuery.parse(req.query)
    res.json(toPaymentRecord(s.h, await operationParam(req)))
  }

  const allEffects: RequestHandler = async (req, res) => {
    await effectsListOrStream(s, req, res)
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
        hrefOf(s, req),
        page,
        effects.map((effect) => toEffectRecord(s.h, effect)),
      ),
    )
  }

  return { payments, getOperation, allEffects, operationEffects }
}
