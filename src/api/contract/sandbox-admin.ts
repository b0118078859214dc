// Sandbox extensions under the admin token: health, merchants, the business clock, wallets, the
// whole state (reset, snapshots), the simulated ledger, the dashboard's sign-in.
import { QUERIES, REQUEST_BODIES } from '../requests.js'
import { RESPONSE_SCHEMAS } from '../resources.js'
import { endpoint } from './entry.js'

const SNAPSHOT_NAME = { name: 'Snapshot name' }
/** An admin-token endpoint, in the document's Sandbox section. */
const ADMIN = { security: 'admin', tag: 'Sandbox' } as const

export const admin = {
  /** 200 when the database, the ledger and the webhook dispatcher all work; a 503 throws PayboxApiError (its body has the checks). */
  health: endpoint({
    operationId: 'getHealth',
    method: 'get',
    path: '/health',
    security: 'none',
    beforeBodyParser: true,
    summary: 'Whether the database, the ledger and the webhook dispatcher work',
    tag: 'Sandbox',
    description:
      'A readiness check: 200 when every check is ok, 503 (the Error body plus the checks) otherwise. `paybox sandbox wait` polls it.',
    errors: [],
    response: RESPONSE_SCHEMAS.Health,
    answer: 'Every check is ok',
    otherAnswers: [{ status: 503, description: 'A check is failing', response: RESPONSE_SCHEMAS.HealthFailing }],
  }),
  merchants: endpoint({
    operationId: 'listSandboxMerchants',
    method: 'get',
    path: '/sandbox/merchants',
    ...ADMIN,
    summary: 'Every merchant with its keys',
    errors: [],
    response: RESPONSE_SCHEMAS.SandboxMerchantList,
  }),
  /** A new merchant with fresh keys and a funded settlement account. */
  createMerchant: endpoint({
    operationId: 'createSandboxMerchant',
    method: 'post',
    path: '/sandbox/merchants',
    ...ADMIN,
    summary: 'A merchant with fresh keys and a funded account',
    errors: [],
    body: REQUEST_BODIES.CreateMerchantRequest,
    response: RESPONSE_SCHEMAS.SandboxMerchant,
    status: 201,
  }),
  /** A new API secret for the merchant; the old one stops working at once. */
  rotateSecret: endpoint({
    operationId: 'rotateMerchantSecret',
    method: 'post',
    path: '/sandbox/merchants/:id/rotate-secret',
    ...ADMIN,
    summary: 'A new API secret; the old one stops working at once',
    pathParams: { id: 'Merchant id' },
    errors: [404],
    response: RESPONSE_SCHEMAS.SandboxMerchant,
  }),
  clock: endpoint({
    operationId: 'getSandboxClock',
    method: 'get',
    path: '/sandbox/clock',
    ...ADMIN,
    summary: 'The business clock',
    errors: [],
    response: RESPONSE_SCHEMAS.SandboxClock,
  }),
  advanceClock: endpoint({
    operationId: 'advanceSandboxClock',
    method: 'post',
    path: '/sandbox/clock/advance',
    ...ADMIN,
    summary: 'Move the business clock forward and process what falls due',
    errors: [],
    body: REQUEST_BODIES.AdvanceClockRequest,
    response: RESPONSE_SCHEMAS.AdvancedClock,
  }),
  /** Business time stands still (at `at`, ISO 8601, default now) until unfrozen; advancing still moves it. */
  freezeClock: endpoint({
    operationId: 'freezeSandboxClock',
    method: 'post',
    path: '/sandbox/clock/freeze',
    ...ADMIN,
    summary: 'Stop business time (at now, or at a later instant)',
    errors: [409],
    body: REQUEST_BODIES.FreezeClockRequest,
    response: RESPONSE_SCHEMAS.SandboxClock,
  }),
  unfreezeClock: endpoint({
    operationId: 'unfreezeSandboxClock',
    method: 'post',
    path: '/sandbox/clock/unfreeze',
    ...ADMIN,
    summary: 'Let business time run again',
    errors: [409],
    response: RESPONSE_SCHEMAS.SandboxClock,
  }),
  /** A new customer wallet funded with XLM and USDC, secret included, for real Stellar tools. */
  createWallet: endpoint({
    operationId: 'createWallet',
    method: 'post',
    path: '/sandbox/wallets',
    ...ADMIN,
    summary: 'A new funded customer wallet, with its secret',
    errors: [],
    body: REQUEST_BODIES.CreateWalletRequest,
    response: RESPONSE_SCHEMAS.Wallet,
    status: 201,
  }),
  /** Back to a fresh genesis (same seed, fixed keys and admin token). */
  reset: endpoint({
    operationId: 'resetSandbox',
    method: 'post',
    path: '/sandbox/reset',
    ...ADMIN,
    summary: 'Replace the whole state with a fresh genesis (same seed, keys and admin token)',
    errors: [409, 422],
    response: RESPONSE_SCHEMAS.ResetState,
  }),
  /** A one-time link that opens the dashboard signed in as the admin. */
  dashboardLink: endpoint({
    operationId: 'createDashboardSignInLink',
    method: 'post',
    path: '/sandbox/dashboard/sign-in-links',
    ...ADMIN,
    summary: 'A one-time link that opens the dashboard signed in as the admin (docs/dashboard.md)',
    errors: [],
    response: RESPONSE_SCHEMAS.DashboardSignInLink,
    status: 201,
    answer: 'A link that works once, for a few minutes',
  }),
}

