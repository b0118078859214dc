// The Payments view: the list with the filters of GET /payments in the URL (so a filtered page
// is a link to share), paging, and live updates; each payment's detail page and its actions.
// Read and changed through the payment services, as the API is. Every action runs once per
// idempotency key (drawn when its form is rendered), through the API's idempotency gate.
import { Router } from 'express'
import { html } from 'ghtml'
import { listPaymentsQuery } from '../../src/api/contract/payments.js'
import { PAYMENT_STATUSES } from '../../src/api/enumerations.js'
import { formatAmount, formatUsdc } from '../checkout/checkout-page.js'
import type { PaymentRow } from '../db/schema.js'
import { pageMeta } from '../http/pagination.js'
import { getPayment, getPaymentForChange, listPayments } from '../payments/payment-service.js'
import { statusAt } from '../payments/payment-lifecycle.js'
import { hostedUrl, shortUrl, walletUri } from '../payments/payment-resource.js'
import { qrCodePng } from '../checkout/checkout-qr.js'
import { badRequest, notFound } from '../errors.js'
import { idempotencyGate, requestFingerprint } from '../idempotency/idempotency-service.js'
import { recordingFailures } from '../ledger/failed-transactions.js'
import { listDeliveries } from '../webhooks/webhook-repository.js'
import { pageRequest } from '../validation/common.js'
import { dashboardHref, formOf, type DashboardKit } from './dashboard-kit.js'
import { formIdempotencyKey } from './dashboard-forms.js'
import { filledQuery, keptFilters, pager } from './list-query.js'
import { statusBadge, when } from './dashboard-format.js'
import { ACTIONS, isPaymentAction } from './payment-actions.js'
import { renderPaymentDetail } from './payment-detail-page.js'
import type { DashboardView } from './dashboard-view.js'

const LIST_FIELDS = ['status', 'startDate', 'endDate', 'storeId', 'page', 'limit'] as const

function paymentRow(payment: PaymentRow): string {
  return html`<tr data-testid="payment-row" data-payment-id="${payment.id}">
<td>!${when(payment.created_at)}</td>
<td><a href="${dashboardHref(`/payments/${encodeURIComponent(payment.id)}`)}" class="mono">${payment.id}</a></td>
<td data-testid="payment-description">${payment.description}</td>
<td class="num">${formatAmount(payment.amount_value, payment.amount_currency)}</td>
<td class="num">${formatUsdc(payment.usdc_amount)}</td>
<td>!${statusBadge(payment.status)}</td>
<td>!${statusBadge(payment.settlement_status, 'settlement-status')}</td>
</tr>`
}

function filtersForm(query: Record<string, string>): string {
  const options = ['', ...PAYMENT_STATUSES].map(
    (status) => html`<option value="${status}"!${query.status === status ? ' selected' : ''}>${status || 'any'}</option>`,
  )
  return html`<form method="get" action="${dashboardHref('/payments')}" class="filters" data-testid="payment-filters">
<div><label for="filter-status">Status</label><select id="filter-status" name="status">!${options}</select></div>
<div><label for="filter-start">Created from</label><input id="filter-start" name="startDate" type="date" value="${query.startDate ?? ''}"></div>
<div><label for="filter-end">Created until</label><input id="filter-end" name="endDate" type="date" value="${query.endDate ?? ''}"></div>
<div><label for="filter-store">Store id</label><input id="filter-store" name="storeId" value="${query.storeId ?? ''}" maxlength="255"></div>
<div><button type="submit">Filter</button></div>
</form>`
}

