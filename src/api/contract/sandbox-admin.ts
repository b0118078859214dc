// Sandbox extensions under the admin token: health, merchants, the business clock, wallets, the
// whole state (reset, snapshots), the simulated ledger, the dashboard's sign-in.
import { z } from 'zod'
import { advanceBody, freezeBody } from '../clock-bodies.js'
import { LEDGER_ROLES, SETTLEMENT_MODES } from '../enumerations.js'
import { formatDecimal, parseDecimal, USDC_SCALE } from '../../money.js'
import { RESPONSE_SCHEMAS } from '../resources.js'
import { isAccountAddress, queryInteger } from '../validation.js'
import { endpoint } from './entry.js'

export const createMerchantBody = z.strictObject({
  name: z.string().trim().min(1, { message: 'must not be empty' }).max(200),
  settlement_mode: z.enum(SETTLEMENT_MODES, { message: 'must be direct or escrow' }),
  /** Default platform fee of the merchant's escrow orders, basis points, 0–10000 (escrow merchants only; default 0). */
  escrow_fee_bps: z.number().int({ message: 'must be a whole number of basis points' }).min(0).max(10_000).optional(),
})

// Customer wallets: amounts are stroops, 10^-7 of a unit, as on Stellar.

const STROOPS_PER_UNIT = 10n ** BigInt(USDC_SCALE)
export const DEFAULT_WALLET_USDC = 100n * STROOPS_PER_UNIT
export const DEFAULT_WALLET_XLM = 10_000n * STROOPS_PER_UNIT
/** As much USDC as a genesis customer wallet holds. */
export const MAX_WALLET_USDC = 1_000_000n * STROOPS_PER_UNIT
/** XLM is endowed, not paid: at least enough for fees, at most the genesis endowment a hundredfold. */
export const MIN_WALLET_XLM = 1n * STROOPS_PER_UNIT
export const MAX_WALLET_XLM = 1_000_000n * STROOPS_PER_UNIT
/** The largest balance a trustline can hold, int64 stroops: Stellar's default limit. */
export const MAX_TRUSTLINE_LIMIT = 2n ** 63n - 1n

const amountText = (min: bigint, max: bigint) =>
  z.string({ message: 'must be decimal text, e.g. "100" or "12.5"' }).transform((text, context) => {
    const stroops = /^\d{1,16}(\.\d{1,7})?$/.test(text) ? parseDecimal(text, USDC_SCALE) : undefined
    if (stroops === undefined || stroops < min || stroops > max) {
      context.addIssue({
        code: 'custom',
        message: `must be decimal text from ${formatDecimal(min, USDC_SCALE)} to ${formatDecimal(max, USDC_SCALE)} with at most 7 places`,
      })
      return z.NEVER
    }
    return stroops
  })

export const createWalletBody = z
  .strictObject({
    /** USDC the issuer pays the wallet, 0–1000000; default "100". */
    usdc: amountText(0n, MAX_WALLET_USDC).optional(),
    /** XLM the account is created with, 1–1000000; default "10000". */
    xlm: amountText(MIN_WALLET_XLM, MAX_WALLET_XLM).optional(),
    // A wallet that never added a USDC trustline: paying USDC from it or to it fails in the ledger.
    trustline: z.boolean({ message: 'must be true or false' }).optional(),
    /** The USDC trustline's limit (default the largest); paying past it fails with op_line_full. */
    usdcLimit: amountText(1n, MAX_TRUSTLINE_LIMIT).optional(),
  })
  .refine((body) => body.trustline !== false || ((body.usdc ?? 0n) === 0n && body.usdcLimit === undefined), {
    message: 'a wallet without a trustline holds no USDC: leave out usdc (or send "0") and usdcLimit',
    path: ['trustline'],
  })
  .refine((body) => body.usdcLimit === undefined || (body.usdc ?? DEFAULT_WALLET_USDC) <= body.usdcLimit, {
    message: 'the USDC to fund the wallet with must not exceed its trustline limit',
    path: ['usdcLimit'],
  })
  .optional()
export type CreateWalletBody = z.infer<typeof createWalletBody>

export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
export const SNAPSHOT_NAME_RULE = '1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit'

export const snapshotName = z.string().regex(SNAPSHOT_NAME, { message: `must be ${SNAPSHOT_NAME_RULE}` })
export const saveSnapshotBody = z.strictObject({
  name: snapshotName,
  /** Overwrite a snapshot of that name (default: 409). */
  replace: z.boolean().optional(),
})

export const MAX_TRANSACTIONS_PAGE = 200

export const ledgerAccountsQuery = z.strictObject({
  role: z.enum(LEDGER_ROLES, { message: `must be one of ${LEDGER_ROLES.join(', ')}` }).optional(),
})

export const ledgerTransactionsQuery = z.strictObject({
  account: z.string().refine(isAccountAddress, { message: 'must be a Stellar account address (G…)' }).optional(),
  limit: queryInteger(1, MAX_TRANSACTIONS_PAGE).optional(),
  order: z.enum(['asc', 'desc'], { message: 'must be asc or desc' }).optional(),
  after: queryInteger(0, Number.MAX_SAFE_INTEGER).optional(),
})

const SNAPSHOT_NAME_PARAM = { name: 'Snapshot name' }
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
    body: createMerchantBody,
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
    body: advanceBody,
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
    body: freezeBody,
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
    body: createWalletBody,
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
    body: saveSnapshotBody,
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
    pathParams: SNAPSHOT_NAME_PARAM,
    errors: [404, 422],
    response: RESPONSE_SCHEMAS.Snapshot,
  }),
  remove: endpoint({
    operationId: 'deleteSnapshot',
    method: 'delete',
    path: '/sandbox/snapshots/:name',
    ...ADMIN,
    summary: 'Delete a snapshot',
    pathParams: SNAPSHOT_NAME_PARAM,
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
    pathParams: SNAPSHOT_NAME_PARAM,
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
    query: ledgerAccountsQuery,
    response: RESPONSE_SCHEMAS.LedgerAccountList,
  }),
  transactions: endpoint({
    operationId: 'listLedgerTransactions',
    method: 'get',
    path: '/sandbox/ledger/transactions',
    ...ADMIN,
    summary: 'Transactions of the simulated ledger',
    errors: [],
    query: ledgerTransactionsQuery,
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

/** This file's bodies by the component name the OpenAPI document gives them. */
export const adminBodies = {
  CreateMerchantRequest: createMerchantBody,
  CreateWalletRequest: createWalletBody,
  SaveSnapshotRequest: saveSnapshotBody,
}
