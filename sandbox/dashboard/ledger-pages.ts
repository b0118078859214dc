// The Ledger explorer's pages: accounts, the transactions list, one transaction and the orders.
// Every value from the ledger or a merchant (labels, memos, payees, addresses) goes through
// ghtml's escaping; only the fragments built here are inserted raw (`!${…}`).
import { html } from 'ghtml'
import { LEDGER_ROLES } from '../../src/api/enumerations.js'
import { formatDecimal, USDC_SCALE } from '../../src/money.js'
import { formatUsdc } from '../checkout/checkout-page.js'
import type { PaymentRow } from '../db/schema.js'
import { HORIZON_PATH } from '../horizon/horizon-requests.js'
import type { pageMeta } from '../http/pagination.js'
import type { LedgerViewer, VisibleTransaction } from '../ledger-views/ledger-visibility.js'
import type { LedgerAccount } from '../ledger/ledger-types.js'
import { statusBadge, when } from './dashboard-format.js'
import { dashboardHref } from './dashboard-kit.js'

type PageMeta = ReturnType<typeof pageMeta>

const stroops = (amount: bigint): string => formatDecimal(amount, USDC_SCALE)
const short = (address: string): string => (address.length > 16 ? `${address.slice(0, 6)}…${address.slice(-6)}` : address)
const horizon = (path: string): string => `${HORIZON_PATH}${path}`
const txHref = (hash: string): string => dashboardHref(`/ledger/transactions/${encodeURIComponent(hash)}`)

function subNav(current: 'accounts' | 'transactions' | 'orders'): string {
  const items = [
    ['accounts', 'Accounts', dashboardHref('/ledger')],
    ['transactions', 'Transactions', dashboardHref('/ledger/transactions')],
    ['orders', 'Escrow and bridge orders', dashboardHref('/ledger/orders')],
  ] as const
  const links = items.map(([id, label, href]) =>
    id === current
      ? html`<li><a href="${href}" aria-current="page" data-testid="ledger-nav-${id}">${label}</a></li>`
      : html`<li><a href="${href}" data-testid="ledger-nav-${id}">${label}</a></li>`,
  )
  return html`<nav aria-label="Ledger" class="subnav"><ul class="inline-list">!${links}</ul></nav>`
}

const scopeNote = (viewer: LedgerViewer): string =>
  viewer === undefined
    ? html`<p class="notice" data-testid="ledger-scope">The whole ledger (admin).</p>`
    : html`<p class="notice" data-testid="ledger-scope">What the ledger holds of ${viewer.name}: its settlement account, the transactions that touch it or carry one of its payments' memos, and its orders.</p>`

export function renderAccounts(view: { accounts: LedgerAccount[]; role: string | undefined; merchantView: boolean }): string {
  const options = ['', ...LEDGER_ROLES].map(
    (role) => html`<option value="${role}"!${(view.role ?? '') === role ? ' selected' : ''}>${role || 'any'}</option>`,
  )
  const rows = view.accounts.map(
    (account) => html`<tr data-testid="account-row" data-role="${account.role}" data-account="${account.publicKey}">
<td><a class="mono" href="${dashboardHref('/ledger/transactions', { account: account.publicKey })}" title="Its transactions">${account.publicKey}</a></td>
<td>${account.role}</td><td data-testid="account-label">${account.label}</td>
<td class="num" data-testid="account-usdc">${stroops(account.balances.usdc)}</td><td class="num">${stroops(account.balances.xlm)}</td>
<td>${account.sequence.toString()}</td><td><a href="${horizon(`/accounts/${account.publicKey}`)}">JSON</a></td></tr>`,
  )
  const table =
    view.accounts.length === 0
      ? html`<p data-testid="no-accounts">No accounts match.</p>`
      : html`<table data-testid="accounts-table"><caption class="visually-hidden">Ledger accounts</caption>
<thead><tr><th scope="col">Account</th><th scope="col">Role</th><th scope="col">Label</th><th scope="col" class="num">USDC</th><th scope="col" class="num">XLM</th><th scope="col">Sequence</th><th scope="col">Horizon</th></tr></thead>
<tbody>!${rows}</tbody></table>`
  const filter = view.merchantView
    ? ''
    : html`<form method="get" action="${dashboardHref('/ledger')}" class="filters" data-testid="account-filters">
<div><label for="filter-role">Role</label><select id="filter-role" name="role">!${options}</select></div><div><button type="submit">Filter</button></div></form>`
  return html`<h1>Ledger accounts</h1>!${subNav('accounts')}!${filter}
<section id="ledger-accounts" data-live aria-label="Accounts">!${table}</section>`
}

