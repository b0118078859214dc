// Sandbox extensions under the admin token: health, merchants, the business clock, wallets, the
// whole state (reset, snapshots), the simulated ledger, the dashboard's sign-in.
import { z } from 'zod'
import { advanceBody, freezeBody } from '../clock-bodies.js'
import { HEALTH_STATUSES, LEDGER_ROLES, SETTLEMENT_MODES } from '../enumerations.js'
import { formatDecimal, parseDecimal, USDC_SCALE } from '../../money.js'
import { isAccountAddress, queryInteger } from '../validation.js'
import * as examples from '../examples.js'
import {
  dateTimeText,
  decimalText,
  accountAddress,
  txHash,
  errorBody,
  itemsOf,
  sandboxMerchant,
  ledgerOperation,
  sandboxClock,
  advancedClock,
} from '../resources.js'
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

const healthCheck = z.object({ status: z.enum(HEALTH_STATUSES), detail: z.string().optional() })

const healthChecks = z.object({ database: healthCheck, ledger: healthCheck, webhooks: healthCheck })

/** Whether clients share this sandbox: `paybox scenario run` isolates its runs in a tenant on one that is not a developer's own. */
const sandboxSharing = z.object({
  shared: z.boolean().describe('Started with --shared (or on a non-loopback host)'),
  replicated: z.boolean().describe('One of the replicas over a PostgreSQL database'),
})

const healthChecksExample = {
  database: { status: 'ok' },
  ledger: { status: 'ok', detail: 'ledger 7 open' },
  webhooks: { status: 'ok', detail: 'no deliveries waiting' },
}

const healthExample = { status: 'ok', checks: healthChecksExample, sandbox: { shared: false, replicated: false } }

export const health = z.object({ status: z.literal('ok'), checks: healthChecks, sandbox: sandboxSharing }).meta({ example: healthExample })

const healthFailingChecksExample = { ...healthChecksExample, webhooks: { status: 'failing', detail: 'the dispatcher stopped' } }

export const healthFailing = errorBody
  .extend({ checks: healthChecks })
  .describe('The Error body (503 Service Unavailable) with every check')
  .meta({
    example: {
      statusCode: 503,
      reason: 'Service Unavailable',
      message: 'webhooks: the dispatcher stopped',
      requestId: examples.errorExample.requestId,
      checks: healthFailingChecksExample,
    },
  })

const ledgerAccountExample = {
  publicKey: examples.MERCHANT_ACCOUNT,
  role: 'merchant',
  label: 'Acme Store settlement',
  sequence: '4294967299',
  balances: { USDC: '29.7000000', XLM: '9999.9999600' },
  createdAt: '2026-11-24T12:56:09.954Z',
}

export const ledgerAccount = z
  .object({
    publicKey: z
      .string()
      .regex(/^[GC][A-Z2-7]{55}$/)
      .describe('Account (G…) or contract (C…) address'),
    role: z.enum(LEDGER_ROLES),
    label: z.string(),
    sequence: z.string(),
    balances: z.object({ USDC: decimalText, XLM: decimalText }),
    createdAt: dateTimeText,
  })
  .meta({ example: ledgerAccountExample })

export const ledgerAccountList = itemsOf(ledgerAccount)

const ledgerTransactionExample = {
  hash: examples.PAYMENT_TX,
  position: 5,
  ledger: 2,
  sourceAccount: examples.CUSTOMER_ACCOUNT,
  sourceSequence: '4294967297',
  feeCharged: '100',
  successful: true,
  operationResults: null,
  memoType: 'text',
  memo: 'pb-1a20da0b7e7fc84a34d187e26',
  operations: [
    {
      index: 0,
      type: 'payment',
      from: examples.CUSTOMER_ACCOUNT,
      to: examples.MERCHANT_ACCOUNT,
      asset: 'USDC',
      amount: '25.0000000',
    },
  ],
  signatures: 1,
  envelopeXdr:
    'AAAAAgAAAAAV+QHgtfUAtVkTmNTXt1q8BEuBqx9lXxqe0SNHHwCIywAAAGQAAAABAAAAAQAAAAEAAAAAAAAAAAAAAABrBYqVAAAAAAAAAAEAAAAAAAAAAQAAAAD0BcAJSiKDlgqouO0xA+fX5A2PM/i4QIJk4rDO29loqQAAAAFVU0RDAAAAABX5AeC19QC1WROY1Ne3WrwES4GrH2VfGp7RI0cfAIjLAAAJGE5yoAAAAAAAAAAAAR8AiMsAAABAgwv5YMTzJuoHQp51e21IDR7mPjwKHbO3NY/z0jkM6AH6AvxQiYtT/pxrw5mF1bfy6owYOOAbcKMgaTBTMUUNCg==',
  appliedAt: '2026-11-24T12:56:06.405Z',
  closedAt: '2026-11-24T12:56:06.410Z',
  payment: examples.PAYMENT_ID,
  unmatched: false,
  horizonUrl: `${examples.BASE_URL}/horizon/transactions/${examples.PAYMENT_TX}`,
}

