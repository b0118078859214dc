// Signing in and out of the dashboard. A link from `paybox dashboard` carries a one-time token:
// GET /dashboard/sign-in?token=… redeems it, sets the session cookie and redirects to a URL
// without the token. A merchant signs in with its API key and secret in a form (guarded by a
// double-submit token, since there is no session yet to bind one to).
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { parse as parseCookies, serialize as serializeCookie, type SerializeOptions } from 'cookie'
import { Router, type Request, type Response } from 'express'
import { html } from 'ghtml'
import { ApiError } from '../errors.js'
import type { DashboardKit } from './dashboard-kit.js'
import { DASHBOARD_PATH } from './dashboard-layout.js'
import { SESSION_TTL_MS, type DashboardSession } from './dashboard-sessions.js'

export const SIGN_IN_PATH = `${DASHBOARD_PATH}/sign-in`

/** The dashboard's cookies, named after the sandbox's port: two local sandboxes share a host's cookies. */
export class DashboardCookies {
  readonly session: string
  readonly signIn: string
  readonly #secure: boolean

  constructor(publicUrl: string) {
    const url = new URL(publicUrl)
    const suffix = url.port || (url.protocol === 'https:' ? '443' : '80')
    this.session = `paybox_dashboard_${suffix}`
    this.signIn = `paybox_dashboard_sign_in_${suffix}`
    this.#secure = url.protocol === 'https:'
  }

  #options(maxAgeSeconds: number): SerializeOptions {
    return { httpOnly: true, sameSite: 'strict', path: DASHBOARD_PATH, secure: this.#secure, maxAge: maxAgeSeconds }
  }

  read(req: Request, name: string): string | undefined {
    const header = req.headers.cookie
    return header ? parseCookies(header)[name] : undefined
  }

  set(res: Response, name: string, value: string, maxAgeSeconds: number): void {
    res.append('Set-Cookie', serializeCookie(name, value, this.#options(maxAgeSeconds)))
  }

  clear(res: Response, name: string): void {
    res.append('Set-Cookie', serializeCookie(name, '', { ...this.#options(0), expires: new Date(0) }))
  }
}

const sameText = (a: string | undefined, b: string | undefined): boolean => {
  if (a === undefined || b === undefined) return false
  const [x, y] = [Buffer.from(a), Buffer.from(b)]
  return x.length === y.length && timingSafeEqual(x, y)
}

function signInForm(formToken: string, problem?: string): string {
  const alert = problem ? html`<p class="notice error" role="alert" data-testid="sign-in-error">${problem}</p>` : ''
  return html`<h1>Sign in to the dashboard</h1>!${alert}
<p>Run <code>paybox dashboard</code> for a link that signs you in as the sandbox's admin, or sign in as a merchant with its API key and secret (<code>paybox sandbox keys</code>).</p>
<form method="post" action="${SIGN_IN_PATH}" class="stack" data-testid="sign-in-form">
<input type="hidden" name="form_token" value="${formToken}">
<div><label for="api-key">API key</label><input id="api-key" name="api_key" autocomplete="username" required maxlength="256"></div>
<div><label for="api-secret">API secret</label><input id="api-secret" name="api_secret" type="password" autocomplete="current-password" required maxlength="256"></div>
<div><button type="submit" data-testid="sign-in">Sign in</button></div>
</form>`
}

/** The sign-in page, the form's post, the link's redemption, and sign-out. */
export function signInRoutes(kit: DashboardKit, cookies: DashboardCookies): Router {
  const router = Router()

  const startSession = (res: Response, sessionId: string) => {
    cookies.set(res, cookies.session, sessionId, Math.floor(SESSION_TTL_MS / 1000))
    cookies.clear(res, cookies.signIn)
    kit.seeOther(res, DASHBOARD_PATH)
  }

  /** The form, with a fresh double-submit token in a cookie and a hidden field. */
  const showForm = async (req: Request, res: Response, status: number, problem?: string) => {
    const formToken = randomBytes(24).toString('base64url')
    cookies.set(res, cookies.signIn, formToken, 15 * 60)
    await kit.page(req, res, { title: 'Sign in', status, body: signInForm(formToken, problem) })
  }

  router.get(
    '/sign-in',
    kit.handle(async (req, res) => {
      const { token } = req.query
      if (token === undefined) return showForm(req, res, 200)
      const opened = await kit.sessions.redeem(token)
      if (!opened) {
        return showForm(req, res, 401, 'This sign-in link was already used or has expired: run `paybox dashboard` for a new one.')
      }
      startSession(res, opened.sessionId)
    }),
  )

  router.post(
    '/sign-in',
    kit.handle(async (req, res) => {
      const form = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {}
      const formToken = typeof form.form_token === 'string' ? form.form_token : undefined
      if (!sameText(cookies.read(req, cookies.signIn), formToken)) {
        return showForm(req, res, 403, 'This form has expired or did not come from this page: sign in again.')
      }
      const opened = await kit.sessions.signInAsMerchant(form.api_key, form.api_secret)
      if (!opened) return showForm(req, res, 401, 'No merchant has this API key and secret.')
      startSession(res, opened.sessionId)
    }),
  )

  return router
}

/** Signed-in routes of the session itself: sign-out and, for an admin, switching merchants. */
export function sessionRoutes(kit: DashboardKit, cookies: DashboardCookies): Router {
  const router = Router()
  router.post(
    '/sign-out',
    kit.handle(async (req, res) => {
      await kit.sessions.signOut(kit.sessionOf(req))
      cookies.clear(res, cookies.session)
      kit.seeOther(res, SIGN_IN_PATH)
    }),
  )
  router.post(
    '/merchant',
    kit.handle(async (req, res) => {
      const session: DashboardSession = kit.sessionOf(req)
      if (!session.isAdmin) throw new ApiError(403, 'Forbidden', 'Only an admin session can switch merchants')
      const merchantId = (req.body as Record<string, unknown> | undefined)?.merchant_id
      if (typeof merchantId !== 'string' || !(await kit.sessions.switchMerchant(session, merchantId))) {
        throw new ApiError(400, 'Bad Request', 'merchant_id: no such merchant')
      }
      // To the start page: the page the selector was on showed the other merchant's data.
      kit.seeOther(res, DASHBOARD_PATH)
    }),
  )
  return router
}