/** Consistent copies of the sandbox's whole state. */
export const snapshots = {
  list: endpoint({
    operationId: 'listSnapshots',
    method: 'get',
    path: '/sandbox/snapshots',
    ...ADMIN,
    summary: 'Saved snapshots of the whole state',
    errors: [],
    response: RESPONSE_SCHEMAS.SnapshotList,
  }),
  save: endpoint({
    operationId: 'saveSnapshot',
    method: 'post',
    path: '/sandbox/snapshots',
    ...ADMIN,
    summary: 'Save a consistent copy of the whole state (online backup)',
    errors: [409, 422],
    body: REQUEST_BODIES.SaveSnapshotRequest,
    response: RESPONSE_SCHEMAS.Snapshot,
    status: 201,
    answer: 'Saved',
  }),
  get: endpoint({
    operationId: 'getSnapshot',
    method: 'get',
    path: '/sandbox/snapshots/:name',
    ...ADMIN,
    summary: 'One snapshot',
    pathParams: SNAPSHOT_NAME,
    errors: [404, 422],
    response: RESPONSE_SCHEMAS.Snapshot,
  }),
  remove: endpoint({
    operationId: 'deleteSnapshot',
    method: 'delete',
    path: '/sandbox/snapshots/:name',
    ...ADMIN,
    summary: 'Delete a snapshot',
    pathParams: SNAPSHOT_NAME,
    errors: [404, 422],
    status: 204,
    answer: 'Deleted',
  }),
  /** Replaces the whole state with the snapshot's; requests wait meanwhile. */
  restore: endpoint({
    operationId: 'restoreSnapshot',
    method: 'post',
    path: '/sandbox/snapshots/:name/restore',
    ...ADMIN,
    summary: 'Replace the whole state with a snapshot',
    pathParams: SNAPSHOT_NAME,
    errors: [404, 409, 422],
    response: RESPONSE_SCHEMAS.RestoredSnapshot,
  }),
}

/** The simulated Stellar ledger, as the sandbox operator sees it. */
export const ledger = {
  accounts: endpoint({
    operationId: 'listLedgerAccounts',
    method: 'get',
    path: '/sandbox/ledger/accounts',
    ...ADMIN,
    summary: 'Accounts of the simulated ledger',
    errors: [],
    query: QUERIES.LedgerAccountsQuery,
    response: RESPONSE_SCHEMAS.LedgerAccountList,
  }),
  transactions: endpoint({
    operationId: 'listLedgerTransactions',
    method: 'get',
    path: '/sandbox/ledger/transactions',
    ...ADMIN,
    summary: 'Transactions of the simulated ledger',
    errors: [],
    query: QUERIES.LedgerTransactionsQuery,
    response: RESPONSE_SCHEMAS.LedgerTransactionList,
  }),
  transaction: endpoint({
    operationId: 'getLedgerTransaction',
    method: 'get',
    path: '/sandbox/ledger/transactions/:hash',
    ...ADMIN,
    summary: 'One ledger transaction, decoded',
    pathParams: { hash: 'Transaction hash (64 hex digits)' },
    errors: [404],
    response: RESPONSE_SCHEMAS.LedgerTransaction,
  }),
}

/** The OpenAPI 3.1 document of the whole API, as the server describes itself (no credentials needed). */
export const openapi = endpoint({
  operationId: 'getOpenApiDocument',
  method: 'get',
  path: '/openapi.json',
  security: 'none',
  beforeBodyParser: true,
  summary: 'This OpenAPI document',
  tag: 'Sandbox',
  errors: [],
  response: RESPONSE_SCHEMAS.OpenApiDocument,
  answer: 'The OpenAPI 3.1 document of the whole API',
})
