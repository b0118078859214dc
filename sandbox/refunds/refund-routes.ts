// HTTP face of refunds: POST /payments/{id}/refunds (the sandbox's way to make one), GET
// /refunds (spec 4.6) and GET /refunds/{id}.
import type { SandboxContext } from '../context.js'
import { currentMerchant } from '../http/auth.js'
import { answerIdempotently } from '../http/idempotent-answer.js'
import { pageLinks, pageMeta } from '../http/pagination.js'
import { findPaymentById, findPaymentsByIds } from '../payments/payment-repository.js'
import { pageRequest } from '../validation/common.js'
import { toRefundResource } from './refund-resource.js'
import { createRefundBody, listRefundsQuery } from '../../src/api/contract/payments.js'
import { getRefund, listRefunds, refundPayment } from './refund-service.js'
import type { Handlers } from '../openapi/handlers.js'

export function refundHandlers(ctx: SandboxContext) {
  return {
    refundPayment: async (req, res) => {
      const merchant = currentMerchant(req)
      const body = createRefundBody.parse(req.body)
      await answerIdempotently(ctx, req, res, async (trx) => {
        const { refund, payment } = await refundPayment(ctx, trx, merchant, req.params.id, body)
        return toRefundResource(refund, payment, ctx)
      })
    },
    listRefunds: async (req, res) => {
      const merchant = currentMerchant(req)
      const query = listRefundsQuery.parse(req.query)
      const page = pageRequest(query)
      const { rows, total } = await listRefunds(ctx.db, merchant, page)
      const payments = new Map(
        (
          await findPaymentsByIds(
            ctx.db,
            rows.map((row) => row.payment_id),
          )
        ).map((p) => [p.id, p]),
      )
      const meta = pageMeta(page, total, rows.length)
      const links = pageLinks(ctx.publicUrl, '/refunds', req.query as Record<string, string>, meta)
      res.json({ items: rows.map((row) => toRefundResource(row, payments.get(row.payment_id)!, ctx)), meta, links })
    },
    getRefund: async (req, res) => {
      const merchant = currentMerchant(req)
      const refund = await getRefund(ctx.db, merchant, req.params.id)
      const payment = await findPaymentById(ctx.db, refund.payment_id)
      res.json(toRefundResource(refund, payment!, ctx))
    },
  } satisfies Partial<Handlers>
}
