// What every dashboard page shares: the signed-in session of a request, pages sent in the frame
// with a fresh CSP nonce, form fields (CSRF token, idempotency key), POST-redirect-GET, and the
// one mapping of errors to readable pages (the API's own mapping, http/errors.ts, shown as HTML).
import { randomBytes, randomUUID } from 'node:crypto'
import type { Request, RequestHandler, Response } from 'express'
import { html } from 'ghtml'
import type { SandboxContext } from '../context.js'
import type { MerchantRow } from '../db/schema.js'
import { errorResponse } from '../http/errors.js'
import { listMerchants } from '../merchants/merchant-repository.js'
import type { RequestLog } from '../request-log/request-log.js'
import type { SandboxStateControls } from '../snapshots/state-controls.js'
import { csrfInput, DASHBOARD_PATH, renderFrame, type NavItem } from './dashboard-layout.js'
import type { DashboardSession, DashboardSessions } from './dashboard-sessions.js'

export interface PageContent {
  title: string
  /** The id of the view this page belongs to (its nav item is marked current). */
  current?: string
  body: string
  status?: number
  /** The payment the page is about: it refreshes only on that payment's changes. */
  liveTopic?: string
}

/** Thrown by a page that needs a merchant when an admin has not picked one. */
export class NoMerchantSelected extends Error {}

const sessions = new WeakMap<Request, DashboardSession>()

export function attachSession(req: Request, session: DashboardSession): void {
  sessions.set(req, session)
}

/** The signed-in session of a request past the sign-in check, if any. */
export const sessionIfAny = (req: Request): DashboardSession | undefined => sessions.get(req)

/** The form body of a POST (urlencoded, parsed by the dashboard's router): its text fields only. */
export function formOf(req: Request): Record<string, string> {
  const body: unknown = req.body
  if (typeof body !== 'object' || body === null) return {}
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
}

/** A link within the dashboard with a query built by URLSearchParams (empty values left out). */
export function dashboardHref(path: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value))
  const search = params.toString()
  return `${DASHBOARD_PATH}${path}${search ? `?${search}` : ''}`
}

/** Headers of every dashboard page: a strict CSP with this response's nonce, and nothing cached or framed. */
export function pageHeaders(nonce: string): Record<string, string> {
  return {
    'Cache-Control': 'no-store',
    'Content-Security-Policy': [
      "default-src 'self'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "img-src 'self' data:",
      "object-src 'none'",
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  }
}

export class DashboardKit {
  constructor(
    readonly ctx: SandboxContext,
    readonly sessions: DashboardSessions,
    readonly requestLog: RequestLog | undefined,
    /** The navigation: the registered views this session may see. */
    private readonly navFor: (session: DashboardSession | undefined) => NavItem[],
    /** The sandbox's snapshot, restore and reset controls; none in an app built without them (a test's). */
    readonly state?: SandboxStateControls,
  ) {}

  /** The request's session; the router lets no request reach a view without one. */
  sessionOf(req: Request): DashboardSession {
    const session = sessions.get(req)
    if (!session) throw new Error('Dashboard view reached without a session')
    return session
  }

  /** The merchant the session looks at (an admin picks one with the selector). */
  merchantOf(req: Request): MerchantRow {
    const merchant = this.sessionOf(req).merchant
    if (!merchant) throw new NoMerchantSelected()
    return merchant
  }

  /** The hidden CSRF field of the request's session, for a form. */
  csrfField(req: Request): string {
    return csrfInput(this.sessionOf(req).csrfToken)
  }

  /** A hidden Idempotency-Key drawn at render: submitting the same form twice acts once. */
  idempotencyField(): string {
    return html`<input type="hidden" name="idempotency_key" value="${`dash_${randomUUID()}`}">`
  }

  /** Sends a page in the frame with a fresh nonce. */
  async page(req: Request, res: Response, content: PageContent): Promise<void> {
    const nonce = randomBytes(16).toString('base64')
    const session = sessions.get(req)
    const frameSession = session && {
      isAdmin: session.isAdmin,
      merchant: session.merchant,
      merchants: session.isAdmin ? await listMerchants(this.ctx.db) : [],
      csrfToken: session.csrfToken,
    }
    const body = renderFrame({
      nonce,
      title: content.title,
      current: content.current,
      nav: this.navFor(session),
      session: frameSession,
      liveTopic: content.liveTopic,
      body: content.body,
    })
    res
      .status(content.status ?? 200)
      .type('html')
      .set(pageHeaders(nonce))
      .send(body)
  }

  /** POST-redirect-GET. */
  seeOther(res: Response, location: string): void {
    res.set('Cache-Control', 'no-store').redirect(303, location)
  }

  /** Any error as a page: the API's status, reason and message; a 500 says only that it was unexpected (and is logged). */
  async errorPage(req: Request, res: Response, error: unknown, back?: { href: string; label: string }): Promise<void> {
    if (error instanceof NoMerchantSelected) {
      await this.page(req, res, {
        title: 'Pick a merchant',
        status: 409,
        body: html`<h1>Pick a merchant</h1><p class="notice" data-testid="pick-merchant">This page shows one merchant's data: choose one with the merchant selector above.</p>`,
      })
      return
    }
    const { body } = errorResponse(error, this.ctx.log)
    const backLink = back ? html`<p><a href="${back.href}" data-testid="error-back">${back.label}</a></p>` : ''
    await this.page(req, res, {
      title: body.reason,
      status: body.statusCode,
      body: html`<h1>${body.reason}</h1><p class="notice error" role="alert" data-testid="error" data-status="${body.statusCode}">${body.message}</p>!${backLink}`,
    })
  }

  /** An async page handler; whatever it throws becomes an error page. */
  handle(work: (req: Request, res: Response) => Promise<void>, back?: (req: Request) => { href: string; label: string }): RequestHandler {
    return async (req, res) => {
      try {
        await work(req, res)
      } catch (error) {
        await this.errorPage(req, res, error, back?.(req))
      }
    }
  }
}
