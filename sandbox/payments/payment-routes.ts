// HTTP face of payments (spec 4.1–4.3): validates input, owns the transaction, renders JSON.
import { Router, type Request } from 'express'
import type { SandboxContext } from '../context.js'
import { currentMerchant } from '../http/auth.js'
import { badRequest } from '../http/errors.js'
import { sendJson } from '../http/json-response.js'
import { pageLinks, pageMeta } from '../http/pagination.js'
import { IdempotencyGate, requestFingerprint, type StoredResponse } from '../idempotency/idempotency-service.js'
import { toPaymentResource } from './payment-resource.js'
import { createPaymentBody, listPaymentsQuery, MAX_IDEMPOTENCY_KEY_LENGTH } from './payment-schemas.js'
import { acceptUnderpayment, createPayment, getPayment, listPayments } from './payment-service.js'
import { noBody, pageRequest } from '../validation/common.js'

function idempotencyKey(req: Request): string | undefined {
  const key = req.headers['idempotency-key']
  if (key === undefined) return undefined
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw badRequest(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`)
  }
  return key
}

export function paymentRoutes(ctx: SandboxContext): Router {
  const router = Router()
  const gate = new IdempotencyGate(ctx.db)
  const render = (row: Parameters<typeof toPaymentResource>[0]) => toPaymentResource(row, ctx)

  router.post('/payments', async (req, res) => {
    const merchant = currentMerchant(req)
    const body = createPaymentBody.parse(req.body)
    const key = idempotencyKey(req)
    const create = async (trx: typeof ctx.db): Promise<StoredResponse> => {
      const payment = await createPayment(ctx, trx, merchant, body)
      return { status: 200, body: JSON.stringify(render(payment)) }
    }
    const response =
      key === undefined
        ? await ctx.db.transaction().execute(create)
        : await gate.run(merchant.id, key, requestFingerprint(req.method, req.path, req.body), ctx.clock.now(), create)
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
    const payment = await ctx.db.transaction().execute((trx) => acceptUnderpayment(ctx, trx, merchant, req.params.id))
    res.json(render(payment))
  })

  router.get('/payments/:id', async (req, res) => {
    const payment = await getPayment(ctx.db, currentMerchant(req), req.params.id)
    sendJson(res, 200, JSON.stringify(render(payment)))
  })

  return router
}
