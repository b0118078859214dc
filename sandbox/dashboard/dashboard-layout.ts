// The HTML frame of every dashboard page: the navigation of the registered views, the merchant
// being looked at (a selector for admin sessions), sign-out, and the page's body. Built with
// ghtml's auto-escaping tag: every interpolated value is escaped, except fragments built by the
// dashboard's own templates, marked `!${…}`. The stylesheet and script are files served by the
// dashboard (dashboard-assets.ts), loaded with the response's CSP nonce.
import { html } from 'ghtml'
import { DASHBOARD_PATH } from '../../src/api/paths.js'
import type { MerchantRow } from '../db/schema.js'
import { ASSET_PATHS } from './dashboard-assets.js'

export { DASHBOARD_PATH }

export interface NavItem {
  id: string
  title: string
  href: string
}

/** What the frame shows of the signed-in session; none on the sign-in and error pages of a visitor. */
export interface FrameSession {
  isAdmin: boolean
  merchant: MerchantRow | undefined
  /** Every merchant, for an admin's selector. */
  merchants: MerchantRow[]
  csrfToken: string
}

export interface PageFrame {
  nonce: string
  title: string
  /** The nav item of this page, if it is a view's. */
  current?: string
  nav: NavItem[]
  session?: FrameSession
  /** The payment a page is about: it refreshes only on that payment's changes. */
  liveTopic?: string
  body: string
}

/** The hidden field every state-changing form of a session carries. */
export const csrfInput = (token: string): string => html`<input type="hidden" name="csrf_token" value="${token}">`

function merchantBar(session: FrameSession): string {
  const signOut = html`<form method="post" action="${DASHBOARD_PATH}/sign-out" class="inline">!${csrfInput(session.csrfToken)}<button type="submit" class="secondary" data-testid="sign-out">Sign out</button></form>`
  if (!session.isAdmin) {
    return html`<div class="session"><span>Merchant: <strong data-testid="current-merchant">${session.merchant?.name ?? ''}</strong></span>!${signOut}</div>`
  }
  const options = session.merchants.map(
    (m) => html`<option value="${m.id}"!${m.id === session.merchant?.id ? ' selected' : ''}>${m.name} (${m.settlement_mode})</option>`,
  )
  return html`<div class="session"><form method="post" action="${DASHBOARD_PATH}/merchant" class="inline">!${csrfInput(session.csrfToken)}
<label for="merchant-select">Merchant</label> <select id="merchant-select" name="merchant_id" data-testid="merchant-select">!${options}</select>
<button type="submit" class="secondary" data-testid="switch-merchant">Switch</button></form><span class="badge">admin</span>!${signOut}</div>`
}

export function renderFrame(frame: PageFrame): string {
  const nav = frame.nav.map((item) =>
    item.id === frame.current
      ? html`<li><a href="${item.href}" aria-current="page" data-testid="nav-${item.id}">${item.title}</a></li>`
      : html`<li><a href="${item.href}" data-testid="nav-${item.id}">${item.title}</a></li>`,
  )
  const header = frame.session
    ? html`<header><a class="brand" href="${DASHBOARD_PATH}">paybox sandbox</a><nav aria-label="Views"><ul>!${nav}</ul></nav>!${merchantBar(frame.session)}</header>`
    : html`<header><span class="brand">paybox sandbox</span></header>`
  // The live script only where there is someone signed in to push changes to.
  const script = frame.session ? html`<script nonce="${frame.nonce}" src="${ASSET_PATHS.script}" defer></script>` : ''
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>${frame.title} · paybox dashboard</title><link rel="stylesheet" href="${ASSET_PATHS.style}" nonce="${frame.nonce}">!${script}</head>
<body><a class="skip" href="#main">Skip to content</a>!${header}
<main id="main" tabindex="-1"!${frame.liveTopic ? html` data-live-topic="${frame.liveTopic}"` : ''}>
!${frame.body}
</main></body></html>`
}

/** A page's heading with what it is about. */
export const heading = (title: string): string => html`<h1>${title}</h1>`
