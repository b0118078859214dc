// Every endpoint of the sandbox as data: path, who may call it, the zod schemas its route
// validates with (imported, never copied), what it answers and which errors it can produce.
// openapi-document.ts turns this table into the OpenAPI document; the drift test checks the
// table against the routes Express has registered.
import { z } from 'zod'
import { createMerchantBody } from '../admin/admin-routes.js'
import { depositBody, quoteBody } from '../cross-chain/quote-schemas.js'
import { createWalletBody } from '../ledger/wallet-service.js'
import { saveSnapshotBody } from '../snapshots/snapshot-routes.js'
import { createInvoiceBody, invoiceSettingsBody, listInvoicesQuery } from '../invoices/invoice-schemas.js'
import { accountsQuery, transactionsQuery } from '../ledger/ledger-routes.js'
import { createPaymentBody, listPaymentsQuery } from '../payments/payment-schemas.js'
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency/idempotency-service.js'
import { createRefundBody, listRefundsQuery } from '../refunds/refund-schemas.js'
import { advanceBody, freezeBody } from '../simulation/clock-routes.js'
import { failBody, payBody } from '../simulation/payment-simulation.js'
import { noBody } from '../validation/common.js'
import { requestLogListQuery, requestLogStreamQuery } from '../request-log/request-log-routes.js'
import { eventsQuery, listQuery as webhookLogQuery } from '../webhooks/webhook-log-routes.js'
import { HORIZON_OPERATIONS, HORIZON_REQUEST_SCHEMAS } from './horizon-operations.js'
import type { Operation, SuccessResponse } from './operation.js'
import { LOCALES } from '../../src/api/enumerations.js'

/** Request bodies as components: the schemas the routes parse with. */
export const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  CreatePaymentRequest: createPaymentBody,
  CreateRefundRequest: createRefundBody,
  CreateInvoiceRequest: createInvoiceBody,
  InvoiceSettingsRequest: invoiceSettingsBody,
  CrossChainQuoteRequest: quoteBody,
  DepositRequest: depositBody,
  SandboxPayRequest: payBody,
  SandboxFailRequest: failBody,
  CreateMerchantRequest: createMerchantBody,
  AdvanceClockRequest: advanceBody,
  FreezeClockRequest: freezeBody,
  CreateWalletRequest: createWalletBody,
  SaveSnapshotRequest: saveSnapshotBody,
  NoBody: noBody,
  ...HORIZON_REQUEST_SCHEMAS,
}

const PAYMENT_ID = { id: 'Payment id (pt_…)' }
const MERCHANT_ID = { merchantId: 'The authenticated merchant\'s id (GET /merchant); another merchant\'s id is 404' }
const DIGEST = { security: 'digest', authReason: 'Unauthorized' } as const
const DIGEST_SVF = { security: 'digest', authReason: 'Signature verification failed' } as const
const ADMIN = { security: 'admin', tag: 'Sandbox' } as const
const ok = (json: string, description = 'OK'): SuccessResponse[] => [{ status: 200, description, json }]
/** The header every money-moving POST honours (sandbox/idempotency/idempotency-service.ts). */
const IDEMPOTENT: Operation['headers'] = [
  {
    name: 'Idempotency-Key',
    description: 'Replays return the first answer and move nothing; the same key with another body or endpoint is 422, a key still in progress 409',
    schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  },
]

