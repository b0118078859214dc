// The pages of the Requests view: the inspector's list (method, path, status, duration, merchant,
// idempotency key, request id) with its filters and pager, and one request with its headers and
// bodies as the log kept them (redacted, bounded), and for a refused signature, what the sandbox
// signed and what differed. Only templates: requests-view.ts reads.
import { html } from 'ghtml'
import type { RequestLogEntry } from '../../src/client/types.js'
import type { RequestDetail } from '../request-log/request-log.js'
import type { SignatureDiagnosis } from '../request-log/signature-diagnosis.js'
import type { pageMeta } from '../http/pagination.js'
import { dashboardHref } from './dashboard-kit.js'
import { pager } from './list-query.js'

export const REQUEST_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

const requestHref = (id: string, query: Record<string, string>) => dashboardHref(`/requests/${encodeURIComponent(id)}`, query)
const time = (iso: string) => html`<time datetime="${iso}">${iso.replace('T', ' ').slice(0, 23)}</time>`
const statusText = (status: number) =>
  html`<span class="badge status-${status >= 400 || status === 0 ? 'failure' : 'success'}" data-testid="request-status" data-status="${status}">${status === 0 ? 'no answer' : status}</span>`

export function requestsList(input: {
  query: Record<string, string>
  rows: RequestLogEntry[]
  meta: ReturnType<typeof pageMeta>
  isAdmin: boolean
}): string {
  const { query, rows, meta } = input
  const methodOptions = ['', ...REQUEST_METHODS]
    .map((m) => html`<option value="${m}"!${query.method === m ? ' selected' : ''}>${m || 'any'}</option>`)
    .join('')
  const scope = input.isAdmin
    ? html`<div><label for="filter-scope">Requests of</label><select id="filter-scope" name="scope"><option value="">this merchant</option><option value="all"!${query.scope === 'all' ? ' selected' : ''}>everyone (public and admin too)</option></select></div>`
    : ''
  const filters = html`<form method="get" action="${dashboardHref('/requests')}" class="filters" data-testid="request-filters">
<div><label for="filter-status">Status (404 or 4xx)</label><input id="filter-status" name="status" value="${query.status ?? ''}" maxlength="3" size="5"></div>
<div><label for="filter-path">Path starts with</label><input id="filter-path" name="path" value="${query.path ?? ''}" maxlength="256"></div>
<div><label for="filter-method">Method</label><select id="filter-method" name="method">!${methodOptions}</select></div>!${scope}
<div><button type="submit">Filter</button></div></form>`
  const table =
    rows.length === 0
      ? html`<p data-testid="no-requests">No request in the log matches (it keeps this sandbox process's last 1,000 requests).</p>`
      : html`<table data-testid="requests-table"><caption class="visually-hidden">Requests, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col" class="num">Duration</th><th scope="col">Merchant</th><th scope="col">Idempotency key</th><th scope="col">Request id</th></tr></thead>
<tbody>!${rows.map(
          (r) => html`<tr data-testid="request-row" data-request-id="${r.requestId}" data-status="${r.status}" data-method="${r.method}">
<td>!${time(r.time)}</td><td>${r.method}</td><td class="mono">${r.path}</td><td>!${statusText(r.status)}</td><td class="num">${r.durationMs} ms</td>
<td class="mono">${r.merchantId ?? '—'}</td><td class="mono">${r.idempotencyKey ?? ''}</td><td><a class="mono" href="${requestHref(r.requestId, input.query.scope === 'all' ? { scope: 'all' } : {})}">${r.requestId}</a></td></tr>`,
        )}</tbody></table>`
  const pages = pager('/requests', query, meta, 'requests')
  return html`<h1>Requests</h1>
<p>Every request to this sandbox process, as its request log keeps them (the last 1,000; bodies redacted and cut at 4 KiB).</p>
!${filters}<section id="requests-list" aria-label="Requests">!${table}!${pages}</section>`
}

const pre = (text: string, testId: string, label: string): string =>
  html`<pre class="wire" tabindex="0" role="region" data-testid="${testId}" aria-label="${label}">${text}</pre>`

function signatureSection(diagnosis: SignatureDiagnosis): string {
  const { expected, finding } = diagnosis
  const parts = (['path', 'timestamp', 'method', 'body'] as const).map(
    (part) =>
      html`<tr data-testid="signed-part-${part}"!${finding.part === part ? ' class="differs"' : ''}><th scope="row">${part}${finding.part === part ? ' (differs)' : ''}</th><td class="mono">${part === 'method' ? expected.method.toUpperCase() : expected[part]}</td></tr>`,
  )
  const instead =
    finding.signedInstead === undefined
      ? ''
      : html`<h3>The string your signature matches</h3>!${pre(finding.signedInstead, 'signed-instead', 'The string your signature was computed over')}`
  return html`<section aria-labelledby="signature-heading" data-testid="signature-diagnosis"><h2 id="signature-heading">Why the signature failed</h2>
<p>The sandbox signs HMAC-SHA256(API secret, path + timestamp + METHOD + body). For this request it signed exactly:</p>
!${pre(expected.stringToSign, 'string-to-sign', 'The string the sandbox signed')}
<table><caption>Its parts</caption><tbody>!${parts}</tbody></table>
<p class="notice" data-testid="signature-finding" data-part="${finding.part ?? 'unknown'}">${finding.explanation}</p>!${instead}
<p>Recomputed over ${diagnosis.tried} variations with the merchant's secret, which is never shown.</p></section>`
}

export function requestDetail(input: { entry: RequestLogEntry; detail: RequestDetail; diagnosis: SignatureDiagnosis | undefined }): string {
  const { entry, detail } = input
  const headers = Object.entries(detail.requestHeaders).map(
    ([name, value]) => html`<tr><th scope="row" class="mono">${name}</th><td class="mono">${value}</td></tr>`,
  )
  return html`<p><a href="${dashboardHref('/requests')}">← Requests</a></p>
<h1>${entry.method} <span class="mono" data-testid="request-path">${entry.path}</span></h1>
<dl class="facts" data-testid="request-facts">
<dt>Status</dt><dd>!${statusText(entry.status)}</dd>
<dt>Time</dt><dd>!${time(entry.time)}</dd>
<dt>Duration</dt><dd>${entry.durationMs} ms</dd>
<dt>Merchant</dt><dd class="mono">${entry.merchantId ?? '— (not authenticated)'}</dd>
<dt>Idempotency key</dt><dd class="mono">${entry.idempotencyKey ?? '—'}</dd>
<dt>Request id</dt><dd class="mono" data-testid="request-id">${entry.requestId}</dd></dl>
!${input.diagnosis ? signatureSection(input.diagnosis) : ''}
<section aria-labelledby="headers-heading"><h2 id="headers-heading">Request headers</h2><table data-testid="request-headers"><tbody>!${headers}</tbody></table></section>
<section aria-labelledby="request-body-heading"><h2 id="request-body-heading">Request body</h2>!${
    detail.requestBody === null ? html`<p>No body kept.</p>` : pre(detail.requestBody, 'request-body', 'The request body')
  }</section>
<section aria-labelledby="response-body-heading"><h2 id="response-body-heading">Response body</h2>!${
    detail.responseBody === null ? html`<p>No JSON body kept.</p>` : pre(detail.responseBody, 'response-body', 'The response body')
  }</section>`
}
