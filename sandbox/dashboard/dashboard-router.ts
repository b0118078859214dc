// The dashboard at /dashboard, on the sandbox's own port: its assets and sign-in for anyone,
// then, for signed-in sessions only, the event stream and the registered views. Every POST past
// sign-in carries the session's CSRF token, checked here once for all of them. Mounted before
// the JSON body reader (app/app.ts): its forms are urlencoded.
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express'
import type { SandboxContext } from '../context.js'
import { ApiError } from '../errors.js'
import { publicRouteLimit } from '../http/rate-limit.js'
import type { RequestLog } from '../request-log/request-log.js'
import type { SandboxStateControls } from '../snapshots/state-controls.js'
import { serveScript, serveStyle, ASSET_PATHS } from './dashboard-assets.js'
import { attachSession, DashboardKit, formOf, sessionIfAny } from './dashboard-kit.js'
import { DASHBOARD_PATH, type NavItem } from './dashboard-layout.js'
import { csrfTokenMatches, DashboardSessions, type DashboardSession } from './dashboard-sessions.js'
import { DashboardCookies, SIGN_IN_PATH, sessionRoutes, signInRoutes } from './dashboard-sign-in.js'
import { dashboardStream } from './dashboard-stream.js'
import type { DashboardView } from './dashboard-view.js'
import { DASHBOARD_VIEWS } from './dashboard-views.js'

/** A form is a few short fields; nothing bigger is read. */
const FORM_LIMIT = '16kb'

const relative = (path: string) => path.slice(DASHBOARD_PATH.length)

export function dashboardRouter(
  ctx: SandboxContext,
  requestLog?: RequestLog,
  views: readonly DashboardView[] = DASHBOARD_VIEWS,
  state?: SandboxStateControls,
): Router {
  const sessions = new DashboardSessions(ctx.db, ctx.wallClock)
  const cookies = new DashboardCookies(ctx.publicUrl)
  const navFor = (session: DashboardSession | undefined): NavItem[] =>
    session
      ? views
          .filter((view) => !view.adminOnly || session.isAdmin)
          .map((view) => ({ id: view.id, title: view.title, href: `${DASHBOARD_PATH}${view.path}` }))
      : []
  const kit = new DashboardKit(ctx, sessions, requestLog, navFor, state)
  const router = Router()

  router.get(relative(ASSET_PATHS.style), serveStyle)
  router.get(relative(ASSET_PATHS.script), serveScript)

  router.use(express.urlencoded({ extended: false, limit: FORM_LIMIT, parameterLimit: 50 }))
  // Under --shared, merchant sign-in attempts count per address like the API's other POSTs without credentials.
  router.use(publicRouteLimit(ctx.rateLimits?.publicRoutes, /^\/sign-in\/?$/i))
  router.use(signInRoutes(kit, cookies))

  // Past this point, only signed-in sessions: a page sends a visitor to sign in, anything else is a 401.
  const requireSession: RequestHandler = async (req, res, next) => {
    try {
      const session = await sessions.find(cookies.read(req, cookies.session))
      if (session) {
        attachSession(req, session)
        return next()
      }
      if (req.method === 'GET' && req.headers.accept !== 'text/event-stream') return kit.seeOther(res, SIGN_IN_PATH)
      await kit.errorPage(req, res, new ApiError(401, 'Unauthorized', 'Sign in to the dashboard first'), {
        href: SIGN_IN_PATH,
        label: 'Sign in',
      })
    } catch (error) {
      next(error)
    }
  }
  // A state-changing form without its session's token changes nothing (synchronizer token).
  const requireCsrfToken: RequestHandler = (req, res, next) => {
    if (req.method !== 'POST') return next()
    if (csrfTokenMatches(kit.sessionOf(req), formOf(req).csrf_token)) return next()
    void kit.errorPage(
      req,
      res,
      new ApiError(
        403,
        'Forbidden',
        'This form is missing its security (CSRF) token or carries a stale one: nothing was changed. Reload the page and try again.',
      ),
    )
  }
  router.use(requireSession, requireCsrfToken)

  router.get('/events', dashboardStream(kit))
  router.use(sessionRoutes(kit, cookies))
  for (const view of views) {
    const routes = view.routes(kit)
    if (view.adminOnly) {
      router.use((req, res, next) => {
        const belongs = req.path === view.path || req.path.startsWith(`${view.path}/`)
        if (!belongs || kit.sessionOf(req).isAdmin) return next()
        void kit.errorPage(req, res, new ApiError(404, 'Not Found', 'No such dashboard page'))
      })
    }
    router.use(routes)
  }
  // The start page is the first view's, unless a view answers "/" itself (an overview).
  router.get('/', (req, res) => {
    const first = navFor(sessionIfAny(req))[0]
    kit.seeOther(res, first ? first.href : SIGN_IN_PATH)
  })

  router.use((req, res) => void kit.errorPage(req, res, new ApiError(404, 'Not Found', 'No such dashboard page')))
  // A form body-parser could not read (too large, bad encoding) is a readable 4xx page too.
  const formErrors: ErrorRequestHandler = (error, req, res, _next) => void kit.errorPage(req, res, error)
  router.use(formErrors)
  return router
}
