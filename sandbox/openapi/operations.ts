// Every endpoint of the sandbox: the JSON API's wire as src/api/endpoints.ts declares it, with
// what documents it here (summary, tag, description, path parameters, headers, the reason of its
// 401s, its errors and other answers), and the pages and Horizon, which only the sandbox serves.
// From this table: authentication (http/authentication.ts), the strict-query rule, every Express
// route, by operationId (http/declared-routes.ts), and the OpenAPI document (openapi-document.ts).
import { z } from 'zod'
import { IDEMPOTENCY_KEY_HEADER } from '../../src/api/headers.js'
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency/idempotency-service.js'
import { QUERIES, REQUEST_BODIES } from '../../src/api/requests.js'
import { endpoints, type Endpoint, type EndpointId } from '../../src/api/endpoints.js'
import { HORIZON_OPERATIONS, HORIZON_REQUEST_SCHEMAS } from '../horizon/horizon-operations.js'
import type { Operation, SuccessResponse } from '../http/operation.js'
import { LOCALES } from '../../src/api/enumerations.js'

/** Request bodies as components: the schemas the routes parse with. */
export const REQUEST_SCHEMAS: Record<string, z.ZodType> = { ...REQUEST_BODIES, ...HORIZON_REQUEST_SCHEMAS }

/** What documents an endpoint of src/api/endpoints.ts. */
type Documentation = Pick<Operation, 'summary' | 'description' | 'tag' | 'authReason' | 'pathParams' | 'headers' | 'errors'> & {
  /** The description of its declared success answer (default OK, or Created for a 201). */
  answer?: string
  /** Success answers besides the declared one (/health's 503). */
  otherAnswers?: readonly SuccessResponse[]
  /** Answered before the JSON body reader: it cannot produce 413 or 415. */
  beforeBodyParser?: boolean
}

const PAYMENT_ID = { id: 'Payment id (pt_…)' }
const MERCHANT_ID = { merchantId: "The authenticated merchant's id (GET /merchant); another merchant's id is 404" }
const DIGEST = { authReason: 'Unauthorized' } as const
const DIGEST_SVF = { authReason: 'Signature verification failed' } as const
const ADMIN = { tag: 'Sandbox' } as const
/** The admin token, or the merchant's own key where the sandbox allows it (docs/clocks.md). */
const MERCHANT_CLOCK = { tag: 'Sandbox', authReason: 'Unauthorized', pathParams: { id: 'Merchant id' } } as const
/** The header every money-moving POST honours (sandbox/idempotency/idempotency-service.ts). */
const IDEMPOTENT: Operation['headers'] = [
  {
    name: IDEMPOTENCY_KEY_HEADER,
    description:
      'Copies with the same key get the first answer and move nothing; the same key with another body or endpoint is 422, a key still in progress 409. ' +
      'The signature does not cover this header: a copy with another key or none is a new request (a shared sandbox refuses a reused signature with 409)',
    schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  },
]

/** A money-moving POST on one payment: digest auth, an Idempotency-Key, the payment as it now is. */
const paymentAction = (summary: string, tag: string) =>
  ({ summary, tag, ...DIGEST, pathParams: PAYMENT_ID, headers: IDEMPOTENT, errors: [404, 409, 422] }) as const

const REQUEST_LOG_FILTERS =
  'Filter with `status` (a class such as 4xx, or 404) and `path` (a prefix: /payments is /payments and /payments/…).'

