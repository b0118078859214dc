// The pages of the Webhooks view: the delivery log with its filters and pager, one delivery as it
// went over the wire (the stored payload byte for byte, the headers with the signature, the
// receiver's answer), and a receiver's grades. Only templates: webhooks-view.ts reads and acts.
import { html } from 'ghtml'
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from '../../src/api/enumerations.js'
import type { GradingReport, SendResult } from '../../src/webhooks/receiver-grading.js'
import type { WebhookDeliveryRow } from '../db/schema.js'
import type { pageMeta } from '../http/pagination.js'
import { dashboardHref } from './dashboard-kit.js'
import { pager } from './list-query.js'
import { statusBadge, when } from './dashboard-format.js'
import { paymentIdOf } from '../webhooks/webhook-events.js'

/** A payment's deliveries link to it; another subject's (an invoice, a refund) are named by kind and id. */
const subjectLink = (d: WebhookDeliveryRow): string => {
  const paymentId = paymentIdOf(d)
  return paymentId === null
    ? html`<span class="mono">${d.subject_type} ${d.subject_id}</span>`
    : html`<a class="mono" href="${dashboardHref(`/payments/${encodeURIComponent(paymentId)}`)}">${paymentId}</a>`
}

export const deliveryHref = (id: string): string => dashboardHref(`/webhooks/deliveries/${encodeURIComponent(id)}`)

function options(values: readonly string[], selected: string | undefined): string {
  return ['', ...values]
    .map((value) => html`<option value="${value}"!${selected === value ? ' selected' : ''}>${value || 'any'}</option>`)
    .join('')
}

export function deliveriesList(input: {
  query: Record<string, string>
  rows: WebhookDeliveryRow[]
  meta: ReturnType<typeof pageMeta>
  paused: boolean
  csrfField: string
}): string {
  const { query, rows, meta } = input
  const filters = html`<form method="get" action="${dashboardHref('/webhooks')}" class="filters" data-testid="delivery-filters">
<div><label for="filter-status">Status</label><select id="filter-status" name="status">!${options(WEBHOOK_DELIVERY_STATUSES, query.status)}</select></div>
<div><label for="filter-event">Event</label><select id="filter-event" name="event">!${options(WEBHOOK_EVENT_TYPES, query.event)}</select></div>
<div><label for="filter-payment">Payment id</label><input id="filter-payment" name="checkout_id" value="${query.checkout_id ?? ''}" maxlength="64"></div>
<div><button type="submit">Filter</button></div>
</form>`
  const table =
    rows.length === 0
      ? html`<p data-testid="no-deliveries">No deliveries match.</p>`
      : html`<table data-testid="deliveries-table"><caption class="visually-hidden">Webhook deliveries, newest first</caption>
<thead><tr><th scope="col">Created</th><th scope="col">Delivery</th><th scope="col">Event</th><th scope="col">Payment</th><th scope="col">Status</th><th scope="col">HTTP</th><th scope="col" class="num">Time</th><th scope="col">URL</th></tr></thead>
<tbody>!${rows.map(
          (d) => html`<tr data-testid="delivery-row" data-delivery-id="${d.id}" data-status="${d.status}" data-event="${d.event_type}">
<td>!${when(d.created_at)}</td><td><a class="mono" href="${deliveryHref(d.id)}">${d.id.slice(0, 8)}…</a>!${d.resend_of ? ' <span class="badge">resend</span>' : ''}</td>
<td>${d.event_type}</td><td>!${subjectLink(d)}</td>
<td>!${statusBadge(d.status, 'delivery-status')}</td><td>${d.http_status ?? '—'}</td><td class="num">${d.duration_ms === null ? '—' : `${d.duration_ms} ms`}</td><td class="mono">${d.url}</td></tr>`,
        )}</tbody></table>`
  const pages = pager('/webhooks', query, meta, 'deliveries')
  return html`<h1>Webhooks</h1>!${pauseForm(input.paused, input.csrfField)}
<p><a href="${dashboardHref('/webhooks/test')}" data-testid="test-receiver-link">Send a test event to a receiver</a></p>
!${filters}<section id="deliveries-list" data-live aria-label="Deliveries">!${table}!${pages}</section>`
}

function pauseForm(paused: boolean, csrfField: string): string {
  const action = paused ? 'resume' : 'pause'
  const state = paused
    ? html`<p class="notice" data-testid="webhooks-state" data-paused="true">Webhooks are <strong>paused</strong>: deliveries are logged as skipped, not sent.</p>`
    : html`<p data-testid="webhooks-state" data-paused="false">Webhooks are being sent.</p>`
  return html`!${state}<form method="post" action="${dashboardHref(`/webhooks/${action}`)}" class="inline" data-testid="${action}-form">!${csrfField}
<input type="checkbox" id="${action}-confirm" name="confirm" value="yes" required> <label for="${action}-confirm">I am sure: ${action} webhooks</label>
<button type="submit" class="${paused ? '' : 'danger'}" data-testid="submit-${action}">${paused ? 'Resume webhooks' : 'Pause webhooks'}</button></form>`
}

const pre = (text: string, testId: string, label: string): string =>
  html`<pre class="wire" tabindex="0" role="region" data-testid="${testId}" aria-label="${label}">${text}</pre>`

