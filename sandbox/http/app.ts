// The Express application: body handling, authentication per endpoint family (spec 5 and 7),
// the domain routers, and one error mapping at the end.
import express, { type Express } from 'express'
import { adminRoutes } from '../admin/admin-routes.js'
import { checkoutRoutes } from '../checkout/checkout-routes.js'
import { shortLinkRoutes } from '../checkout/short-link-routes.js'
import type { SandboxContext } from '../context.js'
import { balanceRoutes } from '../balances/balance-routes.js'
import { currencyRoutes } from '../currencies/currency-routes.js'
import { quoteRoutes } from '../cross-chain/quote-routes.js'
import { escrowRoutes } from '../escrow/escrow-routes.js'
import { feeTierRoutes } from '../fees/fee-tier-routes.js'
import { invoiceRoutes } from '../invoices/invoice-routes.js'
import { HORIZON_PATH, horizonRoutes } from '../horizon/horizon-routes.js'
import { ledgerRoutes } from '../ledger/ledger-routes.js'
import { walletRoutes } from '../ledger/wallet-routes.js'
import { merchantRoutes } from '../merchants/merchant-routes.js'
import { openApiRoutes } from '../openapi/openapi-routes.js'
import { paymentRoutes, type PaymentAnswers } from '../payments/payment-routes.js'
import { refundRoutes } from '../refunds/refund-routes.js'
import { RequestLog } from '../request-log/request-log.js'
import { requestLogRoutes } from '../request-log/request-log-routes.js'
import { clockRoutes } from '../simulation/clock-routes.js'
import { paymentSimulationRoutes } from '../simulation/payment-simulation-routes.js'
import { webhookLogRoutes } from '../webhooks/webhook-log-routes.js'
import { HealthService } from '../health/health-service.js'
import { healthRoutes } from '../health/health-routes.js'
import type { Security } from '../openapi/operation.js'
import { OPERATIONS } from '../openapi/operations.js'
import { snapshotRoutes, type SandboxStateControls } from '../snapshots/snapshot-routes.js'
import { authenticateAsDeclared, expressPathsPattern } from './authentication.js'
import { parseJsonBody } from './body.js'
import { errorMiddleware, notFoundRoute } from './errors.js'
import { publicRouteLimit } from './rate-limit.js'
import { strictQuery } from './strict-query.js'

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
  expressPathsPattern(OPERATIONS.filter((operation) => operation.method === 'post' && operation.security === security).map((o) => o.path))

export function createApp(ctx: SandboxContext, controls: AppControls = {}): Express {
  const app = express()
  // Nothing here needs ETags, the X-Powered-By banner, or nested query objects.
  app.disable('x-powered-by')
  app.set('etag', false)
  app.set('query parser', 'simple')

  app.use(healthRoutes(controls.health ?? new HealthService(ctx)))
  // The API's own description is public, like /health.
  app.use(openApiRoutes(ctx))
  app.use(shortLinkRoutes(ctx))
  // Under --shared, what anyone may do without credentials is limited per client address.
  app.use(publicRouteLimit(ctx.rateLimits?.publicRoutes, publicPosts('none')))
  app.use(checkoutRoutes(ctx))
  // Horizon needs no credentials, like the real one, and reads form bodies (tx=…), not JSON.
  app.use(HORIZON_PATH, horizonRoutes(ctx))

  app.use(parseJsonBody)

  // Who may call what: the admin token for sandbox-wide controls, digest auth for merchants, as declared.
  app.use(authenticateAsDeclared(ctx, OPERATIONS))
  app.use(publicRouteLimit(ctx.rateLimits?.publicRoutes, publicPosts('optional-digest')))
  // A query parameter no route declares is refused on every route (docs/api.md).
  app.use(strictQuery(OPERATIONS))

  // The busiest routes first: a payment request skips the admin routers' matching.
  app.use(paymentRoutes(ctx, controls.payments))
  app.use(adminRoutes(ctx))
  if (controls.state) app.use(snapshotRoutes(ctx, controls.state))
  app.use(clockRoutes(ctx))
  app.use(ledgerRoutes(ctx))
  app.use(walletRoutes(ctx))
  app.use(refundRoutes(ctx))
  app.use(paymentSimulationRoutes(ctx))
  app.use(escrowRoutes(ctx))
  app.use(quoteRoutes(ctx))
  app.use(balanceRoutes(ctx))
  app.use(feeTierRoutes(ctx))
  app.use(invoiceRoutes(ctx))
  app.use(merchantRoutes())
  app.use(webhookLogRoutes(ctx))
  app.use(requestLogRoutes(controls.requestLog ?? new RequestLog(ctx.wallClock)))
  app.use(currencyRoutes())

  app.use(notFoundRoute)
  app.use(errorMiddleware(ctx.log))
  return app
}
