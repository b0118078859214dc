// The Overview, the dashboard's start page: the merchants (an admin's) or the merchant, the
// business clock, payments by status and the last hour's webhook outcomes drawn as inline SVG
// bars (each figure also in a table for screen readers), and the last failed API requests.
// Every figure reads a few rows: the per-status counts the triggers keep, and one bounded range
// of the deliveries index; it refreshes on the dashboard's events like the other views.
import { Router } from 'express'
import { html } from 'ghtml'
import type { RequestLogEntry } from '../../src/client/types.js'
import { PAYMENT_STATUSES } from '../../src/api/enumerations.js'
import { toIso } from '../clock.js'
import type { MerchantRow } from '../db/schema.js'
import { listMerchants } from '../merchants/merchant-repository.js'
import { countPaymentsByStatus } from '../payments/payment-repository.js'
import { readFrozenAtMs } from '../simulation/clock-service.js'
import { countDeliveryOutcomes } from '../webhooks/webhook-repository.js'
import { when } from './dashboard-format.js'
import { dashboardHref, type DashboardKit } from './dashboard-kit.js'
import type { DashboardView } from './dashboard-view.js'

const BUCKET_MS = 5 * 60_000
const BUCKETS = 12
const LAST_ERRORS = 10

interface Bucket {
  start: number
  success: number
  failed: number
}

/** A badge coloured like a status (`tone`) that says `text`. */
const badge = (tone: string, text: string, testId: string) =>
  html`<span class="badge status-${tone}" data-testid="${testId}" data-value="${text}">${text}</span>`
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`
const clockTime = (ms: number) => toIso(ms).slice(11, 16)

/** Horizontal bars, one per payment status; the numbers are also in the table beside it. */
function paymentsChart(counts: Map<string, number>): string {
  const max = Math.max(1, ...counts.values())
  const rowHeight = 28
  const labelWidth = 96
  const barSpace = 300
  const summary = PAYMENT_STATUSES.map((status) => `${counts.get(status) ?? 0} ${status}`).join(', ')
  const rows = PAYMENT_STATUSES.map((status, index) => {
    const count = counts.get(status) ?? 0
    const y = index * rowHeight
    const width = count === 0 ? 0 : Math.max(2, Math.round((count / max) * barSpace))
    return html`<text x="0" y="${y + 18}" class="chart-label">${status}</text><rect x="${labelWidth}" y="${y + 5}" width="${width}" height="18" class="bar bar-${status}" data-testid="payment-bar" data-status="${status}" data-count="${count}"></rect><text x="${labelWidth + width + 6}" y="${y + 18}" class="chart-value">${count}</text>`
  })
  const height = PAYMENT_STATUSES.length * rowHeight
  return html`<svg class="chart" viewBox="0 0 ${labelWidth + barSpace + 80} ${height}" role="img" aria-labelledby="payments-chart-title" data-testid="payments-chart">
<title id="payments-chart-title">Payments by status: ${summary}</title>!${rows}</svg>
<table class="visually-hidden" data-testid="payments-figures"><caption>Payments by status</caption><thead><tr><th scope="col">Status</th><th scope="col">Payments</th></tr></thead>
<tbody>!${PAYMENT_STATUSES.map((status) => html`<tr><th scope="row">${status}</th><td>${counts.get(status) ?? 0}</td></tr>`)}</tbody></table>`
}

/** A pair of columns (successes, failures) per five minutes of the last hour. */
function webhooksChart(buckets: Bucket[]): string {
  const max = Math.max(1, ...buckets.flatMap((b) => [b.success, b.failed]))
  const slot = 40
  const plot = 120
  const top = 16
  const successes = buckets.reduce((sum, b) => sum + b.success, 0)
  const failures = buckets.reduce((sum, b) => sum + b.failed, 0)
  const columns = buckets.map((bucket, index) => {
    const x = index * slot + 4
    const bar = (count: number, offset: number, kind: 'success' | 'failure') => {
      const height = count === 0 ? 0 : Math.max(2, Math.round((count / max) * plot))
      return html`<rect x="${x + offset}" y="${top + plot - height}" width="15" height="${height}" class="bar bar-${kind}" data-testid="webhook-bar" data-kind="${kind}" data-bucket="${toIso(bucket.start)}" data-count="${count}"></rect>`
    }
    const label = index % 3 === 0 ? html`<text x="${x}" y="${top + plot + 16}" class="chart-label">${clockTime(bucket.start)}</text>` : ''
    return html`!${bar(bucket.success, 0, 'success')}!${bar(bucket.failed, 17, 'failure')}!${label}`
  })
  const rows = buckets.map(
    (b) =>
      html`<tr><th scope="row">${clockTime(b.start)}–${clockTime(b.start + BUCKET_MS)}</th><td>${b.success}</td><td>${b.failed}</td></tr>`,
  )
  return html`<svg class="chart" viewBox="0 0 ${BUCKETS * slot + 8} ${top + plot + 24}" role="img" aria-labelledby="webhooks-chart-title" data-testid="webhooks-chart" data-successes="${successes}" data-failures="${failures}">