export const OPERATIONS: Operation[] = [
  // Public
  {
    method: 'get', path: '/health', operationId: 'getHealth', summary: 'Whether the database, the ledger and the webhook dispatcher work', tag: 'Sandbox', security: 'none',
    description: 'A readiness check: 200 when every check is ok, 503 (the Error body plus the checks) otherwise. `paybox sandbox wait` polls it.',
    success: [
      { status: 200, description: 'Every check is ok', json: 'Health' },
      { status: 503, description: 'A check is failing', json: 'HealthFailing' },
    ],
    errors: [], beforeBodyParser: true,
  },
  {
    method: 'get', path: '/openapi.json', operationId: 'getOpenApiDocument', summary: 'This OpenAPI document', tag: 'Sandbox', security: 'none',
    success: ok('OpenApiDocument', 'The OpenAPI 3.1 document of the whole API'), errors: [], beforeBodyParser: true,
  },
  {
    method: 'get', path: '/s/:code', operationId: 'followShortLink', summary: 'Short payment link: redirects to the payment\'s hostedUrl', tag: 'Checkout', security: 'none',
    pathParams: { code: 'The code of the payment\'s shortUrl' },
    success: [{ status: 302, description: 'To the hosted payment page', redirect: true }], errors: [404], beforeBodyParser: true,
  },
  {
    method: 'get', path: '/checkout/:id', operationId: 'getCheckoutPage', summary: 'The hosted payment page (HTML)', tag: 'Checkout', security: 'none',
    description: 'The page behind hostedUrl. Without the payment\'s auth_token it is a 404 page that shows nothing of the payment.',
    pathParams: PAYMENT_ID,
    query: z.object({ paymentId: z.string().optional(), auth_token: z.string(), lang: z.enum(LOCALES).optional() }),
    success: [{ status: 200, description: 'The payment page', html: true }], errors: [404], htmlErrors: true, beforeBodyParser: true,
  },
  {
    method: 'get', path: '/checkout/:id/outcome', operationId: 'getCheckoutOutcome', summary: 'The page a checkout button leads to (HTML)', tag: 'Checkout', security: 'none',
    pathParams: PAYMENT_ID,
    query: z.object({ auth_token: z.string(), lang: z.enum(LOCALES).optional() }),
    success: [
      { status: 200, description: 'The outcome page', html: true },
      { status: 303, description: 'Back to the payment page while the payment is still open', redirect: true },
    ],
    errors: [404], htmlErrors: true, beforeBodyParser: true,
  },
  {
    method: 'post', path: '/checkout/:id/actions/:action', operationId: 'runCheckoutAction', summary: 'A sandbox button of the payment page (form post)', tag: 'Checkout', security: 'none',
    pathParams: { ...PAYMENT_ID, action: 'What the button does: pay, underpay, overpay, fail, cancel, …' },
    form: { auth_token: 'The payment\'s auth_token', lang: 'en or es' },
    success: [{ status: 303, description: 'To the outcome page', redirect: true }],
    errors: [404, 409, 413, 415], htmlErrors: true, beforeBodyParser: true,
  },

  // Payments (spec 4.1–4.5)
  {
    method: 'post', path: '/payments', operationId: 'createPayment', summary: 'Create a payment', tag: 'Payments', ...DIGEST,
    headers: IDEMPOTENT, body: 'CreatePaymentRequest', success: ok('Payment'), errors: [409, 422],
  },
  {
    method: 'get', path: '/payments', operationId: 'listPayments', summary: 'List payments, newest first', tag: 'Payments', ...DIGEST,
    query: listPaymentsQuery, success: ok('PaymentPage'), errors: [],
  },
  {
    method: 'get', path: '/payments/:id', operationId: 'getPayment', summary: 'Get a payment', tag: 'Payments', ...DIGEST,
    pathParams: PAYMENT_ID, success: ok('Payment'), errors: [404],
  },
  {
    method: 'post', path: '/payments/:id/accept-underpayment', operationId: 'acceptUnderpayment', summary: 'Accept an underpaid payment as paid', tag: 'Payments', ...DIGEST,
    pathParams: PAYMENT_ID, body: 'NoBody', success: ok('Payment'), headers: IDEMPOTENT, errors: [404, 409, 422],
  },
  {
    method: 'post', path: '/payments/:id/cross-chain/quote', operationId: 'createCrossChainQuote', summary: 'Quote a payment from another chain', tag: 'Payments',
    description: 'No authentication needed (spec 4.5); credentials that are sent must be valid, and then only the merchant\'s own payments are found.',
    security: 'optional-digest', authReason: 'Unauthorized', pathParams: PAYMENT_ID, body: 'CrossChainQuoteRequest', success: ok('CrossChainQuote'), errors: [404, 409],
  },
  {
    method: 'get', path: '/cross-chain/quotes/:quoteId', operationId: 'getCrossChainQuote', summary: 'A quote\'s bridge order: status, amounts in, out and refunded, transactions', tag: 'Payments', ...DIGEST,
    pathParams: { quoteId: 'Quote id (qt_…)' }, success: ok('CrossChainQuote'), errors: [404],
  },
  {
    method: 'get', path: '/cross-chain/chains', operationId: 'listOriginChains', summary: 'Origin chains and tokens of cross-chain payments', tag: 'Payments',
    security: 'optional-digest', authReason: 'Unauthorized', success: ok('OriginChains'), errors: [],
  },
  {
    method: 'post', path: '/payments/:id/refunds', operationId: 'refundPayment', summary: 'Refund a payment (default: everything still refundable)', tag: 'Refunds', ...DIGEST,
    pathParams: PAYMENT_ID, body: 'CreateRefundRequest', success: ok('Refund'), headers: IDEMPOTENT, errors: [404, 409, 422],
  },
  {
    method: 'get', path: '/refunds', operationId: 'listRefunds', summary: 'List refunds, newest first', tag: 'Refunds', ...DIGEST,
    query: listRefundsQuery, success: ok('RefundPage'), errors: [],
  },
  {
    method: 'get', path: '/refunds/:id', operationId: 'getRefund', summary: 'Get a refund', tag: 'Refunds', ...DIGEST,
    pathParams: { id: 'Refund id (rf_…)' }, success: ok('Refund'), errors: [404],
  },

  // Invoices (spec 4.7–4.11)
  {
    method: 'post', path: '/invoices', operationId: 'createInvoice', summary: 'Create an invoice and its payment', tag: 'Invoices', ...DIGEST_SVF,
    description: 'Exactly one of customer_id and customer.',
    body: 'CreateInvoiceRequest', success: ok('Invoice'), errors: [404, 409],
  },
  {
    method: 'get', path: '/invoices', operationId: 'listInvoices', summary: 'List invoices, newest first', tag: 'Invoices', ...DIGEST_SVF,
    query: listInvoicesQuery, success: ok('InvoicePage'), errors: [],
  },
  {
    method: 'get', path: '/invoices/settings', operationId: 'getInvoiceSettings', summary: 'Invoice numbering', tag: 'Invoices', ...DIGEST_SVF,
    success: ok('InvoiceSettings'), errors: [],
  },
  {
    method: 'post', path: '/invoices/settings', operationId: 'updateInvoiceSettings', summary: 'Change invoice numbering', tag: 'Invoices', ...DIGEST_SVF,
    body: 'InvoiceSettingsRequest', success: ok('InvoiceSettings'), errors: [],
  },
  {
    method: 'get', path: '/invoices/:id', operationId: 'getInvoice', summary: 'Get an invoice', tag: 'Invoices', ...DIGEST_SVF,
    pathParams: { id: 'Invoice id' }, success: ok('Invoice'), errors: [404],
  },
  {
    method: 'post', path: '/invoices/:id/cancel', operationId: 'cancelInvoice', summary: 'Void an unpaid invoice', tag: 'Invoices', ...DIGEST_SVF,
    pathParams: { id: 'Invoice id' }, body: 'NoBody', success: ok('Invoice', 'The voided invoice'), errors: [404, 409],
  },

  // Merchant account (spec 4.12–4.14)
  {
    method: 'get', path: '/accounts/balances', operationId: 'listBalances', summary: 'Balances of the merchant\'s settlement account', tag: 'Account', ...DIGEST,
    success: ok('AccountBalances'), errors: [],
  },
  {
    method: 'get', path: '/accounts/balances/:assetId', operationId: 'getBalance', summary: 'Balance of one asset', tag: 'Account', ...DIGEST,
    description: 'A 400 with reason "Asset is not supported" for anything but USDC, USDC:<issuer>, native and XLM.',
    pathParams: { assetId: 'USDC, USDC:<issuer>, native or XLM' }, success: ok('Balance'), errors: [],
  },
  {
    method: 'get', path: '/merchant/fee-tier', operationId: 'getFeeTier', summary: 'The merchant\'s fee tier', tag: 'Account', ...DIGEST_SVF,
    success: ok('FeeTier'), errors: [],
  },
  {
    method: 'get', path: '/merchant', operationId: 'getMerchant', summary: 'Who the API key belongs to', tag: 'Account', ...DIGEST_SVF,
    success: ok('Merchant'), errors: [],
  },
  {
    method: 'get', path: '/currencies', operationId: 'listCurrencies', summary: 'Supported pricing currencies', tag: 'Account', ...DIGEST_SVF,
    success: ok('CurrencyList'), errors: [],
  },

  // Webhook delivery log (spec 4.15) and live streams
  {
    method: 'get', path: '/merchants/:merchantId/webhook-logs', operationId: 'listWebhookDeliveries', summary: 'The webhook delivery log, newest first', tag: 'Webhooks', ...DIGEST_SVF,
    pathParams: MERCHANT_ID, query: webhookLogQuery, success: ok('WebhookDeliveryPage'), errors: [404],
  },
  {
    method: 'get', path: '/merchants/:merchantId/webhook-logs/stream', operationId: 'streamWebhookDeliveries', summary: 'Finished deliveries as they happen (server-sent events)', tag: 'Webhooks', ...DIGEST_SVF,
    pathParams: MERCHANT_ID,
    success: [{ status: 200, description: '`event: delivery`, `id: <entry id>`, data the full entry, for each delivery that finishes while connected', eventStream: 'WebhookDelivery' }],
    errors: [404],
  },
  {
    method: 'get', path: '/merchants/:merchantId/webhook-logs/:id', operationId: 'getWebhookDelivery', summary: 'One delivery, with its payload and the receiver\'s answer', tag: 'Webhooks', ...DIGEST_SVF,
    pathParams: { ...MERCHANT_ID, id: 'Delivery id' }, success: ok('WebhookDelivery'), errors: [404],
  },
  {
    method: 'post', path: '/merchants/:merchantId/webhook-logs/:id/resend', operationId: 'resendWebhookDelivery', summary: 'Send a delivery\'s payload again (10 a minute)', tag: 'Webhooks', ...DIGEST_SVF,
    pathParams: { ...MERCHANT_ID, id: 'Delivery id' }, body: 'NoBody', success: ok('WebhookDelivery', 'The new entry, once the receiver has answered'), errors: [404, 429],
  },
  {
    method: 'get', path: '/merchants/:merchantId/events/stream', operationId: 'streamPaymentEvents', summary: 'Every payment event of the merchant (server-sent events)', tag: 'Webhooks', ...DIGEST_SVF,
    description: 'Starts with `event: ready` (data `{sequence}`); then `event: payment_event`, `id: <sequence>`. Resume with Last-Event-ID or ?after=.',
    pathParams: MERCHANT_ID, query: eventsQuery,
    success: [{ status: 200, description: '`event: payment_event` for each payment event', eventStream: 'PaymentEvent' }],
    errors: [404],
  },
  {
    method: 'post', path: '/merchants/:merchantId/webhooks/pause', operationId: 'pauseWebhooks', summary: 'Log events as skipped instead of sending them', tag: 'Webhooks', ...DIGEST_SVF,
    pathParams: MERCHANT_ID, body: 'NoBody', success: ok('WebhooksPausedState'), errors: [404],
  },
  {
    method: 'post', path: '/merchants/:merchantId/webhooks/resume', operationId: 'resumeWebhooks', summary: 'Send webhooks again', tag: 'Webhooks', ...DIGEST_SVF,
    pathParams: MERCHANT_ID, body: 'NoBody', success: ok('WebhooksPausedState'), errors: [404],
  },

  // The request log
  {
    method: 'get', path: '/merchants/:merchantId/request-logs', operationId: 'listRequests', summary: 'The merchant\'s recent API requests, newest first', tag: 'Requests', ...DIGEST_SVF,
    description: 'From the last 1000 requests the sandbox kept. Filter with `status` (a class such as 4xx, or 404) and `path` (a prefix: /payments is /payments and /payments/…).', pathParams: MERCHANT_ID, query: requestLogListQuery, success: ok('RequestLogList'), errors: [404],
  },
  {
    method: 'get', path: '/merchants/:merchantId/request-logs/stream', operationId: 'streamRequests', summary: 'The merchant\'s API requests as they finish (server-sent events)', tag: 'Requests', ...DIGEST_SVF,
    description: 'Filter with `status` (a class such as 4xx, or 404) and `path` (a prefix: /payments is /payments and /payments/…).', pathParams: MERCHANT_ID, query: requestLogStreamQuery,
    success: [{ status: 200, description: '`event: request`, `id: <request id>`, for each request that finishes while connected', eventStream: 'RequestLogEntry' }],
    errors: [404],
  },
  {
    method: 'get', path: '/sandbox/request-logs', operationId: 'listAllRequests', summary: 'Every recent API request (every merchant, public and admin ones), newest first', ...ADMIN, tag: 'Requests',
    description: 'From the last 1000 requests the sandbox kept. Filter with `status` (a class such as 4xx, or 404) and `path` (a prefix: /payments is /payments and /payments/…).', query: requestLogListQuery, success: ok('RequestLogList'), errors: [],
  },
  {
    method: 'get', path: '/sandbox/request-logs/stream', operationId: 'streamAllRequests', summary: 'Every API request as it finishes (server-sent events)', ...ADMIN, tag: 'Requests',
    description: 'Filter with `status` (a class such as 4xx, or 404) and `path` (a prefix: /payments is /payments and /payments/…).', query: requestLogStreamQuery,
    success: [{ status: 200, description: '`event: request`, `id: <request id>`, for each request that finishes while connected', eventStream: 'RequestLogEntry' }],
    errors: [],
  },

  // Sandbox extensions, merchant auth: simulations and escrow
  {
    method: 'post', path: '/sandbox/payments/:id/pay', operationId: 'simulatePay', summary: 'A sandbox customer wallet pays over the ledger (default: what remains)', tag: 'Sandbox', ...DIGEST,
    pathParams: PAYMENT_ID, body: 'SandboxPayRequest', success: ok('Payment'), headers: IDEMPOTENT, errors: [404, 409, 422],
  },
  {
    method: 'post', path: '/sandbox/payments/:id/fail', operationId: 'simulateFailure', summary: 'Simulate a processing failure', tag: 'Sandbox', ...DIGEST,
    pathParams: PAYMENT_ID, body: 'SandboxFailRequest', success: ok('Payment'), headers: IDEMPOTENT, errors: [404, 409, 422],
  },
  {
    method: 'post', path: '/sandbox/payments/:id/expire', operationId: 'simulateExpiry', summary: 'Expire an open payment now', tag: 'Sandbox', ...DIGEST,
    pathParams: PAYMENT_ID, body: 'NoBody', success: ok('Payment'), headers: IDEMPOTENT, errors: [404, 409, 422],
  },
  {
    method: 'post', path: '/sandbox/payments/:id/escrow/release', operationId: 'releaseEscrow', summary: 'Release a funded escrow order to its payee', tag: 'Sandbox', ...DIGEST,
    pathParams: PAYMENT_ID, body: 'NoBody', success: ok('Payment'), headers: IDEMPOTENT, errors: [404, 409, 422],
  },
  {
    method: 'post', path: '/sandbox/payments/:id/escrow/fail', operationId: 'failEscrow', summary: 'Simulate a failed escrow funding', tag: 'Sandbox', ...DIGEST,
    pathParams: PAYMENT_ID, body: 'SandboxFailRequest', success: ok('Payment'), headers: IDEMPOTENT, errors: [404, 409, 422],
  },
  {
    method: 'get', path: '/sandbox/payments/:id/escrow', operationId: 'getEscrowOrder', summary: 'An escrow order with its custody and ledger transactions', tag: 'Sandbox', ...DIGEST,
    pathParams: PAYMENT_ID, success: ok('EscrowOrder'), errors: [404, 409],
  },
  {
    method: 'post', path: '/sandbox/cross-chain/quotes/:quoteId/deposit', operationId: 'simulateDeposit', summary: 'A deposit arrives at the quote\'s address: the bridge order holds, swaps or refunds it', tag: 'Sandbox', ...DIGEST,
    pathParams: { quoteId: 'Quote id (qt_…)' }, body: 'DepositRequest', success: ok('DepositResult'), headers: IDEMPOTENT, errors: [404, 409, 422],
  },

  // Sandbox extensions, admin token
  { method: 'get', path: '/sandbox/merchants', operationId: 'listSandboxMerchants', summary: 'Every merchant with its keys', ...ADMIN, success: ok('SandboxMerchantList'), errors: [] },
  {
    method: 'post', path: '/sandbox/merchants', operationId: 'createSandboxMerchant', summary: 'A merchant with fresh keys and a funded account', ...ADMIN,
    body: 'CreateMerchantRequest', success: [{ status: 201, description: 'Created', json: 'SandboxMerchant' }], errors: [],
  },
  {
    method: 'post', path: '/sandbox/merchants/:id/rotate-secret', operationId: 'rotateMerchantSecret', summary: 'A new API secret; the old one stops working at once', ...ADMIN,
    pathParams: { id: 'Merchant id' }, body: 'NoBody', success: ok('SandboxMerchant'), errors: [404],
  },
  { method: 'get', path: '/sandbox/clock', operationId: 'getSandboxClock', summary: 'The business clock', ...ADMIN, success: ok('SandboxClock'), errors: [] },
  {
    method: 'post', path: '/sandbox/clock/advance', operationId: 'advanceSandboxClock', summary: 'Move the business clock forward and process what falls due', ...ADMIN,
    body: 'AdvanceClockRequest', success: ok('AdvancedClock'), errors: [],
  },
  {
    method: 'get', path: '/sandbox/ledger/accounts', operationId: 'listLedgerAccounts', summary: 'Accounts of the simulated ledger', ...ADMIN,
    query: accountsQuery, success: ok('LedgerAccountList'), errors: [],
  },
  {
    method: 'get', path: '/sandbox/ledger/transactions', operationId: 'listLedgerTransactions', summary: 'Transactions of the simulated ledger', ...ADMIN,
    query: transactionsQuery, success: ok('LedgerTransactionList'), errors: [],
  },
  {
    method: 'get', path: '/sandbox/ledger/transactions/:hash', operationId: 'getLedgerTransaction', summary: 'One ledger transaction, decoded', ...ADMIN,
    pathParams: { hash: 'Transaction hash (64 hex digits)' }, success: ok('LedgerTransaction'), errors: [404],
  },
  {
    method: 'post', path: '/sandbox/clock/freeze', operationId: 'freezeSandboxClock', summary: 'Stop business time (at now, or at a later instant)', ...ADMIN,
    body: 'FreezeClockRequest', success: ok('SandboxClock'), errors: [409],
  },
  {
    method: 'post', path: '/sandbox/clock/unfreeze', operationId: 'unfreezeSandboxClock', summary: 'Let business time run again', ...ADMIN,
    body: 'NoBody', success: ok('SandboxClock'), errors: [409],
  },
  {
    method: 'post', path: '/sandbox/wallets', operationId: 'createWallet', summary: 'A new funded customer wallet, with its secret', ...ADMIN,
    body: 'CreateWalletRequest', success: [{ status: 201, description: 'Created', json: 'Wallet' }], errors: [],
  },
  { method: 'get', path: '/sandbox/snapshots', operationId: 'listSnapshots', summary: 'Saved snapshots of the whole state', ...ADMIN, success: ok('SnapshotList'), errors: [] },
  {
    method: 'post', path: '/sandbox/snapshots', operationId: 'saveSnapshot', summary: 'Save a consistent copy of the whole state (online backup)', ...ADMIN,
    body: 'SaveSnapshotRequest', success: [{ status: 201, description: 'Saved', json: 'Snapshot' }], errors: [409, 422],
  },
  {
    method: 'get', path: '/sandbox/snapshots/:name', operationId: 'getSnapshot', summary: 'One snapshot', ...ADMIN,
    pathParams: { name: 'Snapshot name' }, success: ok('Snapshot'), errors: [404, 422],
  },
  {
    method: 'delete', path: '/sandbox/snapshots/:name', operationId: 'deleteSnapshot', summary: 'Delete a snapshot', ...ADMIN,
    pathParams: { name: 'Snapshot name' }, body: 'NoBody', success: [{ status: 204, description: 'Deleted', empty: true }], errors: [404, 422],
  },
  {
    method: 'post', path: '/sandbox/snapshots/:name/restore', operationId: 'restoreSnapshot', summary: 'Replace the whole state with a snapshot', ...ADMIN,
    pathParams: { name: 'Snapshot name' }, body: 'NoBody', success: ok('RestoredSnapshot'), errors: [404, 409, 422],
  },
  {
    method: 'post', path: '/sandbox/reset', operationId: 'resetSandbox', summary: 'Replace the whole state with a fresh genesis (same seed, keys and admin token)', ...ADMIN,
    body: 'NoBody', success: ok('ResetState'), errors: [409, 422],
  },
  ...HORIZON_OPERATIONS,
]
