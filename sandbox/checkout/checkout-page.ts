// The HTML of the hosted checkout: the payment page with its sandbox buttons, the outcome page
// a button leads to, and the error page. Self-contained (no external assets, works offline);
// the only script and stylesheet are inline and carry the response's CSP nonce. Every page is
// built with ghtml's auto-escaping tag: every interpolated value is escaped, except a fragment
// this file built itself, which is marked `!${…}`.
import { html } from 'ghtml'
import { formatUsdcAmount, minorToMajorUnits } from '../../src/money.js'
import { findCurrency } from '../currencies/currency-table.js'
import type { PaymentRow } from '../db/schema.js'
import { HORIZON_PATH } from '../horizon/horizon-requests.js'
import { remainingValue } from '../payments/payment-receipts.js'
import { intendedAmount } from '../simulation/payment-simulation.js'
import { availableActions, merchantUrl, type CheckoutAction } from './checkout-service.js'
import { CHECKOUT_TEXT, type Lang } from './checkout-text.js'

/** How long the outcome page waits before sending the customer back to the merchant. */
export const REDIRECT_DELAY_SECONDS = 3

export interface PageFrame {
  lang: Lang
  /** The response's CSP nonce for the inline stylesheet and script. */
  nonce: string
}

export interface CheckoutLinks {
  /** The checkout page in the page's language. */
  checkout: string
  /** The current page in each language. */
  languages: Record<Lang, string>
  /** Where a sandbox button posts. */
  action: (action: CheckoutAction) => string
  authToken: string
}

export interface CheckoutPageView extends PageFrame {
  payment: PaymentRow
  /** The status the customer sees (statusAt: expired once past expiresAt, swept or not). */
  status: string
  /** Business time, for the time left until expiresAt. */
  now: number
  walletUri: string
  qrDataUrl: string
  links: CheckoutLinks
}

export interface OutcomePageView extends PageFrame {
  payment: PaymentRow
  status: string
  links: CheckoutLinks
}

export interface ErrorPageView extends PageFrame {
  /** Already in the page's language. */
  message: string
  /** Back to the checkout page, only for a caller who holds the payment's token. */
  backLink?: string
}

/** Smallest units in major units with the currency's symbol and precision: "€12.50", "CHF 12.50". */
export function formatAmount(value: number, currencyCode: string): string {
  const currency = findCurrency(currencyCode)
  if (!currency) return `${minorToMajorUnits(value, 2)} ${currencyCode}`
  const major = minorToMajorUnits(value, currency.precision)
  return /[A-Za-z]$/.test(currency.symbol) ? `${currency.symbol} ${major}` : `${currency.symbol}${major}`
}

export const formatUsdc = (stroops: number): string => formatUsdcAmount(BigInt(stroops))

/** "29:59", or "1:05:00" from an hour up; the countdown script formats the same way. */
export function formatTimeLeft(seconds: number): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = seconds % 60
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${minutes}:${pad(rest)}`
}

const STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#1a1a2e;line-height:1.4}',
  'nav{text-align:right;font-size:.85rem}',
  'h2{font-size:1rem;margin-top:2rem}',
  'dt{color:#666;font-size:.85rem}dd{margin:0 0 .8rem;overflow-wrap:anywhere}',
  'code{word-break:break-all;font-size:.8rem}',
  '.qr{display:block;width:14rem;max-width:100%;height:auto;image-rendering:pixelated;margin:1rem 0}',
  '.notice{padding:.75rem 1rem;border-radius:.5rem;background:#eef0f6}',
  '.notice.paid{background:#e3f6e8}.notice.failed,.notice.canceled,.notice.expired{background:#fbe9e9}',
  '.actions form{display:inline-block;margin:0 .5rem .5rem 0}',
  'button,.button{font:inherit;padding:.5rem .9rem;border-radius:.4rem;border:1px solid #1a1a2e;background:#1a1a2e;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}',
  'button.secondary{background:#fff;color:#1a1a2e}',
  '.detail{font-size:.85em;opacity:.8;margin-left:.3em}',
].join('')

// Counts down from the server's figure (business time) by the seconds elapsed on the browser's
// own clock; at zero it says expired and hides the ways to pay. The server refuses a late
// button all the same.
const COUNTDOWN_SCRIPT = `(function(){
var el=document.querySelector('[data-seconds-left]');if(!el)return;
var left=Number(el.getAttribute('data-seconds-left')),start=Date.now();
function pad(n){return n<10?'0'+n:String(n)}
var timer=setInterval(function(){
var s=Math.max(0,left-Math.floor((Date.now()-start)/1000));
if(s===0){clearInterval(timer);el.textContent=el.getAttribute('data-expired-text');
document.querySelectorAll('[data-payable]').forEach(function(n){n.hidden=true});return}
var h=Math.floor(s/3600),m=Math.floor(s%3600/60),r=s%60;
el.textContent=(h>0?h+':'+pad(m):String(m))+':'+pad(r)},1000)})()`

interface LayoutOptions extends PageFrame {
  title: string
  body: string
  languages?: Record<Lang, string>
  /** Sends the browser on after REDIRECT_DELAY_SECONDS. */
  refreshTo?: string
  script?: string
}

function layout(options: LayoutOptions): string {
  const { lang, nonce } = options
  const refresh = options.refreshTo ? html`<meta http-equiv="refresh" content="${REDIRECT_DELAY_SECONDS};url=${options.refreshTo}">` : ''
  const languages = options.languages
  const other = languages ? (Object.keys(languages) as Lang[]).filter((code) => code !== lang) : []
  const switchTo = (code: Lang) =>
    html`<a data-testid="lang-${code}" href="${languages![code]}" hreflang="${code}" lang="${code}">${CHECKOUT_TEXT[code].languageName}</a>`
  const nav = other.length ? html`<nav>!${other.map(switchTo)}</nav>` : ''
  // The style and script are this file's own constants, not data: they go in as they are.
  const script = options.script ? html`<script nonce="${nonce}">!${options.script}</script>` : ''
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">!${refresh}
<title>${options.title}</title><style nonce="${nonce}">!${STYLE}</style></head>
<body><main>!${nav}
!${options.body}
</main>!${script}</body></html>`
}