<title id="webhooks-chart-title">Webhook deliveries in the last hour: ${plural(successes, 'success', 'successes')} and ${plural(failures, 'failure')}, per 5 minutes</title>
<line x1="0" y1="${top + plot}" x2="${BUCKETS * slot + 8}" y2="${top + plot}" class="chart-axis"></line>!${columns}</svg>
<p class="legend" aria-hidden="true"><span class="key key-success"></span> succeeded <span class="key key-failure"></span> failed</p>
<table class="visually-hidden" data-testid="webhooks-figures"><caption>Webhook deliveries per 5 minutes (UTC)</caption><thead><tr><th scope="col">Time</th><th scope="col">Succeeded</th><th scope="col">Failed</th></tr></thead><tbody>!${rows}</tbody></table>`
}

function merchantsSection(
  merchants: MerchantRow[],
  totals: Map<string, number>,
  current: MerchantRow | undefined,
  isAdmin: boolean,
): string {
  if (!isAdmin) {
    return current
      ? html`<dl class="facts" data-testid="overview-merchant"><dt>Merchant</dt><dd>${current.name}</dd><dt>Id</dt><dd class="mono">${current.id}</dd><dt>Settlement</dt><dd>${current.settlement_mode}</dd><dt>Payments</dt><dd>${totals.get(current.id) ?? 0}</dd></dl>`
      : ''
  }
  const rows = merchants.map(
    (m) =>
      html`<tr data-testid="overview-merchant-row" data-merchant-id="${m.id}"><td>${m.name}!${m.id === current?.id ? ' <span class="badge">selected</span>' : ''}</td><td class="mono">${m.id}</td><td>${m.settlement_mode}</td><td class="num">${totals.get(m.id) ?? 0}</td></tr>`,
  )
  return html`<table data-testid="overview-merchants"><caption class="visually-hidden">Merchants and their payments</caption><thead><tr><th scope="col">Merchant</th><th scope="col">Id</th><th scope="col">Settlement</th><th scope="col" class="num">Payments</th></tr></thead><tbody>!${rows}</tbody></table>
