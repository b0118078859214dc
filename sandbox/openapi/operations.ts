// Every route of the sandbox: the JSON API's entries as the contract's wire declares them
// (src/api/wire.ts, generated from src/api/contract/: method, path, security, 401 reason, whether
// answered before the body reader, query names), with the checkout pages, short links and
// Horizon, which only the sandbox serves. From this table: authentication
// (http/authentication.ts), the strict-query rule, and every Express route, by operationId
// (http/declared-routes.ts). It loads no answer schema: the document does, on first request
// (documented-operations.ts).
import { z } from 'zod'
import { wire } from '../../src/api/wire.js'
import type { EntryWire } from '../../src/api/contract/entry.js'
import { PAYMENT_ID } from '../../src/api/contract/entry.js'
import { HORIZON_OPERATIONS } from '../horizon/horizon-operations.js'
import type { Operation, Route } from '../http/operation.js'
import { LOCALES } from '../../src/api/enumerations.js'

/** The hosted payment page and short links: HTML and redirects, for browsers rather than clients. */
export const PAGE_OPERATIONS = [
  {
    method: 'get',
    path: '/s/:code',
    operationId: 'followShortLink',
    summary: "Short payment link: redirects to the payment's hostedUrl",
    tag: 'Checkout',
    security: 'none',
    pathParams: { code: "The code of the payment's shortUrl" },
    success: [{ status: 302, description: 'To the hosted payment page', redirect: true }],
    errors: [404],
    beforeBodyParser: true,
  },
  {
    method: 'get',
    path: '/checkout/:id',
    operationId: 'getCheckoutPage',
    summary: 'The hosted payment page (HTML)',
    tag: 'Checkout',
    security: 'none',
    description: "The page behind hostedUrl. Without the payment's auth_token it is a 404 page that shows nothing of the payment.",
    pathParams: PAYMENT_ID,
    query: z.object({ paymentId: z.string().optional(), auth_token: z.string(), lang: z.enum(LOCALES).optional() }),
    success: [{ status: 200, description: 'The payment page', html: true }],
    errors: [404],
    htmlErrors: true,
    beforeBodyParser: true,
  },
  {
    method: 'get',
    path: '/checkout/:id/outcome',
    operationId: 'getCheckoutOutcome',
    summary: 'The page a checkout button leads to (HTML)',
    tag: 'Checkout',
    security: 'none',
    pathParams: PAYMENT_ID,
    query: z.object({ auth_token: z.string(), lang: z.enum(LOCALES).optional() }),
    success: [
      { status: 200, description: 'The outcome page', html: true },
      { status: 303, description: 'Back to the payment page while the payment is still open', redirect: true },
    ],
    errors: [404],
    htmlErrors: true,
    beforeBodyParser: true,
  },
  {
    method: 'post',
    path: '/checkout/:id/actions/:action',
    operationId: 'runCheckoutAction',
    summary: 'A sandbox button of the payment page (form post)',
    tag: 'Checkout',
    security: 'none',
    pathParams: { ...PAYMENT_ID, action: 'What the button does: pay, underpay, overpay, fail, cancel, …' },
    form: { auth_token: "The payment's auth_token", lang: 'en or es' },
    success: [{ status: 303, description: 'To the outcome page', redirect: true }],
    errors: [404, 409, 413, 415],
    htmlErrors: true,
    beforeBodyParser: true,
  },
] as const satisfies readonly Operation[]

/** The contract's entries, in its order. */
const WIRES: readonly EntryWire[] = Object.values(wire as Record<string, EntryWire | Record<string, EntryWire>>).flatMap((node) =>
  'operationId' in node ? [node as EntryWire] : Object.values(node as Record<string, EntryWire>),
)

const routeOf = ({ query, ...route }: EntryWire): Route => ({ ...route, ...(query ? { queryNames: query } : {}) })
const pageRouteOf = (operation: Operation): Route => ({
  ...operation,
  ...(operation.query ? { queryNames: Object.keys(operation.query.shape) } : {}),
})

const API_ROUTES = WIRES.map(routeOf)

/** In the order Express tries them: the public routers before the JSON body reader first, then the API, then Horizon. */
export const ROUTES: readonly Route[] = [
  ...API_ROUTES.filter((route) => route.beforeBodyParser),
  ...PAGE_OPERATIONS.map(pageRouteOf),
  ...API_ROUTES.filter((route) => !route.beforeBodyParser),
  ...HORIZON_OPERATIONS.map(pageRouteOf),
]