function paymentRoutes(kit: DashboardKit): Router {
  const router = Router()
  router.get(
    '/payments',
    kit.handle(async (req, res) => {
      const merchant = kit.merchantOf(req)
      const raw = filledQuery(req)
      const query = listPaymentsQuery.parse(raw)
      const page = pageRequest(query)
      const { rows, total } = await listPayments(kit.ctx.db, merchant, query, page)
      const meta = pageMeta(page, total, rows.length)
      const table =
        rows.length === 0
          ? html`<p data-testid="no-payments">No payments match.</p>`
          : html`<table data-testid="payments-table"><caption class="visually-hidden">Payments of ${merchant.name}, newest first</caption>
<thead><tr><th scope="col">Created</th><th scope="col">Id</th><th scope="col">Description</th><th scope="col" class="num">Amount</th><th scope="col" class="num">USDC</th><th scope="col">Status</th><th scope="col">Settlement</th></tr></thead>
<tbody>!${rows.map(paymentRow)}</tbody></table>`
      await kit.page(req, res, {
        title: 'Payments',
        current: 'payments',
        body: html`<h1>Payments</h1>!${filtersForm(raw)}
<section id="payments-list" data-live aria-label="Payments">!${table}!${pager('/payments', keptFilters(raw, LIST_FIELDS), meta, 'payments')}</section>`,
      })
    }),
  )
  // The QR code is an image of its own: drawing it costs tens of milliseconds that the page's
  // own answer need not wait for, and the browser caches it.
  router.get(
    '/payments/:id/qr.png',
    kit.handle(async (req, res) => {
      const payment = await getPayment(kit.ctx.db, kit.merchantOf(req), String(req.params.id))
      const png = await qrCodePng(walletUri(payment, kit.ctx.identity.usdcIssuer))
      res.type('png').set('cache-control', 'private, max-age=300').send(png)
    }),
  )
  router.get(
    '/payments/:id',
    kit.handle(async (req, res) => {
      const merchant = kit.merchantOf(req)
      // Another merchant's payment is as unknown as a made-up id: 404.
      const payment = await getPayment(kit.ctx.db, merchant, String(req.params.id))
      const { ctx } = kit
      const uri = walletUri(payment, ctx.identity.usdcIssuer)
      const [transactions, deliveries] = await Promise.all([
        ctx.ledger.listTransactionsByMemo(ctx.db, payment.memo),
        listDeliveries(ctx.db, merchant.id, { paymentId: payment.id }, { page: 1, limit: DETAIL_ROWS }),
      ])
      const requests = (kit.requestLog?.recent({ merchantId: merchant.id }, REQUESTS_SCANNED) ?? [])
        .filter((entry) => entry.path.split('/').includes(payment.id))
        .slice(0, DETAIL_ROWS)
      const done = typeof req.query.done === 'string' && isPaymentAction(req.query.done) ? req.query.done : undefined
      await kit.page(req, res, {
        title: `Payment ${payment.id}`,
        current: 'payments',
        liveTopic: payment.id,
        body: renderPaymentDetail({
          payment,
          status: statusAt(payment, ctx.clock.now()),
          now: ctx.clock.now(),
          hostedUrl: hostedUrl(payment, ctx.publicUrl),
          shortUrl: shortUrl(payment, ctx.publicUrl),
          walletUri: uri,
          qrHref: dashboardHref(`/payments/${encodeURIComponent(payment.id)}/qr.png`),
          transactions,
          deliveries: deliveries.rows,
          requests,
          done,
          csrfField: kit.csrfField(req),
          idempotencyField: () => kit.idempotencyField(),
        }),
      })
    }),
  )

  router.post(
    '/payments/:id/actions/:action',
    kit.handle(
      async (req, res) => {
        const merchant = kit.merchantOf(req)
        const [id, actionId] = [String(req.params.id), String(req.params.action)]
        if (!isPaymentAction(actionId)) throw notFound(`No payment action ${actionId.slice(0, 64)}`)
        const action = ACTIONS[actionId]
        const { csrf_token: _csrf, idempotency_key: formKey, confirm, ...fields } = formOf(req)
        const key = formIdempotencyKey(formKey)
        if (action.destructive && confirm !== 'yes') {
          throw badRequest(`Tick the confirmation box to ${action.label.toLowerCase()} this payment; nothing was changed`)
        }
        const { ctx } = kit
        const fingerprint = requestFingerprint('POST', `/dashboard/payments/${id}/actions/${actionId}`, { ...fields, confirm })
        // The API's gate: a second submit of the same form replays the first answer and moves nothing.
        await recordingFailures(ctx, () =>
          idempotencyGate(ctx.db).run(merchant.id, key, fingerprint, ctx.clock.now(), async (trx) => {
            await action.run(ctx, trx, merchant, await getPaymentForChange(trx, merchant, id), fields)
            return { status: 200, body: '{}' }
          }),
        )
        kit.seeOther(res, dashboardHref(`/payments/${encodeURIComponent(id)}`, { done: actionId }))
      },
      (req) => ({ href: dashboardHref(`/payments/${encodeURIComponent(String(req.params.id))}`), label: 'Back to the payment' }),
    ),
  )
  return router
}

/** Deliveries and requests a detail page lists at most. */
const DETAIL_ROWS = 50
/** Recent requests of the merchant searched for the payment's id. */
const REQUESTS_SCANNED = 1000

export const paymentsView: DashboardView = { id: 'payments', title: 'Payments', path: '/payments', routes: paymentRoutes }
