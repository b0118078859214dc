// Every endpoint of the sandbox: the JSON API's entries (src/api/contract/) as operations, with the
// checkout pages, short links and Horizon, which only the sandbox serves. From this table:
// authentication (http/authentication.ts), the strict-query rule, every Express route, by
// operationId (http/declared-routes.ts), and the OpenAPI document (openapi-document.ts).
import { z } from 'zod'
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency/idempotency-service.js'
import { REQUEST_BODIES } from '../../src/api/requests.js'
import { ENTRIES, type Entry } from '../../src/api/contract/index.js'
import { PAYMENT_ID } from '../../src/api/contract/entry.js'
import { RESPONSE_SCHEMAS } from '../../src/api/resources.js'
import { HORIZON_OPERATIONS, HORIZON_REQUEST_SCHEMAS } from './horizon-operations.js'
import type { Operation, SuccessResponse } from './operation.js'
import { LOCALES } from '../../src/api/enumerations.js'

/** Request bodies as components: the schemas the routes parse with. */
export const REQUEST_SCHEMAS: Record<string, z.ZodType> = { ...REQUEST_BODIES, ...HORIZON_REQUEST_SCHEMAS }

/** The header every idempotent POST honours (sandbox/idempotency/idempotency-service.ts). */
const IDEMPOTENCY_KEY: NonNullable<Operation['headers']> = [
  {
    name: 'Idempotency-Key',
    description:
      'Copies with the same key get the first answer and move nothing; the same key with another body or endpoint is 422, a key still in progress 409. ' +
      'The signature does not cover this header: a copy with another key or none is a new request (a shared sandbox refuses a reused signature with 409)',
    schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  },
]

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

/** The component name of a schema an entry holds: the document refers to it by name. */
function componentName(registry: Record<string, z.ZodType>, schema: z.ZodType, entry: Entry): string {
  const found = Object.entries(registry).find(([, registered]) => registered === schema)
  if (!found) throw new Error(`${entry.operationId}: a schema without a component name (register it in RESPONSE_SCHEMAS or REQUEST_BODIES)`)
  return found[0]
}

/** The operation of a contract entry. */
function operationOf(entry: Entry): Operation {
  const { method, path, operationId, security, query, body, response, status = 200, stream, idempotent, answer, otherAnswers = [] } = entry
  const { summary, tag, description, authReason, pathParams, errors, beforeBodyParser } = entry
  const described = answer ?? (status === 201 ? 'Created' : 'OK')
  const declared: SuccessResponse = stream
    ? { status, description: described, eventStream: componentName(RESPONSE_SCHEMAS, stream.data, entry) }
    : response
      ? { status, description: described, json: componentName(RESPONSE_SCHEMAS, response, entry) }
      : { status: 204, description: described, empty: true }
  const others = otherAnswers.map(({ status, description, response }) => ({
    status,
    description,
    json: componentName(RESPONSE_SCHEMAS, response, entry),
  }))
  // A POST or DELETE without a body schema takes none (or {}).
  const bodyName = body ? componentName(REQUEST_BODIES, body, entry) : method === 'get' ? undefined : 'NoBody'
  return {
    method,
    path,
    operationId,
    security,
    summary,
    tag,
    ...(description ? { description } : {}),
    ...(authReason ? { authReason } : {}),
    ...(pathParams ? { pathParams } : {}),
    ...(idempotent ? { headers: IDEMPOTENCY_KEY } : {}),
    ...(query ? { query } : {}),
    ...(bodyName ? { body: bodyName } : {}),
    ...(beforeBodyParser ? { beforeBodyParser } : {}),
    errors,
    success: [declared, ...others],
  }
}

const API_OPERATIONS = ENTRIES.map(operationOf)

/** In the order Express tries them: the public routers before the JSON body reader first, then the API, then Horizon. */
export const OPERATIONS: readonly Operation[] = [
  ...API_OPERATIONS.filter((operation) => operation.beforeBodyParser),
  ...PAGE_OPERATIONS,
  ...API_OPERATIONS.filter((operation) => !operation.beforeBodyParser),
  ...HORIZON_OPERATIONS,
]
