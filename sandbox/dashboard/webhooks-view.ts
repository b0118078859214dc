// The Webhooks view: the delivery log filtered by status, event and payment (filters in the URL,
// paging, refreshed live as deliveries finish), each delivery as sent, and its actions: resend
// (the API's resend service and its 10-a-minute limit), pause and resume, and grading a receiver
// with the battery of `paybox webhooks test-receiver` (src/webhooks/receiver-grading.ts, the same code).
import { randomUUID } from 'node:crypto'
import { Router } from 'express'
import { html } from 'ghtml'
import { z } from 'zod'
import { WEBHOOK_EVENT_TYPES } from '../../src/api/enumerations.js'
import { webhookLogQuery } from '../../src/api/contract/webhook-logs.js'
import { MAX_URL_LENGTH } from '../../src/api/validation.js'
import { gradeReceiver, type GradingReport } from '../../src/webhooks/receiver-grading.js'
import { toIso } from '../clock.js'
import { ApiError, badRequest } from '../errors.js'
import { pageMeta } from '../http/pagination.js'
import { idempotencyGate, requestFingerprint } from '../idempotency/idempotency-service.js'
import { pageRequest } from '../validation/common.js'
import { getDelivery, resendDelivery, setWebhooksPaused } from '../webhooks/webhook-controls.js'
import { paymentIdOf } from '../webhooks/webhook-events.js'
import { listDeliveries } from '../webhooks/webhook-repository.js'
import { deliveryHeaders } from '../webhooks/webhook-sender.js'
import { dashboardHref, formOf, type DashboardKit } from './dashboard-kit.js'
import { formIdempotencyKey } from './dashboard-forms.js'
import type { DashboardView } from './dashboard-view.js'
import { filledQuery, keptFilters } from './list-query.js'
import { deliveriesList, deliveryDetail, deliveryHref, testReceiverPage } from './webhook-delivery-page.js'

/** The log's filters: the API's (status, checkout_id, page, limit) and the event type. */
const deliveriesQuery = webhookLogQuery.extend({
  event: z.enum(WEBHOOK_EVENT_TYPES, { message: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }).optional(),
})
const FILTER_FIELDS = ['status', 'event', 'checkout_id', 'limit'] as const
/** Grading reports kept for their page (POST-redirect-GET), per process; older ones are dropped. */
const KEPT_REPORTS = 50

/** The receiver URL of the test form, or a readable 400. */
async function receiverUrlOf(kit: DashboardKit, raw: string | undefined): Promise<string> {
  const url = (raw ?? '').trim()
  if (url === '') throw badRequest('url: give the URL of your webhook receiver')
  if (url.length > MAX_URL_LENGTH) throw badRequest(`url: longer than ${MAX_URL_LENGTH} characters`)
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw badRequest(`url: "${url.slice(0, 64)}" is not an http or https URL`)
  // A shared sandbox sends nothing to internal addresses, test events included.
  const refusal = await kit.ctx.webhooks.webhookUrlRefusal(kit.ctx.db, parsed.href)
  if (refusal !== undefined) throw badRequest(`url: ${refusal}`)
  return parsed.href
}

