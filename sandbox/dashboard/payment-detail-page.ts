// The payment detail page: its amounts (asked, paid, remaining, settled, fee, refunded), its
// checkout link and QR code, a timeline of its history, its ledger transactions, webhook
// deliveries and the requests that touched it, and the action forms that apply to it. The
// regions marked data-live are swapped in place when the payment changes (dashboard-assets.ts).
import { html } from 'ghtml'
import { formatDecimalShort, USDC_SCALE } from '../../src/money.js'
import type { HistoryEntry, RequestLogEntry } from '../../src/client/types.js'
import { formatAmount, formatUsdc } from '../checkout/checkout-page.js'
import { remainingValue } from '../payments/payment-receipts.js'
import type { PaymentRow, WebhookDeliveryRow } from '../db/schema.js'
import { HORIZON_PATH } from '../horizon/horizon-requests.js'
import type { LedgerTransaction } from '../ledger/ledger-types.js'
import { dashboardHref } from './dashboard-kit.js'
import { ACTIONS, PAYMENT_ACTIONS, type PaymentActionId } from './payment-actions.js'
import { statusBadge, when } from './dashboard-format.js'

export interface PaymentDetail {
  payment: PaymentRow
  /** The status shown (expired once past expiresAt, swept or not). */
  status: string
  now: number
  hostedUrl: string
  shortUrl: string
  walletUri: string
  /** The QR code image of the wallet link (payments-view.ts serves it). */
  qrHref: string
  transactions: LedgerTransaction[]
  deliveries: WebhookDeliveryRow[]
  requests: RequestLogEntry[]
  /** The action just done (POST-redirect-GET), to say so. */
  done?: PaymentActionId
  /** The form fields every action form carries: the CSRF token, and a fresh idempotency key per form. */
  csrfField: string
  idempotencyField: () => string
}

const fact = (label: string, testId: string, value: string): string => html`<dt>${label}</dt><dd data-testid="${testId}">${value}</dd>`
const usdcText = (stroops: number): string => formatUsdc(stroops)

function amounts(view: PaymentDetail): string {
  const { payment } = view
  const currency = payment.amount_currency
  const remainingUsdc = Math.max(0, payment.usdc_amount - payment.usdc_received)
  const settled = payment.settlement_status === 'paid' ? usdcText(payment.settlement_amount) : `not yet (${payment.settlement_status})`
  return html`<dl class="facts" data-testid="amounts">
!${fact('Asked', 'amount-asked', `${formatAmount(payment.amount_value, currency)} (${usdcText(payment.usdc_amount)})`)}
!${fact('Paid', 'amount-paid', `${formatAmount(payment.amount_paid, currency)} (${usdcText(payment.usdc_received)})`)}
!${fact('Remaining', 'amount-remaining', `${formatAmount(remainingValue(payment), currency)} (${usdcText(remainingUsdc)})`)}
!${fact('Settled', 'amount-settled', settled)}
!${fact('Fee', 'amount-fee', usdcText(payment.settlement_fee))}
!${fact('Refunded', 'amount-refunded', usdcText(payment.usdc_refunded))}
</dl>`
}

function summary(view: PaymentDetail): string {
  const { payment } = view
  const metadata = payment.metadata === null ? '' : payment.metadata
  const escrow = payment.escrow_status === null ? '' : html`<dt>Escrow</dt><dd>!${statusBadge(payment.escrow_status, 'escrow-status')}</dd>`
  return html`<dl class="facts" data-testid="summary">
<dt>Status</dt><dd>!${statusBadge(view.status)}</dd>
<dt>Settlement</dt><dd>!${statusBadge(payment.settlement_status, 'settlement-status')}</dd>!${escrow}
!${fact('Description', 'description', payment.description)}
<dt>Metadata</dt><dd><code data-testid="metadata">${metadata}</code></dd>
<dt>Created</dt><dd>!${when(payment.created_at)}</dd>
<dt>Expires</dt><dd>!${when(payment.expires_at)}</dd>
!${fact('Memo', 'memo', payment.memo)}
</dl>`
}

function timeline(history: HistoryEntry[]): string {
  const items = history.map(
    (entry) =>
      html`<li data-testid="history-entry" data-status="${entry.status}">!${when(entry.time)} !${statusBadge(entry.status, 'history-status')} ${entry.description}</li>`,
  )
  return html`<ol class="timeline" data-testid="timeline">!${items}</ol>`
}

function transactionsTable(transactions: LedgerTransaction[]): string {
  if (transactions.length === 0) return html`<p data-testid="no-transactions">No ledger transaction carries its memo yet.</p>`
  const rows = transactions.map((tx) => {
    const moves = tx.operations.map((op) => html`${formatDecimalShort(op.amount, USDC_SCALE)} ${op.asset}`).join(', ')
    return html`<tr data-testid="transaction-row"><td><a class="mono" href="${`${HORIZON_PATH}/transactions/${tx.hash}`}">${tx.hash.slice(0, 16)}…</a></td>
<td>${tx.ledgerSequence}</td><td>!${when(tx.appliedAt)}</td><td>${moves}</td><td>${tx.successful ? 'yes' : 'failed'}</td></tr>`
  })
  return html`<table><thead><tr><th scope="col">Hash (Horizon JSON)</th><th scope="col">Ledger</th><th scope="col">Applied</th><th scope="col">Moved</th><th scope="col">Successful</th></tr></thead><tbody>!${rows}</tbody></table>`
}