<p><a href="${dashboardHref('/merchants')}">Manage merchants</a></p>`
}

function errorsSection(errors: RequestLogEntry[] | undefined): string {
  if (errors === undefined) return html`<p>This sandbox keeps no request log.</p>`
  if (errors.length === 0) return html`<p data-testid="no-errors">No failed requests lately.</p>`
  const rows = errors.map(
    (e) =>
      html`<tr data-testid="error-row" data-status="${e.status}"><td>!${when(Date.parse(e.time))}</td><td>${e.method}</td><td class="mono">${e.path}</td><td>!${badge(e.status >= 500 ? 'failed' : 'underpaid', String(e.status), 'error-status')}</td><td class="mono">${e.requestId}</td></tr>`,
  )
  return html`<table data-testid="overview-errors"><caption class="visually-hidden">The last failed requests, newest first</caption><thead><tr><th scope="col">Time (UTC)</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Request id</th></tr></thead><tbody>!${rows}</tbody></table>`
}

function overviewRoutes(kit: DashboardKit): Router {
  const router = Router()
  const { ctx } = kit

  router.get(
    '/overview',
    kit.handle(async (req, res) => {
      const session = kit.sessionOf(req)
      const current = session.merchant
      const now = ctx.clock.now()
      // Aligned buckets: a refresh moves the picture only when a new five minutes begins.
      const since = (Math.floor(now / BUCKET_MS) - (BUCKETS - 1)) * BUCKET_MS
      const merchants = session.isAdmin ? await listMerchants(ctx.db) : current ? [current] : []
      const [frozenAt, counts, outcomes] = await Promise.all([
        readFrozenAtMs(ctx.db),
        countPaymentsByStatus(ctx.db, session.isAdmin ? undefined : current?.id),
        countDeliveryOutcomes(ctx.db, current ? [current.id] : merchants.map((m) => m.id), since, BUCKET_MS, BUCKETS),
      ])
      const totals = new Map<string, number>()
      const byStatus = new Map<string, number>()
      for (const row of counts) {
        totals.set(row.merchantId, (totals.get(row.merchantId) ?? 0) + row.count)
        if (!current || row.merchantId === current.id) byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + row.count)
      }
      const buckets: Bucket[] = Array.from({ length: BUCKETS }, (_, i) => ({ start: since + i * BUCKET_MS, success: 0, failed: 0 }))
      for (const row of outcomes) {
        const bucket = buckets[row.bucket]
        if (bucket && (row.status === 'success' || row.status === 'failed')) bucket[row.status] += row.count
      }
      // A merchant sees its own failed requests; an admin every one.
      const filter = session.isAdmin ? {} : { merchantId: current?.id ?? '' }
      const errors = kit.requestLog
        ? [
            ...kit.requestLog.recent({ ...filter, status: '4xx' }, LAST_ERRORS),
            ...kit.requestLog.recent({ ...filter, status: '5xx' }, LAST_ERRORS),
          ]
            .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0))
            .slice(0, LAST_ERRORS)
        : undefined
      const scope = current ? current.name : 'all merchants'
      const clockState = frozenAt === undefined ? 'running' : 'frozen'
      await kit.page(req, res, {
        title: 'Overview',
        current: 'overview',
        body: html`<h1>Overview</h1>
<div id="overview-live" data-live>
<div class="columns">
<section aria-labelledby="overview-merchants-heading"><h2 id="overview-merchants-heading">!${session.isAdmin ? 'Merchants' : 'Merchant'}</h2>!${merchantsSection(merchants, totals, current, session.isAdmin)}</section>
<section aria-labelledby="overview-clock-heading"><h2 id="overview-clock-heading">Business clock</h2><dl class="facts" data-testid="overview-clock"><dt>Now</dt><dd data-testid="overview-now" data-now="${toIso(now)}">!${when(now)}</dd><dt>State</dt><dd>!${badge(frozenAt === undefined ? 'success' : 'pending', clockState, 'overview-clock-state')}</dd></dl>!${session.isAdmin ? html`<p><a href="${dashboardHref('/clock')}">Clock and state</a></p>` : ''}</section>
</div>
<div class="columns">
<section aria-labelledby="overview-payments-heading"><h2 id="overview-payments-heading">Payments by status <small>(${scope})</small></h2>!${paymentsChart(byStatus)}<p><a href="${dashboardHref('/payments')}">All payments</a></p></section>
<section aria-labelledby="overview-webhooks-heading"><h2 id="overview-webhooks-heading">Webhooks, last hour <small>(${scope})</small></h2>!${webhooksChart(buckets)}</section>
</div>
<section aria-labelledby="overview-errors-heading"><h2 id="overview-errors-heading">Last errors</h2>!${errorsSection(errors)}</section>
</div>`,
      })
    }),
  )
  return router
}

export const overviewView: DashboardView = {
  id: 'overview',
  title: 'Overview',
  path: '/overview',
  routes: overviewRoutes,
}
