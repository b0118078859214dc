// The Express application: the public routers, body handling, then authentication, strict
// queries and routes derived from the declared operations, and one error mapping at the end.
import express, { type Express } from 'express'
import { adminHandlers } from '../admin/admin-routes.js'
import { checkoutHandlers } from '../checkout/checkout-routes.js'
import { dashboardHandlers } from '../dashboard/dashboard-api-routes.js'
import { dashboardRouter } from '../dashboard/dashboard-router.js'
import { DASHBOARD_PATH } from '../../src/api/paths.js'
import { shortLinkHandlers } from '../checkout/short-link-routes.js'
import type { SandboxContext } from '../context.js'
import { balanceHandlers } from '../balances/balance-routes.js'
import { currencyHandlers } from '../currencies/currency-routes.js'
import { quoteHandlers } from '../cross-chain/quote-routes.js'
import { escrowHandlers } from '../escrow/escrow-routes.js'
import { feeTierHandlers } from '../fees/fee-tier-routes.js'
import { invoiceHandlers } from '../invoices/invoice-routes.js'
import { HORIZON_PATH } from '../horizon/horizon-requests.js'
import { horizonHandlers, horizonRouter } from '../horizon/horizon-routes.js'
import { ledgerHandlers } from '../ledger-views/ledger-routes.js'
import { walletHandlers } from '../wallets/wallet-routes.js'
import { merchantHandlers } from '../merchants/merchant-routes.js'
import { openApiHandlers } from '../openapi/openapi-routes.js'
import { paymentHandlers, type PaymentAnswers } from '../payments/payment-routes.js'
import { refundHandlers } from '../refunds/refund-routes.js'
import { RequestLog } from '../request-log/request-log.js'
import { requestLogHandlers } from '../request-log/request-log-routes.js'
import { clockHandlers } from '../simulation/clock-routes.js'
import { merchantClockHandlers } from '../simulation/merchant-clock-routes.js'
import { tenantHandlers } from '../tenants/tenant-routes.js'
import { paymentSimulationHandlers } from '../simulation/payment-simulation-routes.js'
import { webhookLogHandlers } from '../webhooks/webhook-log-routes.js'
import { HealthService } from '../health/health-service.js'
import { healthHandlers } from '../health/health-routes.js'
import type { Security } from '../http/operation.js'
import { ROUTES } from '../openapi/operations.js'
import { snapshotHandlers } from '../snapshots/snapshot-routes.js'
import type { SandboxStateControls } from '../snapshots/state-controls.js'
import { authenticateAsDeclared, expressPathsPattern } from '../http/authentication.js'
import { declaredRoutes, routesByOperationId } from '../http/declared-routes.js'
import type { Handlers, PublicHandlers } from '../openapi/handlers.js'
import { parseJsonBody } from '../http/body.js'
import { errorMiddleware, notFoundRoute } from '../http/errors.js'
import { publicRouteLimit } from '../http/rate-limit.js'
import { strictQuery } from '../http/strict-query.js'
import { merchantAuthDeps } from './merchant-auth.js'

/** What the server hands the app beyond the context: its health checks and the state swaps (snapshots, reset). */
export interface AppControls {
  health?: HealthService
  state?: SandboxStateControls
  /** How payments are created and read; shared with the fast routes in front of the app. */
  payments?: PaymentAnswers
  /** The server's request log, which outlives state swaps; its routes read it. */
  requestLog?: RequestLog
}

/** The POSTs anyone may send without credentials (with `optional-digest`: when they send none). */
const publicPosts = (security: Security): RegExp =>
  expressPathsPattern(ROUTES.filter((operation) => operation.method === 'post' && operation.security === security).map((o) => o.path))

export function createApp(ctx: SandboxContext, controls: AppControls = {}): Express {
  const app = express()
  // Nothing here needs ETags, the X-Powered-By banner, or nested query objects.
  app.disable('x-powered-by')
  app.set('etag', false)
  app.set('query parser', 'simple')

  // The public operations, answered before the JSON body reader: /health, the API's own
  // description, short links, the checkout pages and Horizon, each family with its middleware.
  const publicRoutes = routesByOperationId({
    ...healthHandlers(controls.health ?? new HealthService(ctx)),
    ...openApiHandlers(ctx),
    ...shortLinkHandlers(ctx),
    ...checkoutHandlers(ctx),
    ...horizonHandlers(ctx),
  } satisfies PublicHandlers)
  const beforeBody = ROUTES.filter((operation) => operation.beforeBodyParser)
  const isHorizon = (path: string) => path === HORIZON_PATH || path.startsWith(`${HORIZON_PATH}/`)
  const isCheckout = (path: string) => path.startsWith('/checkout/')
  app.use(publicRoutes.routes(beforeBody.filter((operation) => !isHorizon(operation.path) && !isCheckout(operation.path))))
  // Under --shared, what anyone may do without credentials is limited per client address.
  app.use(publicRouteLimit(ctx.rateLimits?.publicRoutes, publicPosts('none')))
  app.use(publicRoutes.routes(beforeBody.filter((operation) => isCheckout(operation.path))))
  // Horizon needs no credentials, like the real one, and reads form bodies (tx=…), not JSON.
  app.use(
    HORIZON_PATH,
    horizonRouter(
      ctx,
      publicRoutes.routes(
        beforeBody.filter((operation) => isHorizon(operation.path)),
        HORIZON_PATH,
      ),
    ),
  )
  publicRoutes.refuseUnused()
  // The dashboard's pages and forms (urlencoded), with their own sign-in (docs/dashboard.md).
  app.use(DASHBOARD_PATH, dashboardRouter(ctx, controls.requestLog, undefined, controls.state))

  app.use(parseJsonBody)

  // Who may call what: the admin token for sandbox-wide controls, digest auth for merchants, as declared.
  app.use(authenticateAsDeclared(ctx, merchantAuthDeps(ctx), ROUTES))
  app.use(publicRouteLimit(ctx.rateLimits?.publicRoutes, publicPosts('optional-digest')))
  // A query parameter no route declares is refused on every route (docs/api.md).
  app.use(strictQuery(ROUTES))

  // Every other operation, each by the handler named by its declaration's id.
  const handlers = {
    ...paymentHandlers(ctx, controls.payments),
    ...refundHandlers(ctx),
    ...quoteHandlers(ctx),
    ...invoiceHandlers(ctx),
    ...balanceHandlers(ctx),
    ...feeTierHandlers(ctx),
    ...merchantHandlers(),
    ...currencyHandlers(),
    ...webhookLogHandlers(ctx),
    ...requestLogHandlers(controls.requestLog ?? new RequestLog(ctx.wallClock)),
    ...paymentSimulationHandlers(ctx),
    ...escrowHandlers(ctx),
    ...adminHandlers(ctx),
    ...clockHandlers(ctx),
    ...merchantClockHandlers(ctx),
    ...tenantHandlers(ctx),
    ...ledgerHandlers(ctx),
    ...walletHandlers(ctx),
    ...snapshotHandlers(ctx, controls.state),
    ...dashboardHandlers(ctx),
  } satisfies Handlers
  app.use(declaredRoutes(ROUTES, handlers))

  app.use(notFoundRoute)
  app.use(errorMiddleware(ctx.log))
  return app
}