function webhookRoutes(kit: DashboardKit): Router {
  const router = Router()
  const { ctx } = kit
  const reports = new Map<string, { session: string; report: GradingReport }>()
  const back = { href: dashboardHref('/webhooks'), label: 'Back to the webhooks' }

  router.get(
    '/webhooks',
    kit.handle(async (req, res) => {
      const merchant = kit.merchantOf(req)
      const raw = filledQuery(req)
      const query = deliveriesQuery.parse(raw)
      const page = pageRequest(query)
      const filters = { status: query.status, paymentId: query.checkout_id, eventType: query.event }
      const { rows, total } = await listDeliveries(ctx.db, merchant.id, filters, page)
      const kept = keptFilters(raw, FILTER_FIELDS)
      await kit.page(req, res, {
        title: 'Webhooks',
        current: 'webhooks',
        body: deliveriesList({
          query: kept,
          rows,
          meta: pageMeta(page, total, rows.length),
          paused: merchant.webhooks_paused === 1,
          csrfField: kit.csrfField(req),
        }),
      })
    }),
  )

  for (const [action, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    router.post(
      `/webhooks/${action}`,
      kit.handle(
        async (req, res) => {
          const merchant = kit.merchantOf(req)
          if (formOf(req).confirm !== 'yes') throw badRequest(`Tick the confirmation box to ${action} webhooks; nothing was changed`)
          // Setting the state it is already in changes nothing: a second submit is harmless.
          await setWebhooksPaused(ctx, merchant.id, paused)
          kit.seeOther(res, dashboardHref('/webhooks'))
        },
        () => back,
      ),
    )
  }

  router.get(
    '/webhooks/deliveries/:id',
    kit.handle(async (req, res) => {
      const merchant = kit.merchantOf(req)
      const delivery = await getDelivery(ctx, merchant.id, String(req.params.id))
      const resentFrom = typeof req.query.resent_from === 'string' ? req.query.resent_from : undefined
      const notice =
        resentFrom !== undefined
          ? html`<p class="notice" role="status" data-testid="done">Resent: this is the new delivery of <a class="mono" href="${deliveryHref(resentFrom)}">${resentFrom}</a>.</p>`
          : req.query.repeated === '1'
            ? html`<p class="notice" role="status" data-testid="done">That resend form was already submitted: nothing was sent again.</p>`
            : ''
      await kit.page(req, res, {
        title: `Delivery ${delivery.id}`,
        current: 'webhooks',
        liveTopic: paymentIdOf(delivery) ?? undefined,
        body: deliveryDetail({
          delivery,
          headers: deliveryHeaders(delivery, merchant.api_secret),
          notice,
          csrfField: kit.csrfField(req),
          idempotencyField: kit.idempotencyField(),
        }),
      })
    }),
  )

  router.post(
    '/webhooks/deliveries/:id/resend',
    kit.handle(
      async (req, res) => {
        const merchant = kit.merchantOf(req)
        const id = String(req.params.id)
        const key = formIdempotencyKey(formOf(req).idempotency_key)
        await getDelivery(ctx, merchant.id, id)
        // The form's key is claimed first: a second submit of the same form sends nothing again.
        let first = false
        const fingerprint = requestFingerprint('POST', `/dashboard/webhooks/deliveries/${id}/resend`, {})
        await idempotencyGate(ctx.db).run(merchant.id, key, fingerprint, ctx.clock.now(), () => {
          first = true
          return Promise.resolve({ status: 200, body: '{}' })
        })
        if (!first) return kit.seeOther(res, dashboardHref(`/webhooks/deliveries/${encodeURIComponent(id)}`, { repeated: 1 }))
        try {
          const resent = await resendDelivery(ctx, merchant.id, id)
          kit.seeOther(res, dashboardHref(`/webhooks/deliveries/${encodeURIComponent(resent.id)}`, { resent_from: id }))
        } catch (error) {
          if (!(error instanceof ApiError) || error.statusCode !== 429) throw error
          const seconds = Number(error.headers['Retry-After'] ?? 60)
          const next = toIso(ctx.wallClock.now() + seconds * 1000)
          throw new ApiError(
            429,
            error.reason,
            `${error.message}. The next resend is allowed at ${next.replace('T', ' ').slice(0, 19)} UTC.`,
            error.headers,
          )
        }
      },
      (req) => ({ href: deliveryHref(String(req.params.id)), label: 'Back to the delivery' }),
    ),
  )

  router.get(
    '/webhooks/test',
    kit.handle(async (req, res) => {
      kit.merchantOf(req)
      const id = typeof req.query.report === 'string' ? req.query.report : undefined
      const kept = id === undefined ? undefined : reports.get(id)
      // A report is its session's: another session's id is as unknown as a made-up one.
      const report = kept?.session === kit.sessionOf(req).idHash ? kept.report : undefined
      await kit.page(req, res, {
        title: 'Send a test event',
        current: 'webhooks',
        body: testReceiverPage({ url: report?.url ?? '', csrfField: kit.csrfField(req), report }),
      })
    }),
  )

  router.post(
    '/webhooks/test',
    kit.handle(
      async (req, res) => {
        const merchant = kit.merchantOf(req)
        const url = await receiverUrlOf(kit, formOf(req).url)
        const report = await gradeReceiver({
          url,
          secret: merchant.api_secret,
          now: () => ctx.clock.now(),
          fetch: await ctx.webhooks.receiverFetch(),
        })
        const id = randomUUID()
        reports.set(id, { session: kit.sessionOf(req).idHash, report })
        for (const old of reports.keys()) if (reports.size > KEPT_REPORTS) reports.delete(old)
        kit.seeOther(res, dashboardHref('/webhooks/test', { report: id }))
      },
      () => ({ href: dashboardHref('/webhooks/test'), label: 'Back to the test form' }),
    ),
  )
  return router
}

export const webhooksView: DashboardView = { id: 'webhooks', title: 'Webhooks', path: '/webhooks', routes: webhookRoutes }
