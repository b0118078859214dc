// GET /dashboard/events: what the open pages refresh on. Built on the sandbox's own feeds: every
// payment event (read from the outbox, so a change made through any replica arrives) and every
// finished webhook delivery (the sender announces it; every replica's feed reads it), of the
// merchant the session looks at. A stream first sends `ready`,
// on which the page fetches itself once, so nothing between render and connection is missed.
import type { RequestHandler } from 'express'
import { ledgerFeed } from '../horizon/horizon-stream.js'
import { openEventSession } from '../http/event-stream.js'
import { markAsStream } from '../http/streams.js'
import { paymentIdOf } from '../webhooks/webhook-events.js'
import type { DashboardKit } from './dashboard-kit.js'

/** What changed: the payment it concerns, and whether it was a payment event or a delivery. */
interface DashboardChange {
  kind: 'payment' | 'delivery' | 'ledger'
  /** Empty for a ledger change (a transaction applied or a ledger closed, on any replica). */
  paymentId: string
}

export function dashboardStream(kit: DashboardKit): RequestHandler {
  // Ledger explorer: every stream of this router hears of ledger changes from Horizon's one feed.
  const ledger = ledgerFeed(kit.ctx)
  return async (req, res) => {
    const merchantId = kit.sessionOf(req).merchant?.id
    const concerns = (id: string) => merchantId === undefined || id === merchantId
    const waiting: DashboardChange[] = []
    let send: ((change: DashboardChange) => void) | undefined
    const deliver = (change: DashboardChange) => (send ? send(change) : waiting.push(change))
    const stops = [
      kit.ctx.webhooks.onEvent((event) => {
        if (concerns(event.merchant_id)) deliver({ kind: 'payment', paymentId: paymentIdOf(event) ?? '' })
      }),
      kit.ctx.webhooks.onDelivery((delivery) => {
        if (concerns(delivery.merchant_id)) deliver({ kind: 'delivery', paymentId: paymentIdOf(delivery) ?? '' })
      }),
      ledger.subscribe(() => deliver({ kind: 'ledger', paymentId: '' })),
    ]
    res.once('close', () => stops.forEach((stop) => stop()))
    markAsStream(res)
    const session = await openEventSession(req, res)
    session.push({}, 'ready')
    send = (change) => session.push(change, 'change')
    for (const change of waiting.splice(0)) send(change)
  }
}
