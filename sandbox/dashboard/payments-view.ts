// The Payments view: the list with the filters of GET /payments in the URL (so a filtered page
// is a link to share), paging, and live updates. Read through the payment service, as the API is.
import { Router, type Request } from 'express'
import { html } from 'ghtml'
import { listPaymentsQuery } from '../../src/api/requests.js'
import { PAYMENT_STATUSES } from '../../src/api/enumerations.js'
import { formatAmount, formatUsdc } from '../checkout/checkout-page.js'
import { toIso } from '../clock.js'
import type { PaymentRow } from '../db/schema.js'
import { pageMeta } from '../http/pagination.js'
import { listPayments } from '../payments/payment-service.js'
import { pageRequest } from '../validation/common.js'
import { dashboardHref, type DashboardKit } from './dashboard-kit.js'
import type { DashboardView } from './dashboard-view.js'

const LIST_FIELDS = ['status', 'startDate', 'endDate', 'storeId', 'page', 'limit'] as const

/** The list's query as the form sends it: empty fields are no filter. */
function listQueryOf(req: Request): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
    if (typeof value === 'string' && value !== '') query[name] = value
    else if (typeof value !== 'string') query[name] = String(value)
  }
  return query
}

export const statusBadge = (status: string, testId = 'status'): string =>
  html`<span class="badge status-${status}" data-testid="${testId}" data-status="${status}">${status}</span>`

const when = (ms: number): string => html`<time datetime="${toIso(ms)}">${toIso(ms).replace('T', ' ').slice(0, 19)}</time>`

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

function pager(query: Record<string, string>, meta: ReturnType<typeof pageMeta>): string {
  const to = (page: number) => dashboardHref('/payments', { ...query, page })
  const previous =
    meta.currentPage > 1 ? html`<a href="${to(meta.currentPage - 1)}" rel="prev" data-testid="page-previous">Previous</a>` : ''
  const next =
    meta.currentPage < meta.totalPages ? html`<a href="${to(meta.currentPage + 1)}" rel="next" data-testid="page-next">Next</a>` : ''
  return html`<nav class="pager" aria-label="Pages">!${previous}<span data-testid="page-position">Page ${meta.currentPage} of ${Math.max(1, meta.totalPages)} · ${meta.totalItems} payments</span>!${next}</nav>`
}

function paymentRoutes(kit: DashboardKit): Router {
  const router = Router()
  router.get(
    '/payments',
    kit.handle(async (req, res) => {
      const merchant = kit.merchantOf(req)
      const raw = listQueryOf(req)
      const query = listPaymentsQuery.parse(raw)
      const page = pageRequest(query)
      const { rows, total } = await listPayments(kit.ctx.db, merchant, query, page)
      const meta = pageMeta(page, total, rows.length)
      const kept = Object.fromEntries(
        LIST_FIELDS.filter((name) => raw[name] !== undefined && name !== 'page').map((name) => [name, raw[name]!]),
      )
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
<section id="payments-list" data-live aria-label="Payments">!${table}!${pager(kept, meta)}</section>`,
      })
    }),
  )
  return router
}

export const paymentsView: DashboardView = { id: 'payments', title: 'Payments', path: '/payments', routes: paymentRoutes }
