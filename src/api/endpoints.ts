// The wire of every JSON endpoint, declared once: method, path, who may call it, the query and
// body schemas the sandbox parses with, and the schema of its success answer. Schemas are named
// (QUERIES, REQUEST_BODIES, RESPONSE_SCHEMAS), not imported: the client reads only their types,
// so a CLI command does not load zod, and the sandbox loads the response schemas only to build
// its document.
// The client builds its requests from these (src/client/paybox-client.ts); the sandbox's
// operation table adds what documents them (sandbox/openapi/operations.ts) and routes,
// authenticates and checks queries from it.
import type { QUERIES, REQUEST_BODIES } from './requests.js'
import type { RESPONSE_SCHEMAS } from './resources.js'

/**
 * Who may call an endpoint: digest auth (spec 5), digest auth only when sent, the admin token, the
 * admin token or else digest auth (a merchant's own clock), anyone.
 */
export type Security = 'digest' | 'optional-digest' | 'admin' | 'admin-or-digest' | 'none'

export type QueryName = keyof typeof QUERIES
export type RequestBodyName = keyof typeof REQUEST_BODIES
export type ResponseName = keyof typeof RESPONSE_SCHEMAS

export interface EndpointWire {
  method: 'get' | 'post' | 'delete'
  /** As Express registers it: /payments/:id. */
  path: string
  security: Security
  query?: QueryName
  body?: RequestBodyName
  /** The JSON answer on success. */
  response?: ResponseName
  /** Its status, when not 200. */
  status?: 201 | 204
  /** A server-sent-event stream instead: each event's data is one of these. */
  stream?: ResponseName
}

export type Endpoint = EndpointWire & { operationId: string }

/** Each declaration gets its key as its operation id. */
function declare<const Declared extends Record<string, EndpointWire>>(
  declared: Declared,
): { [Id in keyof Declared & string]: Declared[Id] & { operationId: Id } } {
  return Object.fromEntries(Object.entries(declared).map(([operationId, wire]) => [operationId, { ...wire, operationId }])) as {
    [Id in keyof Declared & string]: Declared[Id] & { operationId: Id }
  }
}

