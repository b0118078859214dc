// HTTP face of payments (spec 4.1–4.3): validates input, owns the transaction, renders JSON.
// Creating and reading one payment are also answered by the fast routes (http/fast-routes.ts),
// through the same paymentAnswers.
import type http from 'node:http'
import { Router } from 'express'
import type { SandboxContext } from '../context.js'
import type { MerchantRow } from '../db/schema.js'
import { currentMerchant } from '../http/auth.js'
import { badRequest } from '../http/errors.js'
import { sendJson } from '../http/json-response.js'
import { pageLinks, pageMeta } from '../http/pagination.js'
import { IdempotencyGate, requestFingerprint, type StoredResponse } from '../idempotency/idempotency-service.js'
import { toPaymentResource } from './payment-resource.js'
import { createPaymentBody, listPaymentsQuery, MAX_IDEMPOTENCY_KEY_LENGTH } from './payment-schemas.js'
import { acceptUnderpayment, createPayment, getPayment, getPaymentVersion, listPayments } from './payment-service.js'
import { RenderedPayments } from './rendered-payments.js'
import { noBody, pageRequest } from '../validation/common.js'
import { runTransaction } from '../db/database.js'

function idempotencyKey(headers: http.IncomingHttpHeaders): string | undefined {
  const key = headers['idempotency-key']
  if (key === undefined) return undefined
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw badRequest(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`)
  }
  return key
}

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
  const gate = new IdempotencyGate(ctx.db)
  const rendered = new RenderedPayments()
  return {
    async create({ merchant, headers, body: given }) {
      const body = createPaymentBody.parse(given)
      const key = idempotencyKey(headers)
      const create = async (trx: typeof ctx.db): Promise<StoredResponse> => {
        const payment = await createPayment(ctx, trx, merchant, body)
        return { status: 200, body: JSON.stringify(toPaymentResource(payment, ctx)) }
      }
      if (key === undefined) return runTransaction(ctx.db, create)
      return gate.run(merchant.id, key, requestFingerprint('POST', '/payments', given), ctx.clock.now(), create)
    },
    async get(merchant, id) {
      const kept = rendered.get(id, await getPaymentVersion(ctx.db, merchant, id))
      if (kept !== undefined) return kept
      const payment = await getPayment(ctx.db, merchant, id)
      return rendered.set(id, payment.version, JSON.stringify(toPaymentResource(payment, ctx)))
    },
  }
}

export function paymentRoutes(ctx: SandboxContext, answers = paymentAnswers(ctx)): Router {
  const router = Router()
  const render = (row: Parameters<typeof toPaymentResource>[0]) => toPaymentResource(row, ctx)

  router.post('/payments', async (req, res) => {
    const response = await answers.create({ merchant: currentMerchant(req), headers: req.headers, body: req.body })
    sendJson(res, response.status, response.body)
  })

  router.get('/payments', async (req, res) => {
    const merchant = currentMerchant(req)
    const query = listPaymentsQuery.parse(req.query)
    const page = pageRequest(query)
    const { rows, total } = await listPayments(ctx.db, merchant, query, page)
    const meta = pageMeta(page, total, rows.length)
    const links = pageLinks(ctx.publicUrl, '/payments', req.query as Record<string, string>, meta)
    res.json({ items: rows.map(render), meta, links })
  })

  router.post('/payments/:id/accept-underpayment', async (req, res) => {
    const merchant = currentMerchant(req)
    noBody.parse(req.body)
    const payment = await runTransaction(ctx.db, (trx) => acceptUnderpayment(ctx, trx, merchant, req.params.id))
    res.json(render(payment))
  })

  router.get('/payments/:id', async (req, res) => {
    sendJson(res, 200, await answers.get(currentMerchant(req), req.params.id))
  })

  return router
}