function operationsList(tx: VisibleTransaction['tx']): string {
  const items = tx.operations.map(
    (op) =>
      html`<li data-testid="operation">${op.type}: <span class="num">${stroops(op.amount)}</span> ${op.asset} from <span class="mono" title="${op.from}">${short(op.from)}</span> to <span class="mono" title="${op.to}">${short(op.to)}</span></li>`,
  )
  return html`<ul class="operations">!${items}</ul>`
}

function result(tx: VisibleTransaction['tx']): string {
  return tx.successful
    ? statusBadge('success', 'tx-result')
    : html`!${statusBadge('failed', 'tx-result')} <span class="mono">${(tx.operationResults ?? []).join(', ')}</span>`
}

const memoText = (tx: VisibleTransaction['tx']): string =>
  tx.memoType === 'none'
    ? html`<span class="muted">none</span>`
    : html`<code data-testid="tx-memo">${tx.memo ?? ''}</code> (${tx.memoType})`

/**
 * The payment a memo names: for a merchant, a link to its own (another's is not named); for an
 * admin its id, since the Payments view shows the merchant the selector picked, not necessarily its.
 */
function paymentOf(item: VisibleTransaction, viewer: LedgerViewer): string {
  const payment = item.payment
  if (!payment) return ''
  if (viewer === undefined) return html`<span class="mono" data-testid="tx-payment">${payment.id}</span>`
  if (payment.merchant_id !== viewer.id) return ''
  return html`<a class="mono" data-testid="tx-payment" href="${dashboardHref(`/payments/${encodeURIComponent(payment.id)}`)}">${payment.id}</a>`
}

export interface TransactionsView {
  items: VisibleTransaction[]
  viewer: LedgerViewer
  filters: { account: string; order: 'asc' | 'desc'; limit: string }
  /** Past the first page. */
  paged: boolean
  first: string
  next: string | undefined
}

export function renderTransactions(view: TransactionsView): string {
  const rows = view.items.map(
    (item) => html`<tr data-testid="transaction-row" data-hash="${item.tx.hash}" data-position="${item.tx.position}">
<td>${item.tx.position}</td><td><a class="mono" href="${txHref(item.tx.hash)}">${item.tx.hash.slice(0, 16)}…</a></td>
<td>${item.tx.ledgerSequence}</td><td>!${when(item.tx.appliedAt)}</td><td>!${memoText(item.tx)} !${paymentOf(item, view.viewer)}</td>
<td>!${operationsList(item.tx)}</td><td class="num">${item.tx.feeCharged.toString()}</td><td>!${result(item.tx)}</td></tr>`,
  )
  const table =
    view.items.length === 0
      ? html`<p data-testid="no-transactions">No transactions here.</p>`
      : html`<table data-testid="transactions-table"><caption class="visually-hidden">Ledger transactions</caption>
<thead><tr><th scope="col">Position</th><th scope="col">Hash</th><th scope="col">Ledger</th><th scope="col">Applied</th><th scope="col">Memo</th><th scope="col">Operations</th><th scope="col" class="num">Fee (stroops)</th><th scope="col">Result</th></tr></thead>
<tbody>!${rows}</tbody></table>`
  const orders = (['desc', 'asc'] as const).map(
    (order) =>
      html`<option value="${order}"!${view.filters.order === order ? ' selected' : ''}>${order === 'desc' ? 'newest first' : 'oldest first'}</option>`,
  )
  const first = view.paged ? html`<a href="${view.first}" data-testid="page-first">First page</a>` : ''
  const next = view.next ? html`<a href="${view.next}" rel="next" data-testid="page-next">Next</a>` : ''
  return html`<h1>Ledger transactions</h1>!${subNav('transactions')}!${scopeNote(view.viewer)}
<form method="get" action="${dashboardHref('/ledger/transactions')}" class="filters" data-testid="transaction-filters">
<div><label for="filter-account">Account (G…)</label><input id="filter-account" name="account" value="${view.filters.account}" maxlength="56" size="40" class="mono"></div>
<div><label for="filter-order">Order</label><select id="filter-order" name="order">!${orders}</select></div>
<div><label for="filter-limit">Per page</label><input id="filter-limit" name="limit" value="${view.filters.limit}" inputmode="numeric" size="4"></div>
<div><button type="submit">Filter</button></div></form>
<section id="ledger-transactions" data-live aria-label="Transactions">!${table}<nav class="pager" aria-label="Pages">!${first}!${next}</nav></section>`
}