export const ledgerTransaction = z
  .object({
    hash: txHash,
    position: z.number().int(),
    ledger: z.number().int(),
    sourceAccount: accountAddress,
    sourceSequence: z.string(),
    feeCharged: z.string().describe('Stroops of XLM'),
    successful: z.boolean().describe('False for a transaction included as failed: its fee was charged and its sequence used, nothing else'),
    operationResults: z
      .array(z.string())
      .nullable()
      .describe("A failed transaction's result per operation (op_underfunded, op_no_trust, …); null when it succeeded"),
    memoType: z.enum(['none', 'text', 'id', 'hash', 'return']),
    memo: z.string().nullable(),
    operations: z.array(ledgerOperation),
    signatures: z.number().int(),
    envelopeXdr: z.string().describe('The signed envelope, base64 XDR'),
    appliedAt: dateTimeText,
    closedAt: dateTimeText.nullable(),
    payment: z.string().nullable().describe('The payment whose memo the transaction carries'),
    unmatched: z.boolean().describe('It carries a memo no payment has (the money landed all the same)'),
    horizonUrl: z.string().describe("The transaction on the sandbox's Horizon API"),
  })
  .meta({ example: ledgerTransactionExample })

export const ledgerTransactionList = itemsOf(ledgerTransaction)

const dashboardSignInLinkExample = {
  url: 'http://127.0.0.1:4010/dashboard/sign-in?token=q2Xv0m3Jc9bQ6l4tW1yZ8rN5aE7uK0sD2fH4gJ6kL8o',
  expiresAt: '2026-11-24T13:01:10.503Z',
}

export const dashboardSignInLink = z
  .object({
    url: z.string().describe('Opens the dashboard signed in as the admin; works once'),
    expiresAt: dateTimeText.describe('The link stops working at this instant (wall-clock time)'),
  })
  .meta({ example: dashboardSignInLinkExample })

const walletExample = {
  publicKey: 'GBOU5JQZOIDHXFOKZO2AUNZHUSH3OKZAQCEIU3KWEXSGPRVVXC2DCV4R',
  secret: 'SAH56HJGV2LXVASHAJPQ3ILB7NEIV5YEWX6YSGOAWPLE2WNHARTWM6WO',
  balances: { USDC: '100.0000000', XLM: '10000.0000000' },
  fundingTxId: 'c3fd754d6e4214c8808afc72b08d2400f06fe305d99f3b5afd6e94c4db033c76',
  usdcTrustline: { limit: '922337203685.4775807' },
  horizonUrl: `${examples.BASE_URL}/horizon`,
  networkPassphrase: examples.NETWORK_PASSPHRASE,
}

export const wallet = z
  .object({
    publicKey: accountAddress,
    secret: z.string().describe("The wallet's secret seed (S…): sign with it"),
    balances: z.object({ USDC: decimalText, XLM: decimalText }),
    fundingTxId: txHash.nullable().describe("The issuer's USDC payment to the wallet; null when no USDC was asked for"),
    usdcTrustline: z.object({ limit: decimalText }).nullable().describe("The wallet's USDC trustline; null when made without one"),
    horizonUrl: z.string().describe("The sandbox's Horizon API, for Stellar SDK scripts"),
    networkPassphrase: z.string(),
  })
  .meta({ example: walletExample })

const snapshotExample = { name: 'before-refunds', size: 221184, createdAt: '2026-11-24T12:58:00.000Z' }

export const snapshot = z
  .object({ name: z.string(), size: z.number().int().describe('Bytes'), createdAt: dateTimeText })
  .meta({ example: snapshotExample })

export const snapshotList = itemsOf(snapshot)

const merchantCredentials = sandboxMerchant.pick({ id: true, name: true, apiKey: true, apiSecret: true, settlement_mode: true })

const resetStateExample = {
  merchants: [
    {
      id: examples.MERCHANT_ID,
      name: 'Acme Store',
      apiKey: examples.sandboxMerchantExample.apiKey,
      apiSecret: examples.sandboxMerchantExample.apiSecret,
      settlement_mode: 'direct',
    },
  ],
  clock: { now: '2026-11-24T12:58:01.000Z' },
}