const item = (label: string, testId: string, value: string): string => html`<dt>${label}</dt><dd data-testid="${testId}">${value}</dd>`

/** The payment's ledger transaction, linked to it on the sandbox's Horizon API (beside the checkout, whatever the public URL's path). */
function transactionItem(label: string, links: CheckoutLinks, hash: string): string {
  const href = new URL(`..${HORIZON_PATH}/transactions/${encodeURIComponent(hash)}`, links.checkout).href
  return html`<dt>${label}</dt><dd data-testid="stellar-tx"><a data-testid="stellar-tx-link" href="${href}">${hash}</a></dd>`
}

function statusItem(lang: Lang, status: string): string {
  const label = CHECKOUT_TEXT[lang].statuses[status] ?? status
  return html`<dt>${CHECKOUT_TEXT[lang].status}</dt><dd data-testid="status" data-status="${status}">${label}</dd>`
}

/** Amount asked, what has arrived and what remains. */
function amountItems(lang: Lang, payment: PaymentRow, status: string): string[] {
  const t = CHECKOUT_TEXT[lang]
  const currency = payment.amount_currency
  const items = [
    item(t.amount, 'amount', formatAmount(payment.amount_value, currency)),
    item(t.usdc, 'usdc', formatUsdc(payment.usdc_amount)),
  ]
  if (payment.amount_paid > 0 || payment.usdc_received > 0) {
    items.push(item(t.paidSoFar, 'amount-paid', `${formatAmount(payment.amount_paid, currency)} (${formatUsdc(payment.usdc_received)})`))
  }
  if (status === 'underpaid') items.push(item(t.remaining, 'remaining', remainingText(payment)))
  return items
}

function remainingText(payment: PaymentRow): string {
  const usdc = Math.max(0, payment.usdc_amount - payment.usdc_received)
  return `${formatAmount(remainingValue(payment), payment.amount_currency)} (${formatUsdc(usdc)})`
}

function header(payment: PaymentRow): string {
  return html`<h1 data-testid="merchant">${payment.merchant_name}</h1>
<p data-testid="description">${payment.description}</p>`
}

function actionForm(view: CheckoutPageView, action: CheckoutAction): string {
  const t = CHECKOUT_TEXT[view.lang]
  const { payment } = view
  const pays =
    action === 'pay-full'
      ? remainingValue(payment)
      : action === 'pay-part'
        ? intendedAmount(payment, 'underpay')
        : action === 'overpay'
          ? intendedAmount(payment, 'overpay')
          : undefined
  const detail = pays === undefined ? '' : html`<span class="detail">${formatAmount(pays, payment.amount_currency)}</span>`
  const secondary = action === 'fail' || action === 'cancel' ? html` class="secondary"` : ''
  return html`<form method="post" action="${view.links.action(action)}">
<input type="hidden" name="auth_token" value="${view.links.authToken}"><input type="hidden" name="lang" value="${view.lang}">
<button type="submit" data-testid="action-${action}"!${secondary}>${t.actions[action]}!${detail}</button></form>`
}