export function renderTransaction(view: { item: VisibleTransaction; viewer: LedgerViewer; closedAt: number | null }): string {
  const { tx } = view.item
  const links = [
    ['Transaction', `/transactions/${tx.hash}`, 'horizon-transaction'],
    ['Operations', `/transactions/${tx.hash}/operations`, 'horizon-operations'],
    ['Payments', `/transactions/${tx.hash}/payments`, 'horizon-payments'],
    ['Effects', `/transactions/${tx.hash}/effects`, 'horizon-effects'],
    ['Ledger', `/ledgers/${tx.ledgerSequence}`, 'horizon-ledger'],
  ].map(([label, path, testId]) => html`<li><a href="${horizon(path!)}" data-testid="${testId}">${label}</a></li>`)
  return html`<p><a href="${dashboardHref('/ledger/transactions')}">← Transactions</a></p>
<h1>Transaction <span class="mono" data-testid="tx-hash">${tx.hash}</span></h1>
<dl class="facts" data-testid="tx-facts">
<dt>Result</dt><dd>!${result(tx)}</dd>
<dt>Position</dt><dd>${tx.position}</dd>
<dt>Ledger</dt><dd>${tx.ledgerSequence} (closed: !${view.closedAt === null ? 'still open' : when(view.closedAt)})</dd>
<dt>Applied</dt><dd>!${when(tx.appliedAt)}</dd>
<dt>Source</dt><dd class="mono">${tx.sourceAccount} (sequence ${tx.sourceSequence.toString()})</dd>
<dt>Fee charged</dt><dd>${tx.feeCharged.toString()} stroops (${stroops(tx.feeCharged)} XLM)</dd>
<dt>Memo</dt><dd>!${memoText(tx)}</dd>
<dt>Payment</dt><dd>!${paymentOf(view.item, view.viewer) || 'none named'}</dd>
</dl>
<h2>Operations</h2>!${operationsList(tx)}
<h2>Horizon JSON</h2><ul data-testid="horizon-links">!${links}</ul>
<h2>Envelope (base64 XDR)</h2><p><code data-testid="tx-envelope">${tx.envelopeXdr}</code></p>`
}

function pager(meta: PageMeta, to: (page: number) => string, noun: string, testId: string): string {
  const previous = meta.currentPage > 1 ? html`<a href="${to(meta.currentPage - 1)}" rel="prev">Previous</a>` : ''
  const next =
    meta.currentPage < meta.totalPages ? html`<a href="${to(meta.currentPage + 1)}" rel="next" data-testid="${testId}-next">Next</a>` : ''
  return html`<nav class="pager" aria-label="${noun} pages">!${previous}<span>Page ${meta.currentPage} of ${Math.max(1, meta.totalPages)} · ${meta.totalItems} ${noun}</span>!${next}</nav>`
}

