// The webhook delivery log (spec 4.15) under /merchants/{merchantId}: list, one entry, resend,
// and two live streams (server-sent events) for the CLI: finished deliveries (`webhooks tail`)
// and every payment event (`listen`). Webhook pause and resume live here too.
import { type Request, type Response } from 'express'
import { eventsQuery, webhookLogQuery } from '../../src/api/contract/webhook-logs.js'
import { toIso } from '../clock.js'
import type { SandboxContext } from '../context.js'
import type { MerchantRow, PaymentEventRow, WebhookDeliveryRow } from '../db/schema.js'
import { currentMerchant } from '../http/auth.js'
import { notFound } from '../errors.js'
import { pageMeta } from '../http/pagination.js'
import { openEventSession, streamLiveItems } from '../http/event-stream.js'
import { markAsStream } from '../http/streams.js'
import { noBody } from '../../src/api/validation.js'
import { pageRequest } from '../validation/common.js'
import { toDeliveryResource } from './webhook-log-resource.js'
import { paymentIdOf } from './webhook-events.js'
import { getDelivery, resendDelivery, setWebhooksPaused } from './webhook-controls.js'
import { getPayment } from '../payments/payment-service.js'
import { eventComing } from './webhook-events.js'
import { countPendingDeliveries, findEventsAfter, lastEventSequence, listDeliveries } from './webhook-repository.js'
import type { Handlers } from '../openapi/handlers.js'

/** Stored events a resuming stream is sent at most. */
const CATCH_UP_LIMIT = 10_000

const toEventResource = (event: PaymentEventRow) => ({
  sequence: event.sequence,
  event_type: event.event_type,
  checkout_id: paymentIdOf(event),
  payload: event.payload,
  created_at: toIso(event.created_at),
})

export function webhookLogHandlers(ctx: SandboxContext) {
  /** The authenticated merchant, which must be the one in the path: another merchant's log is 404. */
  const merchantOf = (req: Request): MerchantRow => {
    const merchant = currentMerchant(req)
    if (req.params.merchantId !== merchant.id) throw notFound(`No merchant ${String(req.params.merchantId).slice(0, 64)}`)
    return merchant
  }

  const setPaused = (paused: boolean) => async (req: Request, res: Response) => {
    const merchant = merchantOf(req)
    noBody.parse(req.body)
    await setWebhooksPaused(ctx, merchant.id, paused)
    res.json({ merchant_id: merchant.id, webhooks_paused: paused })
  }
  return {
    listWebhookDeliveries: async (req, res) => {
      const merchant = merchantOf(req)
      const query = webhookLogQuery.parse(req.query)
      const page = pageRequest(query)
      const { rows, total } = await listDeliveries(ctx.db, merchant.id, { status: query.status, paymentId: query.checkout_id }, page)
      res.json({ items: rows.map((row) => toDeliveryResource(row, 'summary')), meta: pageMeta(page, total, rows.length) })
    },
    // Finished deliveries as they happen, full entries; nothing is replayed from before connecting.
    streamWebhookDeliveries: async (req, res) => {
      const merchant = merchantOf(req)
      await streamLiveItems<WebhookDeliveryRow>(
        req,
        res,
        (deliver) =>
          ctx.webhooks.onDelivery((delivery) => {
            if (delivery.merchant_id === merchant.id) deliver(delivery)
          }),
        (session, delivery) => session.push(toDeliveryResource(delivery, 'full'), 'delivery', delivery.id),
      )
    },
    getWebhookDelivery: async (req, res) => {
      const merchant = merchantOf(req)
      res.json(toDeliveryResource(await getDelivery(ctx, merchant.id, req.params.id), 'full'))
    },
    resendWebhookDelivery: async (req, res) => {
      const merchant = merchantOf(req)
      noBody.parse(req.body)
      res.json(toDeliveryResource(await resendDelivery(ctx, merchant.id, req.params.id), 'full'))
    },
    // Every payment event of the merchant, with or without webhookUrl: what `paybox listen`
    // forwards. A new stream first gets a `ready` event whose id is the latest event's sequence,
    // so a client that reconnects with it as Last-Event-ID misses nothing even before its first
    // event. Resuming (Last-Event-ID or ?after=) first sends the stored events after that point.
    streamPaymentEvents: async (req, res) => {
      const merchant = merchantOf(req)
      const { after } = eventsQuery.parse(req.query)
      // Live events wait while the stream opens and catches up; the cursor sends each once.
      let catchingUp = true
      const waiting: PaymentEventRow[] = []
      const stop = ctx.webhooks.onEvent((event) => {
        if (event.merchant_id !== merchant.id) return
        if (catchingUp) waiting.push(event)
        else send(event)
      })
      res.once('close', stop)
      markAsStream(res)
      const session = await openEventSession(req, res)
      const lastId = /^\d{1,15}$/.test(session.lastId) ? Number(session.lastId) : undefined
      const resumeFrom = after ?? lastId
      let cursor = resumeFrom ?? (await lastEventSequence(ctx.db))
      const send = (event: PaymentEventRow) => {
        if (event.sequence <= cursor) return
        session.push(toEventResource(event), 'payment_event', String(event.sequence))
        cursor = event.sequence
      }
      if (resumeFrom === undefined) {
        session.push({ sequence: cursor }, 'ready', String(cursor))
      } else {
        for (const event of await findEventsAfter(ctx.db, cursor, CATCH_UP_LIMIT)) if (event.merchant_id === merchant.id) send(event)
      }
      catchingUp = false
      for (const event of waiting.splice(0)) send(event)
    },
    // The payment is read first: the change that ends a settlement in processing queues its
    // delivery in the same transaction, so a count read after the payment holds that delivery.
    getPaymentWebhooksState: async (req, res) => {
      const payment = await getPayment(ctx.db, currentMerchant(req), req.params.id)
      const coming = eventComing(payment)
      const pending = await countPendingDeliveries(ctx.db, payment.id)
      res.json({ checkout_id: payment.id, event_coming: coming, pending_deliveries: pending, quiet: !coming && pending === 0 })
    },
    pauseWebhooks: setPaused(true),
    resumeWebhooks: setPaused(false),
  } satisfies Partial<Handlers>
}