function deliveriesTable(deliveries: WebhookDeliveryRow[]): string {
  if (deliveries.length === 0)
    return html`<p data-testid="no-deliveries">No webhook deliveries (the payment has no webhookUrl, or nothing happened yet).</p>`
  const rows = deliveries.map(
    (
      d,
    ) => html`<tr data-testid="delivery-row" data-event="${d.event_type}" data-status="${d.status}"><td>!${when(d.created_at)}</td><td>${d.event_type}</td>
<td>!${statusBadge(d.status, 'delivery-status')}</td><td>${d.http_status ?? '—'}</td><td>${d.attempt_count}</td><td class="mono">${d.url}</td></tr>`,
  )
  return html`<table><thead><tr><th scope="col">Created</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">HTTP</th><th scope="col">Attempt</th><th scope="col">URL</th></tr></thead><tbody>!${rows}</tbody></table>`
}

function requestsTable(requests: RequestLogEntry[]): string {
  if (requests.length === 0)
    return html`<p data-testid="no-requests">No request to this sandbox process named it (the log keeps recent requests, per process).</p>`
  const rows = requests.map(
    (r) =>
      html`<tr data-testid="request-row"><td>${r.time.replace('T', ' ').slice(0, 19)}</td><td>${r.method}</td><td class="mono">${r.path}</td><td>${r.status}</td><td class="num">${r.durationMs} ms</td><td class="mono">${r.idempotencyKey ?? ''}</td><td class="mono">${r.requestId}</td></tr>`,
  )
  return html`<table><thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col" class="num">Duration</th><th scope="col">Idempotency key</th><th scope="col">Request id</th></tr></thead><tbody>!${rows}</tbody></table>`
}

function actionForm(view: PaymentDetail, id: PaymentActionId): string {
  const action = ACTIONS[id]
  const escrowPay = id === 'pay' && view.payment.escrow_status === 'created'
  const label = escrowPay ? 'Fund the escrow (pay)' : action.label
  const field = (name: string, text: string, extra: string) =>
    html`<label for="${id}-${name}">${text}</label><input id="${id}-${name}" name="${name}" !${extra}>`
  const extra =
    id === 'wrong-memo'
      ? field('memo', 'Memo sent instead', html`value="wrong-memo" maxlength="28"`)
      : id === 'fail' || id === 'escrow-fail'
        ? field('reason', 'Reason (optional)', 'maxlength="200"')
        : id === 'refund'
          ? field(
              'amount',
              `Amount in ${view.payment.amount_currency} (blank: everything refundable)`,
              'inputmode="decimal" maxlength="24"',
            )
          : ''
  const confirm = action.destructive
    ? html`<div><input type="checkbox" id="${id}-confirm" name="confirm" value="yes" required> <label for="${id}-confirm">I am sure: ${action.label.toLowerCase()} this payment</label></div>`
    : ''
  const path = `/payments/${encodeURIComponent(view.payment.id)}/actions/${id}`
  return html`<form method="post" action="${dashboardHref(path)}" data-testid="action-${id}">!${view.csrfField}!${view.idempotencyField()}
<h3>${label}</h3><p>${action.hint}</p>!${extra}!${confirm}
<div><button type="submit"!${action.destructive ? ' class="danger"' : ''} data-testid="submit-${id}">${label}</button></div></form>`
}

export function renderPaymentDetail(view: PaymentDetail): string {
  const { payment } = view
  const offered = PAYMENT_ACTIONS.filter((id) => ACTIONS[id].offered(payment, view.now))
  const done = view.done
    ? html`<p class="notice" role="status" data-testid="done">Done: ${ACTIONS[view.done].label.toLowerCase()}.</p>`
    : ''
  const actions =
    offered.length === 0
      ? html`<p data-testid="no-actions">Nothing can be done to a ${view.status} payment.</p>`
      : html`<div class="actions">!${offered.map((id) => actionForm(view, id))}</div>`
  return html`<p><a href="${dashboardHref('/payments')}">← Payments</a></p>
<h1>Payment <span class="mono" data-testid="payment-id">${payment.id}</span></h1>!${done}
<div class="columns">
<section id="payment-summary" data-live aria-labelledby="summary-heading"><h2 id="summary-heading">Summary</h2>!${summary(view)}</section>
<section id="payment-amounts" data-live aria-labelledby="amounts-heading"><h2 id="amounts-heading">Amounts</h2>!${amounts(view)}</section>
<section aria-labelledby="checkout-heading"><h2 id="checkout-heading">Checkout</h2>
<p><a href="${view.hostedUrl}" data-testid="hosted-url">Checkout page</a> · <a href="${view.shortUrl}">${view.shortUrl}</a></p>
<img class="qr" data-testid="qr" src="${view.qrHref}" alt="QR code of the payment's wallet link (SEP-7)"><p><code>${view.walletUri}</code></p></section>
</div>
<section id="payment-actions" data-live aria-labelledby="actions-heading"><h2 id="actions-heading">Actions</h2>!${actions}</section>
<section id="payment-timeline" data-live aria-labelledby="timeline-heading"><h2 id="timeline-heading">Timeline</h2>!${timeline(JSON.parse(payment.history) as HistoryEntry[])}</section>
<section id="payment-deliveries" data-live aria-labelledby="deliveries-heading"><h2 id="deliveries-heading">Webhook deliveries</h2>!${deliveriesTable(view.deliveries)}</section>
<section id="payment-transactions" data-live aria-labelledby="transactions-heading"><h2 id="transactions-heading">Ledger transactions</h2>!${transactionsTable(view.transactions)}</section>
<section id="payment-requests" data-live aria-labelledby="requests-heading"><h2 id="requests-heading">Requests that touched it</h2>!${requestsTable(view.requests)}</section>`
}