/** The checkout page: the payment, and the ways to pay it while it can be paid. */
export function renderCheckoutPage(view: CheckoutPageView): string {
  const { payment, status, lang } = view
  const t = CHECKOUT_TEXT[lang]
  const actions = availableActions(status)
  const items = [...amountItems(lang, payment, status), statusItem(lang, status)]
  let script: string | undefined
  if (status === 'open') {
    const secondsLeft = Math.max(0, Math.floor((payment.expires_at - view.now) / 1000))
    const expiresAt = new Date(payment.expires_at).toISOString()
    items.push(
      html`<dt>${t.timeLeft}</dt><dd><time data-testid="time-left" datetime="${expiresAt}" data-seconds-left="${secondsLeft}" data-expired-text="${t.expiredNow}">${formatTimeLeft(secondsLeft)}</time></dd>`,
    )
    script = COUNTDOWN_SCRIPT
  }
  if (payment.stellar_tx_id) items.push(transactionItem(t.transaction, view.links, payment.stellar_tx_id))

  const closed = actions.length === 0 ? html`<p class="notice ${status}" data-testid="notice">${t.closed[status] ?? ''}</p>` : ''
  const ways =
    actions.length === 0
      ? returnLink(lang, payment, status)
      : html`<section data-testid="wallet" data-payable>
<img class="qr" data-testid="qr" src="${view.qrDataUrl}" alt="${t.qrAlt}">
<p>${t.scanHint}</p>
<dl><dt>${t.walletUri}</dt><dd><code data-testid="wallet-uri">${view.walletUri}</code></dd></dl>
</section>
<section class="actions" data-testid="actions" data-payable><h2>${t.sandboxActions}</h2>
!${actions
          .filter((action) => action !== 'pay-part' || intendedAmount(payment, 'underpay') !== undefined)
          .map((action) => actionForm(view, action))
          .join('\n')}
</section>`

  return layout({
    lang,
    nonce: view.nonce,
    title: t.pageTitle(payment.merchant_name),
    languages: view.links.languages,
    body: html`!${header(payment)}
!${closed}
<dl>!${items.join('\n')}</dl>
!${ways}`,
    ...(script ? { script } : {}),
  })
}

/** Where "return to the merchant" goes: redirectUrl once paid, cancelUrl otherwise. */
function returnUrl(payment: PaymentRow, status: string): string | undefined {
  return merchantUrl(status === 'paid' ? payment.redirect_url : payment.cancel_url)
}

function returnLink(lang: Lang, payment: PaymentRow, status: string): string {
  const url = returnUrl(payment, status)
  if (!url) return ''
  const label = CHECKOUT_TEXT[lang].returnTo(payment.merchant_name)
  return html`<p><a class="button" data-testid="return-link" href="${url}">${label}</a></p>`
}

/**
 * The page after a sandbox button: what happened, and where the customer goes next. Paid goes
 * back to redirectUrl and canceled to cancelUrl, by themselves after a few seconds; without a
 * URL the page is the confirmation. Underpaid leads back to the checkout to pay the rest.
 */
export function renderOutcomePage(view: OutcomePageView): string {
  const { payment, status, lang } = view
  const t = CHECKOUT_TEXT[lang]
  const message =
    status === 'underpaid'
      ? t.underpaidOutcome(formatAmount(remainingValue(payment), payment.amount_currency))
      : (t.outcome[status] ?? t.statuses[status] ?? status)
  const items = [...amountItems(lang, payment, status), statusItem(lang, status)]
  if (payment.stellar_tx_id) items.push(transactionItem(t.transaction, view.links, payment.stellar_tx_id))

  const autoRedirect = status === 'paid' || status === 'canceled' ? returnUrl(payment, status) : undefined
  let next: string
  if (status === 'underpaid') {
    next = html`<p><a class="button" data-testid="pay-rest" href="${view.links.checkout}">${t.payRest}</a></p>`
  } else if (autoRedirect) {
    next = html`<p data-testid="redirecting">${t.redirecting(payment.merchant_name)}</p>!${returnLink(lang, payment, status)}`
  } else if (status === 'paid') {
    next = html`<p data-testid="confirmation">${t.confirmation}</p>`
  } else {
    next = returnLink(lang, payment, status)
  }

  return layout({
    lang,
    nonce: view.nonce,
    title: t.pageTitle(payment.merchant_name),
    languages: view.links.languages,
    ...(autoRedirect ? { refreshTo: autoRedirect } : {}),
    body: html`!${header(payment)}
<p class="notice ${status}" data-testid="outcome" data-outcome="${status}">${message}</p>
<dl>!${items.join('\n')}</dl>
!${next}`,
  })
}

/** An error in the page's language: never payment data unless the caller holds the token. */
export function renderErrorPage(view: ErrorPageView): string {
  const t = CHECKOUT_TEXT[view.lang]
  const back = view.backLink
    ? html`<p><a class="button" data-testid="back-to-payment" href="${view.backLink}">${t.backToPayment}</a></p>`
    : ''
  return layout({
    lang: view.lang,
    nonce: view.nonce,
    title: t.errorTitle,
    body: html`<h1 data-testid="error">${view.message}</h1>
!${back}`,
  })
}
