// HTTP face of payments (spec 4.1–4.3): validates input, owns the transaction, renders JSON.
// Creating and reading one payment are also answered by the fast routes (app/fast-routes.ts),
// through the same paymentAnswers.
import type http from 'node:http'
import { merchantNowOf } from '../clock.js'
import type { SandboxContext } from '../context.js'
import type { MerchantRow } from '../db/schema.js'
import { currentMerchant } from '../http/auth.js'
import { answerIdempotently } from '../http/idempotent-answer.js'
import { sendJson } from '../http/json-response.js'
import { pageLinks, pageMeta } from '../http/pagination.js'
import { idempotencyGate, type StoredResponse } from '../idempotency/idempotency-service.js'
import { toPaymentResource } from './payment-resource.js'
import { createPaymentBody, listPaymentsQuery } from '../../src/api/contract/payments.js'
import { acceptUnderpayment, createPayment, getPayment, getPaymentVersion, listPayments } from './payment-service.js'
import { RenderedPayments } from './rendered-payments.js'
import { noBody } from '../../src/api/validation.js'
import { pageRequest } from '../validation/common.js'
import type { Handlers } from '../openapi/handlers.js'

/** What POST /payments is given, whichever way it arrived. */
export interface CreatePaymentCall {
  merchant: MerchantRow
  headers: http.IncomingHttpHeaders
  /** The parsed JSON body. */
  body: unknown
}

export interface PaymentAnswers {
  /** POST /payments: a new payment, or the stored answer to a repeated Idempotency-Key. */
  create(call: CreatePaymentCall): Promise<StoredResponse>
  /** GET /payments/{id}: the payment as JSON text. */
  get(merchant: MerchantRow, id: string): Promise<string>
}

export function paymentAnswers(ctx: SandboxContext): PaymentAnswers {
  const gate = idempotencyGate(ctx.db)
  const rendered = new RenderedPayments()
  return {
    async create({ merchant, headers, body: given }) {
      const body = createPaymentBody.parse(given)
      return gate.answer(
        { merchantId: merchant.id, headers, path: '/payments', body: given },
        merchantNowOf(ctx, merchant),
        async (trx) => {
          const payment = await createPayment(ctx, trx, merchant, body)
          return { status: 200, body: JSON.stringify(toPaymentResource(payment, ctx)) }
        },
        { writesOnly: true },
      )
    },
    async get(merchant, id) {
      const kept = rendered.get(id, await getPaymentVersion(ctx.db, merchant, id))
      if (kept !== undefined) return kept
      const payment = await getPayment(ctx.db, merchant, id)
      return rendered.set(id, payment.version, JSON.stringify(toPaymentResource(payment, ctx)))
    },
  }
}

export function paymentHandlers(ctx: SandboxContext, answers = paymentAnswers(ctx)) {
  const render = (row: Parameters<typeof toPaymentResource>[0]) => toPaymentResource(row, ctx)

  return {
    createPayment: async (req, res) => {
      const response = await answers.create({ merchant: currentMerchant(req), headers: req.headers, body: req.body })
      sendJson(res, response.status, response.body)
    },
    listPayments: async (req, res) => {
      const merchant = currentMerchant(req)
      const query = listPaymentsQuery.parse(req.query)
      const page = pageRequest(query)
      const { rows, total } = await listPayments(ctx.db, merchant, query, page)
      const meta = pageMeta(page, total, rows.length)
      const links = pageLinks(ctx.publicUrl, '/payments', req.query as Record<string, string>, meta)
      res.json({ items: rows.map(render), meta, links })
    },
    acceptUnderpayment: async (req, res) => {
      const merchant = currentMerchant(req)
      noBody.parse(req.body)
      await answerIdempotently(ctx, req, res, async (trx) => render(await acceptUnderpayment(ctx, trx, merchant, req.params.id)))
    },
    getPayment: async (req, res) => {
      sendJson(res, 200, await answers.get(currentMerchant(req), req.params.id))
    },
  } satisfies Partial<Handlers>
}