/** Literal types (as const) let the routes know which endpoints answer before the body reader (handlers.ts). */
export const DOCUMENTATION = {
  // Public
  getHealth: {
    summary: 'Whether the database, the ledger and the webhook dispatcher work',
    tag: 'Sandbox',
    description:
      'A readiness check: 200 when every check is ok, 503 (the Error body plus the checks) otherwise. `paybox sandbox wait` polls it.',
    answer: 'Every check is ok',
    otherAnswers: [{ status: 503, description: 'A check is failing', json: 'HealthFailing' }],
    errors: [],
    beforeBodyParser: true,
  },
  getOpenApiDocument: {
    summary: 'This OpenAPI document',
    tag: 'Sandbox',
    answer: 'The OpenAPI 3.1 document of the whole API',
    errors: [],
    beforeBodyParser: true,
  },

  // Payments (spec 4.1–4.5)
  createPayment: { summary: 'Create a payment', tag: 'Payments', ...DIGEST, headers: IDEMPOTENT, errors: [409, 422] },
  listPayments: { summary: 'List payments, newest first', tag: 'Payments', ...DIGEST, errors: [] },
  getPayment: { summary: 'Get a payment', tag: 'Payments', ...DIGEST, pathParams: PAYMENT_ID, errors: [404] },
  acceptUnderpayment: paymentAction('Accept an underpaid payment as paid', 'Payments'),
  createCrossChainQuote: {
    summary: 'Quote a payment from another chain',
    tag: 'Payments',
    description:
      "No authentication needed (spec 4.5); credentials that are sent must be valid, and then only the merchant's own payments are found.",
    authReason: 'Unauthorized',
    pathParams: PAYMENT_ID,
    errors: [404, 409],
  },
  getCrossChainQuote: {
    summary: "A quote's bridge order: status, amounts in, out and refunded, transactions",
    tag: 'Payments',
    ...DIGEST,
    pathParams: { quoteId: 'Quote id (qt_…)' },
    errors: [404],
  },
  listOriginChains: {
    summary: 'Origin chains and tokens of cross-chain payments',
    tag: 'Payments',
    authReason: 'Unauthorized',
    errors: [],
  },
  refundPayment: {
    summary: 'Refund a payment (default: everything still refundable)',
    tag: 'Refunds',
    ...DIGEST,
    pathParams: PAYMENT_ID,
    headers: IDEMPOTENT,
    errors: [404, 409, 422],
  },
  listRefunds: { summary: 'List refunds, newest first', tag: 'Refunds', ...DIGEST, errors: [] },
  getRefund: { summary: 'Get a refund', tag: 'Refunds', ...DIGEST, pathParams: { id: 'Refund id (rf_…)' }, errors: [404] },

  // Invoices (spec 4.7–4.11)
  createInvoice: {
    summary: 'Create an invoice and its payment',
    tag: 'Invoices',
    ...DIGEST_SVF,
    description: 'Exactly one of customer_id and customer.',
    errors: [404, 409],
  },
  listInvoices: { summary: 'List invoices, newest first', tag: 'Invoices', ...DIGEST_SVF, errors: [] },
  getInvoiceSettings: { summary: 'Invoice numbering', tag: 'Invoices', ...DIGEST_SVF, errors: [] },
  updateInvoiceSettings: { summary: 'Change invoice numbering', tag: 'Invoices', ...DIGEST_SVF, errors: [] },
  getInvoice: { summary: 'Get an invoice', tag: 'Invoices', ...DIGEST_SVF, pathParams: { id: 'Invoice id' }, errors: [404] },
  cancelInvoice: {
    summary: 'Void an unpaid invoice',
    tag: 'Invoices',
    ...DIGEST_SVF,
    pathParams: { id: 'Invoice id' },
    answer: 'The voided invoice',
    errors: [404, 409],
  },

  // Merchant account (spec 4.12–4.14)
  listBalances: { summary: "Balances of the merchant's settlement account", tag: 'Account', ...DIGEST, errors: [] },
  getBalance: {
    summary: 'Balance of one asset',
    tag: 'Account',
    ...DIGEST,
    description: 'A 400 with reason "Asset is not supported" for anything but USDC, USDC:<issuer>, native and XLM.',
    pathParams: { assetId: 'USDC, USDC:<issuer>, native or XLM' },
    errors: [],
  },
  getFeeTier: { summary: "The merchant's fee tier", tag: 'Account', ...DIGEST_SVF, errors: [] },
  getMerchant: { summary: 'Who the API key belongs to', tag: 'Account', ...DIGEST_SVF, errors: [] },
  listCurrencies: { summary: 'Supported pricing currencies', tag: 'Account', ...DIGEST_SVF, errors: [] },

  // Webhook delivery log (spec 4.15) and live streams
  listWebhookDeliveries: {
    summary: 'The webhook delivery log, newest first',
    tag: 'Webhooks',
    ...DIGEST_SVF,
    pathParams: MERCHANT_ID,
    errors: [404],
  },
  streamWebhookDeliveries: {
    summary: 'Finished deliveries as they happen (server-sent events)',
    tag: 'Webhooks',
    ...DIGEST_SVF,
    pathParams: MERCHANT_ID,
    answer: '`event: delivery`, `id: <entry id>`, data the full entry, for each delivery that finishes while connected',
    errors: [404],
  },
  getWebhookDelivery: {
    summary: "One delivery, with its payload and the receiver's answer",
    tag: 'Webhooks',
    ...DIGEST_SVF,
    pathParams: { ...MERCHANT_ID, id: 'Delivery id' },
    errors: [404],
  },
  resendWebhookDelivery: {
    summary: "Send a delivery's payload again (10 a minute)",
    tag: 'Webhooks',
    ...DIGEST_SVF,
    pathParams: { ...MERCHANT_ID, id: 'Delivery id' },
    answer: 'The new entry, once the receiver has answered',
    errors: [404, 429],
  },
  streamPaymentEvents: {
    summary: 'Every payment event of the merchant (server-sent events)',
    tag: 'Webhooks',
    ...DIGEST_SVF,
    description:
      'Starts with `event: ready` (data `{sequence}`); then `event: payment_event`, `id: <sequence>`. Resume with Last-Event-ID or ?after=.',
    pathParams: MERCHANT_ID,
    answer: '`event: payment_event` for each payment event',
    errors: [404],
  },
  pauseWebhooks: {
    summary: 'Log events as skipped instead of sending them',
    tag: 'Webhooks',
    ...DIGEST_SVF,
    pathParams: MERCHANT_ID,
    errors: [404],
  },
  resumeWebhooks: { summary: 'Send webhooks again', tag: 'Webhooks', ...DIGEST_SVF, pathParams: MERCHANT_ID, errors: [404] },

  // The request log
  listRequests: {
    summary: "The merchant's recent API requests, newest first",
    tag: 'Requests',
    ...DIGEST_SVF,
    description: `From the last 1000 requests the sandbox kept. ${REQUEST_LOG_FILTERS}`,
    pathParams: MERCHANT_ID,
    errors: [404],
  },
  streamRequests: {
    summary: "The merchant's API requests as they finish (server-sent events)",
    tag: 'Requests',
    ...DIGEST_SVF,
    description: REQUEST_LOG_FILTERS,
    pathParams: MERCHANT_ID,
    answer: '`event: request`, `id: <request id>`, for each request that finishes while connected',
    errors: [404],
  },
  listAllRequests: {
    summary: 'Every recent API request (every merchant, public and admin ones), newest first',
    tag: 'Requests',
    description: `From the last 1000 requests the sandbox kept. ${REQUEST_LOG_FILTERS}`,
    errors: [],
  },
  streamAllRequests: {
    summary: 'Every API request as it finishes (server-sent events)',
    tag: 'Requests',
    description: REQUEST_LOG_FILTERS,
    answer: '`event: request`, `id: <request id>`, for each request that finishes while connected',
    errors: [],
  },

  // Sandbox extensions, merchant auth: simulations and escrow
  simulatePay: paymentAction('A sandbox customer wallet pays over the ledger (default: what remains)', 'Sandbox'),
  simulateFailure: paymentAction('Simulate a processing failure', 'Sandbox'),
  simulateExpiry: paymentAction('Expire an open payment now', 'Sandbox'),
  releaseEscrow: paymentAction('Release a funded escrow order to its payee', 'Sandbox'),
  failEscrow: paymentAction('Simulate a failed escrow funding', 'Sandbox'),
  getEscrowOrder: {
    summary: 'An escrow order with its custody and ledger transactions',
    tag: 'Sandbox',
    ...DIGEST,
    pathParams: PAYMENT_ID,
    errors: [404, 409],
  },
  getPaymentWebhooksState: {
    summary: "Whether a payment's webhooks have all been sent: no event coming, no delivery pending",
    tag: 'Sandbox',
    ...DIGEST,
    pathParams: PAYMENT_ID,
    errors: [404],
  },
  simulateDeposit: {
    summary: "A deposit arrives at the quote's address: the bridge order holds, swaps or refunds it",
    tag: 'Sandbox',
    ...DIGEST,
    pathParams: { quoteId: 'Quote id (qt_…)' },
    headers: IDEMPOTENT,
    errors: [404, 409, 422],
  },

  // Sandbox extensions, admin token
  listSandboxMerchants: { summary: 'Every merchant with its keys', ...ADMIN, errors: [] },
  createSandboxMerchant: { summary: 'A merchant with fresh keys and a funded account', ...ADMIN, errors: [] },
  rotateMerchantSecret: {
    summary: 'A new API secret; the old one stops working at once',
    ...ADMIN,
    pathParams: { id: 'Merchant id' },
    errors: [404],
  },
  getSandboxClock: { summary: 'The business clock', ...ADMIN, errors: [] },
  createTenant: {
    summary: 'A tenant: a merchant for one job, with its keys and its own business clock',
    description:
      "At most the sandbox's tenant limit are active at once (409 past it); under --shared, creation is rate-limited (docs/clocks.md).",
    ...ADMIN,
    errors: [409, 429],
  },
  listTenants: { summary: 'Active tenants and their clocks, without keys', ...ADMIN, errors: [] },
  archiveTenant: {
    summary: 'Archive a tenant: its keys stop working, its rows leave lists and sweeps; the ledger keeps its transactions',
    ...ADMIN,
    pathParams: { id: 'Tenant (merchant) id' },
    errors: [404],
  },
  getMerchantClock: { summary: "A merchant's business time", ...MERCHANT_CLOCK, errors: [403, 404] },
  advanceMerchantClock: {
    summary: "Move a merchant's business time forward and process what falls due for it",
    ...MERCHANT_CLOCK,
    errors: [403, 404],
  },
  freezeMerchantClock: {
    summary: "Stop a merchant's business time (at now, or at a later instant)",
    ...MERCHANT_CLOCK,
    errors: [403, 404],
  },
  unfreezeMerchantClock: { summary: "Let a merchant's business time run again", ...MERCHANT_CLOCK, errors: [403, 404] },
  advanceSandboxClock: { summary: 'Move the business clock forward and process what falls due', ...ADMIN, errors: [] },
  listLedgerAccounts: { summary: 'Accounts of the simulated ledger', ...ADMIN, errors: [] },
  listLedgerTransactions: { summary: 'Transactions of the simulated ledger', ...ADMIN, errors: [] },
  getLedgerTransaction: {
    summary: 'One ledger transaction, decoded',
    ...ADMIN,
    pathParams: { hash: 'Transaction hash (64 hex digits)' },
    errors: [404],
  },
  freezeSandboxClock: { summary: 'Stop business time (at now, or at a later instant)', ...ADMIN, errors: [409] },
  unfreezeSandboxClock: { summary: 'Let business time run again', ...ADMIN, errors: [409] },
  createWallet: { summary: 'A new funded customer wallet, with its secret', ...ADMIN, errors: [] },
  listSnapshots: { summary: 'Saved snapshots of the whole state', ...ADMIN, errors: [] },
  saveSnapshot: {
    summary: 'Save a consistent copy of the whole state (online backup)',
    ...ADMIN,
    answer: 'Saved',
    errors: [409, 422],
  },
  getSnapshot: { summary: 'One snapshot', ...ADMIN, pathParams: { name: 'Snapshot name' }, errors: [404, 422] },
  deleteSnapshot: { summary: 'Delete a snapshot', ...ADMIN, pathParams: { name: 'Snapshot name' }, answer: 'Deleted', errors: [404, 422] },
  restoreSnapshot: {
    summary: 'Replace the whole state with a snapshot',
    ...ADMIN,
    pathParams: { name: 'Snapshot name' },
    errors: [404, 409, 422],
  },
  resetSandbox: {
    summary: 'Replace the whole state with a fresh genesis (same seed, keys and admin token)',
    ...ADMIN,
    errors: [409, 422],
  },
  createDashboardSignInLink: {
    summary: 'A one-time link that opens the dashboard signed in as the admin (docs/dashboard.md)',
    ...ADMIN,
    answer: 'A link that works once, for a few minutes',
    errors: [],
  },
} as const satisfies Record<EndpointId, Documentation>

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

/** The operation of a declared endpoint: its wire, documented. */
function documented(endpoint: Endpoint): Operation {
  const { method, path, operationId, security, query, body, response, status = 200, stream } = endpoint
  const { answer, otherAnswers = [], ...documentation } = DOCUMENTATION[operationId as EndpointId] as Documentation
  const description = answer ?? (status === 201 ? 'Created' : 'OK')
  const declared: SuccessResponse = stream
    ? { status, description, eventStream: stream }
    : response
      ? { status, description, json: response }
      : { status: 204, description, empty: true }
  return {
    method,
    path,
    operationId,
    security,
    ...(query ? { query: QUERIES[query] } : {}),
    ...(body ? { body } : {}),
    ...documentation,
    success: [declared, ...otherAnswers],
  }
}

const API_OPERATIONS = Object.values(endpoints).map(documented)

/** In the order Express tries them: the public routers before the JSON body reader first, then the API, then Horizon. */
export const OPERATIONS: readonly Operation[] = [
  ...API_OPERATIONS.filter((operation) => operation.beforeBodyParser),
  ...PAGE_OPERATIONS,
  ...API_OPERATIONS.filter((operation) => !operation.beforeBodyParser),
  ...HORIZON_OPERATIONS,
]