export interface OrdersView {
  escrow: PaymentRow[]
  escrowMeta: PageMeta
  bridge: Array<Record<string, unknown>>
  bridgeMeta: PageMeta
  query: Record<string, string>
  viewer: LedgerViewer
  now: number
}

export function renderOrders(view: OrdersView): string {
  const to = (name: string) => (page: number) => dashboardHref('/ledger/orders', { ...view.query, [name]: page })
  const paymentLink = (payment: Pick<PaymentRow, 'id' | 'merchant_id'>) =>
    view.viewer === undefined
      ? html`<span class="mono">${payment.id}</span>`
      : html`<a class="mono" href="${dashboardHref(`/payments/${encodeURIComponent(payment.id)}`)}">${payment.id}</a>`
  const escrowRows = view.escrow.map(
    (payment) => html`<tr data-testid="escrow-row" data-payment-id="${payment.id}">
<td class="mono">${payment.escrow_order_id ?? ''}</td><td>!${paymentLink(payment)}</td><td>!${statusBadge(payment.escrow_status ?? 'none', 'escrow-status')}</td>
<td class="num">${formatUsdc(payment.usdc_received)}</td><td class="mono" data-testid="escrow-payee">${payment.escrow_payee ?? ''}</td>
<td>${payment.escrow_fee_bps ?? ''}</td><td>!${payment.escrow_expires_at === null ? '' : when(payment.escrow_expires_at)}</td></tr>`,
  )
  const bridgeRows = view.bridge.map(
    (order) => html`<tr data-testid="bridge-row" data-quote-id="${String(order.quoteId)}">
<td class="mono">${String(order.quoteId)}</td><td class="mono">${String(order.paymentId)}</td><td>${String(order.originChain)} ${String(order.originToken)}</td>
<td class="num">${String(order.amountIn)}</td><td class="num">${String(order.amountDeposited)}</td><td class="num">${String(order.amountOut)}</td>
<td>!${statusBadge(String(order.status), 'bridge-status')}</td><td>${String(order.expiresAt).replace('T', ' ').slice(0, 19)}</td></tr>`,
  )
  const escrowTable =
    escrowRows.length === 0
      ? html`<p data-testid="no-escrow-orders">No escrow orders.</p>`
      : html`<table data-testid="escrow-table"><thead><tr><th scope="col">Order</th><th scope="col">Payment</th><th scope="col">State</th><th scope="col" class="num">Received (USDC)</th><th scope="col">Payee</th><th scope="col">Fee (bps)</th><th scope="col">Funding deadline</th></tr></thead><tbody>!${escrowRows}</tbody></table>`
  const bridgeTable =
    bridgeRows.length === 0
      ? html`<p data-testid="no-bridge-orders">No bridge orders.</p>`
      : html`<table data-testid="bridge-table"><thead><tr><th scope="col">Quote</th><th scope="col">Payment</th><th scope="col">From</th><th scope="col" class="num">Amount in</th><th scope="col" class="num">Deposited</th><th scope="col" class="num">USDC out</th><th scope="col">State</th><th scope="col">Deadline</th></tr></thead><tbody>!${bridgeRows}</tbody></table>`
  return html`<h1>Escrow and bridge orders</h1>!${subNav('orders')}!${scopeNote(view.viewer)}
<section id="escrow-orders" data-live aria-labelledby="escrow-heading"><h2 id="escrow-heading">Escrow orders</h2>!${escrowTable}!${pager(view.escrowMeta, to('escrowPage'), 'escrow orders', 'escrow-page')}</section>
<section id="bridge-orders" data-live aria-labelledby="bridge-heading"><h2 id="bridge-heading">Bridge (cross-chain) orders</h2>!${bridgeTable}!${pager(view.bridgeMeta, to('bridgePage'), 'bridge orders', 'bridge-page')}</section>`
}