export function deliveryDetail(input: {
  delivery: WebhookDeliveryRow
  headers: Record<string, string>
  notice: string
  csrfField: string
  idempotencyField: string
}): string {
  const { delivery: d, headers } = input
  const headerRows = Object.entries(headers).map(
    ([name, value]) => html`<tr><th scope="row" class="mono">${name}</th><td class="mono" data-testid="header-${name}">${value}</td></tr>`,
  )
  const answer =
    d.status === 'pending'
      ? html`<p data-testid="receiver-pending">Not attempted yet.</p>`
      : html`<dl class="facts" data-testid="receiver-answer">
<dt>HTTP status</dt><dd data-testid="receiver-status">${d.http_status ?? 'no HTTP answer'}</dd>
<dt>Time</dt><dd data-testid="receiver-time">${d.duration_ms === null ? '—' : `${d.duration_ms} ms`}</dd>
<dt>Attempted</dt><dd>!${d.last_attempt_at === null ? '—' : when(d.last_attempt_at)}</dd>
<dt>Error</dt><dd data-testid="receiver-error">${d.error_message ?? '—'}</dd>
</dl><h3>Body (the first 4 KiB)</h3>!${pre(d.response_body ?? '', 'receiver-body', "The receiver's answer")}`
  return html`<p><a href="${dashboardHref('/webhooks')}">← Webhooks</a></p>
<h1>Delivery <span class="mono" data-testid="delivery-id">${d.id}</span></h1>!${input.notice}
<section id="delivery-summary" data-live aria-labelledby="delivery-heading"><h2 id="delivery-heading">Summary</h2><dl class="facts">
<dt>Status</dt><dd>!${statusBadge(d.status, 'delivery-status')}</dd>
<dt>Event</dt><dd data-testid="delivery-event">${d.event_type}</dd>
<dt>Payment</dt><dd>!${subjectLink(d)}</dd>
<dt>URL</dt><dd class="mono" data-testid="delivery-url">${d.url}</dd>
<dt>Attempt</dt><dd>${d.attempt_count}!${d.resend_of ? html` (resend of <a class="mono" href="${deliveryHref(d.resend_of)}">${d.resend_of}</a>)` : ''}</dd>
<dt>Created</dt><dd>!${when(d.created_at)}</dd></dl></section>
<section aria-labelledby="request-heading"><h2 id="request-heading">Request sent</h2>
<p>POST <span class="mono">${d.url}</span>. The signature is HMAC-SHA256 over the payload's bytes with the merchant's current API secret (a secret rotated since makes it differ from what was sent).</p>
<table data-testid="delivery-headers"><caption>Headers</caption><tbody>!${headerRows}</tbody></table>
<h3>Payload, byte for byte</h3>!${pre(d.request_payload, 'delivery-payload', 'The payload as sent')}</section>
<section id="delivery-answer" data-live aria-labelledby="answer-heading"><h2 id="answer-heading">Receiver's answer</h2>!${answer}</section>
<section aria-labelledby="resend-heading"><h2 id="resend-heading">Resend</h2>
<form method="post" action="${dashboardHref(`/webhooks/deliveries/${encodeURIComponent(d.id)}/resend`)}" data-testid="resend-form">!${input.csrfField}!${input.idempotencyField}
<p>Sends the same payload to the same URL again, as a new delivery (at most 10 resends a minute).</p>
<button type="submit" data-testid="submit-resend">Resend</button></form></section>`
}

export function testReceiverPage(input: { url: string; csrfField: string; report?: GradingReport }): string {
  const form = html`<form method="post" action="${dashboardHref('/webhooks/test')}" class="stack" data-testid="test-form">!${input.csrfField}
<div><label for="test-url">Receiver URL (http or https)</label><input id="test-url" name="url" type="url" required maxlength="2048" value="${input.url}"></div>
<div><button type="submit" data-testid="submit-test">Send the test events</button></div></form>`
  return html`<p><a href="${dashboardHref('/webhooks')}">← Webhooks</a></p><h1>Send a test event</h1>
<p>Sends the battery of <code>paybox webhooks test-receiver</code> to the URL, signed with this merchant's API secret (and deliberately wrong), and grades each answer.</p>
!${form}!${input.report ? gradingReport(input.report) : ''}`
}

const sendText = (send: SendResult): string => (send.status === null ? `no answer (${send.error ?? ''})` : `HTTP ${send.status}`)

function gradingReport(report: GradingReport): string {
  const rows = report.cases.map(
    (c) => html`<tr data-testid="grade-row" data-case="${c.id}" data-verdict="${c.verdict}"><td>${c.title}</td><td>${c.expected}</td>
<td>${c.sends.map(sendText).join(' → ')}</td><td class="num">${c.sends.map((s) => `${s.durationMs} ms`).join(' → ')}</td>
<td>!${statusBadge(c.verdict === 'pass' ? 'success' : 'failure', 'grade-verdict')}</td><td>${c.detail ?? ''}</td></tr>`,
  )
  const time = report.responseTime
  return html`<section aria-labelledby="grades-heading" data-testid="grades" data-passed="${String(report.passed)}">
<h2 id="grades-heading">Grades for <span class="mono">${report.url}</span>: ${report.passed ? 'passed' : 'failed'}</h2>
<table><thead><tr><th scope="col">Case</th><th scope="col">Expected</th><th scope="col">Answers</th><th scope="col" class="num">Time</th><th scope="col">Verdict</th><th scope="col">Why</th></tr></thead>
<tbody>!${rows}<tr data-testid="grade-row" data-case="response-time" data-verdict="${time.verdict}"><td>Response time</td><td>every answer within ${time.budgetMs / 1000} s</td>
<td>${time.slowest ? `slowest ${time.slowest.durationMs} ms (${time.slowest.caseId})` : 'no answers'}${time.timedOut ? `; ${time.timedOut} timed out` : ''}</td><td></td>
<td>!${statusBadge(time.verdict === 'pass' ? 'success' : 'failure', 'grade-verdict')}</td><td></td></tr></tbody></table>
<p>${report.deduplication}</p></section>`
}