/** In the order the document lists them and Express tries them. */
export const endpoints = declare({
  // Public
  getHealth: { method: 'get', path: '/health', security: 'none', response: 'Health' },
  getOpenApiDocument: { method: 'get', path: '/openapi.json', security: 'none', response: 'OpenApiDocument' },

  // Payments (spec 4.1–4.5)
  createPayment: { method: 'post', path: '/payments', security: 'digest', body: 'CreatePaymentRequest', response: 'Payment' },
  listPayments: { method: 'get', path: '/payments', security: 'digest', query: 'ListPaymentsQuery', response: 'PaymentPage' },
  getPayment: { method: 'get', path: '/payments/:id', security: 'digest', response: 'Payment' },
  acceptUnderpayment: {
    method: 'post',
    path: '/payments/:id/accept-underpayment',
    security: 'digest',
    body: 'NoBody',
    response: 'Payment',
  },
  createCrossChainQuote: {
    method: 'post',
    path: '/payments/:id/cross-chain/quote',
    security: 'optional-digest',
    body: 'CrossChainQuoteRequest',
    response: 'CrossChainQuote',
  },
  getCrossChainQuote: { method: 'get', path: '/cross-chain/quotes/:quoteId', security: 'digest', response: 'CrossChainQuote' },
  listOriginChains: { method: 'get', path: '/cross-chain/chains', security: 'optional-digest', response: 'OriginChains' },
  refundPayment: { method: 'post', path: '/payments/:id/refunds', security: 'digest', body: 'CreateRefundRequest', response: 'Refund' },
  listRefunds: { method: 'get', path: '/refunds', security: 'digest', query: 'ListRefundsQuery', response: 'RefundPage' },
  getRefund: { method: 'get', path: '/refunds/:id', security: 'digest', response: 'Refund' },

  // Invoices (spec 4.7–4.11)
  createInvoice: { method: 'post', path: '/invoices', security: 'digest', body: 'CreateInvoiceRequest', response: 'Invoice' },
  listInvoices: { method: 'get', path: '/invoices', security: 'digest', query: 'ListInvoicesQuery', response: 'InvoicePage' },
  getInvoiceSettings: { method: 'get', path: '/invoices/settings', security: 'digest', response: 'InvoiceSettings' },
  updateInvoiceSettings: {
    method: 'post',
    path: '/invoices/settings',
    security: 'digest',
    body: 'InvoiceSettingsRequest',
    response: 'InvoiceSettings',
  },
  getInvoice: { method: 'get', path: '/invoices/:id', security: 'digest', response: 'Invoice' },
  cancelInvoice: { method: 'post', path: '/invoices/:id/cancel', security: 'digest', body: 'NoBody', response: 'Invoice' },

  // Merchant account (spec 4.12–4.14)
  listBalances: { method: 'get', path: '/accounts/balances', security: 'digest', response: 'AccountBalances' },
  getBalance: { method: 'get', path: '/accounts/balances/:assetId', security: 'digest', response: 'Balance' },
  getFeeTier: { method: 'get', path: '/merchant/fee-tier', security: 'digest', response: 'FeeTier' },
  getMerchant: { method: 'get', path: '/merchant', security: 'digest', response: 'Merchant' },
  listCurrencies: { method: 'get', path: '/currencies', security: 'digest', response: 'CurrencyList' },

  // Webhook delivery log (spec 4.15) and live streams
  listWebhookDeliveries: {
    method: 'get',
    path: '/merchants/:merchantId/webhook-logs',
    security: 'digest',
    query: 'WebhookLogQuery',
    response: 'WebhookDeliveryPage',
  },
  streamWebhookDeliveries: {
    method: 'get',
    path: '/merchants/:merchantId/webhook-logs/stream',
    security: 'digest',
    stream: 'WebhookDelivery',
  },
  getWebhookDelivery: { method: 'get', path: '/merchants/:merchantId/webhook-logs/:id', security: 'digest', response: 'WebhookDelivery' },
  resendWebhookDelivery: {
    method: 'post',
    path: '/merchants/:merchantId/webhook-logs/:id/resend',
    security: 'digest',
    body: 'NoBody',
    response: 'WebhookDelivery',
  },
  streamPaymentEvents: {
    method: 'get',
    path: '/merchants/:merchantId/events/stream',
    security: 'digest',
    query: 'EventsQuery',
    stream: 'PaymentEvent',
  },
  pauseWebhooks: {
    method: 'post',
    path: '/merchants/:merchantId/webhooks/pause',
    security: 'digest',
    body: 'NoBody',
    response: 'WebhooksPausedState',
  },
  resumeWebhooks: {
    method: 'post',
    path: '/merchants/:merchantId/webhooks/resume',
    security: 'digest',
    body: 'NoBody',
    response: 'WebhooksPausedState',
  },

  // The request log
  listRequests: {
    method: 'get',
    path: '/merchants/:merchantId/request-logs',
    security: 'digest',
    query: 'RequestLogListQuery',
    response: 'RequestLogList',
  },
  streamRequests: {
    method: 'get',
    path: '/merchants/:merchantId/request-logs/stream',
    security: 'digest',
    query: 'RequestLogStreamQuery',
    stream: 'RequestLogEntry',
  },
  listAllRequests: {
    method: 'get',
    path: '/sandbox/request-logs',
    security: 'admin',
    query: 'RequestLogListQuery',
    response: 'RequestLogList',
  },
  streamAllRequests: {
    method: 'get',
    path: '/sandbox/request-logs/stream',
    security: 'admin',
    query: 'RequestLogStreamQuery',
    stream: 'RequestLogEntry',
  },

  // Sandbox extensions, merchant auth: simulations and escrow
  simulatePay: { method: 'post', path: '/sandbox/payments/:id/pay', security: 'digest', body: 'SandboxPayRequest', response: 'Payment' },
  simulateFailure: {
    method: 'post',
    path: '/sandbox/payments/:id/fail',
    security: 'digest',
    body: 'SandboxFailRequest',
    response: 'Payment',
  },
  simulateExpiry: { method: 'post', path: '/sandbox/payments/:id/expire', security: 'digest', body: 'NoBody', response: 'Payment' },
  releaseEscrow: { method: 'post', path: '/sandbox/payments/:id/escrow/release', security: 'digest', body: 'NoBody', response: 'Payment' },
  failEscrow: {
    method: 'post',
    path: '/sandbox/payments/:id/escrow/fail',
    security: 'digest',
    body: 'SandboxFailRequest',
    response: 'Payment',
  },
  getEscrowOrder: { method: 'get', path: '/sandbox/payments/:id/escrow', security: 'digest', response: 'EscrowOrder' },
  getPaymentWebhooksState: { method: 'get', path: '/sandbox/payments/:id/webhooks', security: 'digest', response: 'PaymentWebhooksState' },
  simulateDeposit: {
    method: 'post',
    path: '/sandbox/cross-chain/quotes/:quoteId/deposit',
    security: 'digest',
    body: 'DepositRequest',
    response: 'DepositResult',
  },

  // Sandbox extensions, admin token
  listSandboxMerchants: { method: 'get', path: '/sandbox/merchants', security: 'admin', response: 'SandboxMerchantList' },
  createSandboxMerchant: {
    method: 'post',
    path: '/sandbox/merchants',
    security: 'admin',
    body: 'CreateMerchantRequest',
    response: 'SandboxMerchant',
    status: 201,
  },
  rotateMerchantSecret: {
    method: 'post',
    path: '/sandbox/merchants/:id/rotate-secret',
    security: 'admin',
    body: 'NoBody',
    response: 'SandboxMerchant',
  },
  getSandboxClock: { method: 'get', path: '/sandbox/clock', security: 'admin', response: 'SandboxClock' },
  // Tenants: a merchant for one CI job, with its own business clock (docs/clocks.md).
  createTenant: {
    method: 'post',
    path: '/sandbox/tenants',
    security: 'admin',
    body: 'CreateTenantRequest',
    response: 'CreatedTenant',
    status: 201,
  },
  listTenants: { method: 'get', path: '/sandbox/tenants', security: 'admin', response: 'TenantList' },
  archiveTenant: { method: 'delete', path: '/sandbox/tenants/:id', security: 'admin', response: 'ArchivedTenant' },
  // A merchant's own business clock: the admin token, or the merchant's own key where the sandbox allows it.
  getMerchantClock: { method: 'get', path: '/sandbox/merchants/:id/clock', security: 'admin-or-digest', response: 'SandboxClock' },
  advanceMerchantClock: {
    method: 'post',
    path: '/sandbox/merchants/:id/clock/advance',
    security: 'admin-or-digest',
    body: 'AdvanceClockRequest',
    response: 'AdvancedClock',
  },
  freezeMerchantClock: {
    method: 'post',
    path: '/sandbox/merchants/:id/clock/freeze',
    security: 'admin-or-digest',
    body: 'FreezeClockRequest',
    response: 'SandboxClock',
  },
  unfreezeMerchantClock: {
    method: 'post',
    path: '/sandbox/merchants/:id/clock/unfreeze',
    security: 'admin-or-digest',
    body: 'NoBody',
    response: 'SandboxClock',
  },
  advanceSandboxClock: {
    method: 'post',
    path: '/sandbox/clock/advance',
    security: 'admin',
    body: 'AdvanceClockRequest',
    response: 'AdvancedClock',
  },
  listLedgerAccounts: {
    method: 'get',
    path: '/sandbox/ledger/accounts',
    security: 'admin',
    query: 'LedgerAccountsQuery',
    response: 'LedgerAccountList',
  },
  listLedgerTransactions: {
    method: 'get',
    path: '/sandbox/ledger/transactions',
    security: 'admin',
    query: 'LedgerTransactionsQuery',
    response: 'LedgerTransactionList',
  },
  getLedgerTransaction: { method: 'get', path: '/sandbox/ledger/transactions/:hash', security: 'admin', response: 'LedgerTransaction' },
  freezeSandboxClock: {
    method: 'post',
    path: '/sandbox/clock/freeze',
    security: 'admin',
    body: 'FreezeClockRequest',
    response: 'SandboxClock',
  },
  unfreezeSandboxClock: { method: 'post', path: '/sandbox/clock/unfreeze', security: 'admin', body: 'NoBody', response: 'SandboxClock' },
  createWallet: {
    method: 'post',
    path: '/sandbox/wallets',
    security: 'admin',
    body: 'CreateWalletRequest',
    response: 'Wallet',
    status: 201,
  },
  listSnapshots: { method: 'get', path: '/sandbox/snapshots', security: 'admin', response: 'SnapshotList' },
  saveSnapshot: {
    method: 'post',
    path: '/sandbox/snapshots',
    security: 'admin',
    body: 'SaveSnapshotRequest',
    response: 'Snapshot',
    status: 201,
  },
  getSnapshot: { method: 'get', path: '/sandbox/snapshots/:name', security: 'admin', response: 'Snapshot' },
  deleteSnapshot: { method: 'delete', path: '/sandbox/snapshots/:name', security: 'admin', body: 'NoBody', status: 204 },
  restoreSnapshot: {
    method: 'post',
    path: '/sandbox/snapshots/:name/restore',
    security: 'admin',
    body: 'NoBody',
    response: 'RestoredSnapshot',
  },
  resetSandbox: { method: 'post', path: '/sandbox/reset', security: 'admin', body: 'NoBody', response: 'ResetState' },
  createDashboardSignInLink: {
    method: 'post',
    path: '/sandbox/dashboard/sign-in-links',
    security: 'admin',
    body: 'NoBody',
    response: 'DashboardSignInLink',
    status: 201,
  },
})

export type EndpointId = keyof typeof endpoints