export const resetState = z
  .object({
    merchants: z.array(merchantCredentials),
    clock: z.object({ now: dateTimeText, frozenAt: dateTimeText.optional() }),
  })
  .meta({ example: resetStateExample })

export const restoredSnapshot = resetState.extend({ snapshot }).meta({ example: { ...resetStateExample, snapshot: snapshotExample } })

const openApiDocumentExample = {
  openapi: '3.1.0',
  info: { title: 'paybox sandbox: merchant payments and invoicing API', version: '1.0' },
  paths: {},
}

export const openApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })
  .meta({ example: openApiDocumentExample })

export const sandboxMerchantList = itemsOf(sandboxMerchant)

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
    response: health,
    answer: 'Every check is ok',
    otherAnswers: [{ status: 503, description: 'A check is failing', response: healthFailing }],
  }),
  merchants: endpoint({
    operationId: 'listSandboxMerchants',
    method: 'get',
    path: '/sandbox/merchants',
    ...ADMIN,
    summary: 'Every merchant with its keys',
    errors: [],
    response: sandboxMerchantList,
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
    response: sandboxMerchant,
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
    response: sandboxMerchant,
  }),
  clock: endpoint({
    operationId: 'getSandboxClock',
    method: 'get',
    path: '/sandbox/clock',
    ...ADMIN,
    summary: 'The business clock',
    errors: [],
    response: sandboxClock,
  }),
  advanceClock: endpoint({
    operationId: 'advanceSandboxClock',
    method: 'post',
    path: '/sandbox/clock/advance',
    ...ADMIN,
    summary: 'Move the business clock forward and process what falls due',
    errors: [],
    body: advanceBody,
    response: advancedClock,
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
    response: sandboxClock,
  }),
  unfreezeClock: endpoint({
    operationId: 'unfreezeSandboxClock',
    method: 'post',
    path: '/sandbox/clock/unfreeze',
    ...ADMIN,
    summary: 'Let business time run again',
    errors: [409],
    response: sandboxClock,
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
    response: wallet,
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
    response: resetState,
  }),
  /** A one-time link that opens the dashboard signed in as the admin. */
  dashboardLink: endpoint({
    operationId: 'createDashboardSignInLink',
    method: 'post',
    path: '/sandbox/dashboard/sign-in-links',
    ...ADMIN,
    summary: 'A one-time link that opens the dashboard signed in as the admin (docs/dashboard.md)',
    errors: [],
    response: dashboardSignInLink,
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
    response: snapshotList,
  }),
  save: endpoint({
    operationId: 'saveSnapshot',
    method: 'post',
    path: '/sandbox/snapshots',
    ...ADMIN,
    summary: 'Save a consistent copy of the whole state (online backup)',
    errors: [409, 422],
    body: saveSnapshotBody,
    response: snapshot,
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
    response: snapshot,
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
    response: restoredSnapshot,
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
    response: ledgerAccountList,
  }),
  transactions: endpoint({
    operationId: 'listLedgerTransactions',
    method: 'get',
    path: '/sandbox/ledger/transactions',
    ...ADMIN,
    summary: 'Transactions of the simulated ledger',
    errors: [],
    query: ledgerTransactionsQuery,
    response: ledgerTransactionList,
  }),
  transaction: endpoint({
    operationId: 'getLedgerTransaction',
    method: 'get',
    path: '/sandbox/ledger/transactions/:hash',
    ...ADMIN,
    summary: 'One ledger transaction, decoded',
    pathParams: { hash: 'Transaction hash (64 hex digits)' },
    errors: [404],
    response: ledgerTransaction,
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
  response: openApiDocument,
  answer: 'The OpenAPI 3.1 document of the whole API',
})

/** This file's bodies by the component name the OpenAPI document gives them. */
export const adminBodies = {
  CreateMerchantRequest: createMerchantBody,
  CreateWalletRequest: createWalletBody,
  SaveSnapshotRequest: saveSnapshotBody,
}

/** The answers declared here, by the component name the OpenAPI document gives them. */
export const adminAnswers = {
  Health: health,
  HealthFailing: healthFailing,
  SandboxMerchantList: sandboxMerchantList,
  LedgerAccount: ledgerAccount,
  LedgerAccountList: ledgerAccountList,
  LedgerTransaction: ledgerTransaction,
  LedgerTransactionList: ledgerTransactionList,
  DashboardSignInLink: dashboardSignInLink,
  Wallet: wallet,
  Snapshot: snapshot,
  SnapshotList: snapshotList,
  RestoredSnapshot: restoredSnapshot,
  ResetState: resetState,
  OpenApiDocument: openApiDocument,
}
