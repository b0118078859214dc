// What the API answers, as zod schemas: the client's types are their z.infer and the OpenAPI
// document's components are built from them. The server builds its resources in the
// *-resource.ts files; test/e2e/openapi.test.ts checks real answers against these.
import { z } from 'zod'
import {
  BRIDGE_ORDER_STATUSES,
  CUSTOMER_TYPES,
  ESCROW_STATUSES,
  HEALTH_STATUSES,
  LEDGER_ASSET_CODES,
  INVOICE_STATUSES,
  LEDGER_ROLES,
  LOCALES,
  PAYMENT_STATUSES,
  SETTLEMENT_MODES,
  SETTLEMENT_STATUSES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
} from './enumerations.js'
import * as examples from './examples.js'

/** The example a schema carries (set with .meta), to build the examples of lists and envelopes from it. */
const exampleOf = (schema: z.ZodType): unknown => z.globalRegistry.get(schema)?.example
const without = (example: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(Object.entries(example).filter(([key]) => !keys.includes(key)))

const isoDateTime = z.iso.datetime({ offset: true }).describe('ISO 8601 date-time (UTC)')
/** USDC (or XLM) as decimal text with 7 places, as on Stellar. */
const decimalText = z
  .string()
  .regex(/^-?\d+\.\d{7}$/)
  .describe('Decimal text with 7 places')
const accountAddress = z
  .string()
  .regex(/^G[A-Z2-7]{55}$/)
  .describe('Stellar account address (G…)')
const txHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .describe('Ledger transaction hash')

export const errorBody = z
  .object({
    statusCode: z.number().int().min(400).max(599),
    reason: z.string().describe('As in spec section 7: "Bad Request", "Unauthorized", "Signature verification failed", "Not Found", …'),
    message: z.string().describe('What exactly was wrong (which field, which header)'),
    requestId: z.string().describe("The request's id, as in its Request-Id header: find it in the request log").optional(),
  })
  .describe("Every error answer (spec 2.10), with the sandbox's precise message")
  .meta({ example: examples.errorExample })

export const money = z.object({ value: z.number().int().describe('Smallest unit of the currency'), currency: z.string() })

export const historyEntry = z.object({
  time: z.number().int().describe('Unix time in milliseconds'),
  status: z.string(),
  description: z.string(),
})

const paymentFields = {
  id: z.string().regex(/^pt_[0-9a-f]{32}$/),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  expiresAt: isoDateTime,
  mode: z.literal('test'),
  amount: money,
  description: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  settlement_status: z.enum(SETTLEMENT_STATUSES),
  redirectUrl: z.string().optional(),
  webhookUrl: z.string().optional(),
  hostedUrl: z.string().describe('Hosted payment page, with paymentId, auth_token and lang'),
  qrCode: z.string().describe('SEP-0007 wallet payment URI'),
  merchantName: z.string(),
  cancelUrl: z.string().optional(),
  locale: z.enum(LOCALES),
  metadata: z.record(z.string(), z.unknown()),
  stellarTxId: txHash.optional(),
  settlement_stellarTxId: txHash.optional(),
  settlement_currency: z.literal('USDC'),
  settlement_amount: z.number().describe('USDC, at most 7 decimal places'),
  amount_paid: z.number().int().describe('Smallest unit of the pricing currency'),
  history: z.array(historyEntry),
  sender_account: accountAddress.optional(),
  asset_id: z.string().describe('USDC:<issuer>'),
  refunded: z.boolean(),
  type: z.literal('order'),
  storeId: z.string().optional(),
  escrow_status: z.enum(ESCROW_STATUSES).optional().describe('Escrow merchants only'),
  escrow_order_id: z.string().optional().describe('Escrow merchants only'),
  escrow_contract_address: z.string().optional().describe('Escrow merchants only'),
  escrow_platform_fee_bps: z.number().int().optional().describe('Escrow merchants only'),
}

export const payment = z
  .object({
    ...paymentFields,
    checkout_id: z.string().describe('Equals id'),
    shortUrl: z.string(),
    settlement_fee: z.number().describe('USDC, at most 7 decimal places'),
    partner_id: z.string().optional(),
  })
  .describe('A payment (spec 2.1)')
  .meta({ example: examples.paymentExample })

/** The refund's copy of its payment leaves out checkout_id, shortUrl, settlement_fee and partner_id (spec 2.4). */
export const refundedPayment = z
  .object(paymentFields)
  .describe('The refunded payment as it is now (spec 2.4)')
  .meta({ example: { ...without(examples.paymentExample, ['checkout_id', 'shortUrl', 'settlement_fee', 'partner_id']), refunded: true } })

export const refund = z
  .object({
    refund_id: z.string().regex(/^rf_[0-9a-f]{32}$/),
    amount: z.object({ asset_id: z.string(), value: z.number().describe('USDC, at most 7 decimal places') }),
    status: z.literal('refunded'),
    description: z.string(),
    settlement_Id: txHash.describe('Ledger transaction that paid the customer back'),
    metadata: z.record(z.string(), z.unknown()),
    paymentId: z.string(),
    createdAt: isoDateTime,
    payment: refundedPayment,
  })
  .describe('A refund (spec 2.4)')
  .meta({ example: { ...examples.refundExample, payment: exampleOf(refundedPayment) } })

export const pageMeta = z.object({
  totalItems: z.number().int(),
  itemCount: z.number().int(),
  itemsPerPage: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
})
export const pageLinks = z.object({
  first: z.string(),
  previous: z.string().describe('"" on the first page'),
  next: z.string().describe('"" on the last page'),
  last: z.string(),
})

export const postalAddress = z.object({ line1: z.string(), postal_code: z.string(), city: z.string(), country: z.string() })

export const customer = z
  .object({
    id: z.string(),
    customer_type: z.enum(CUSTOMER_TYPES),
    name: z.string().nullable(),
    company_name: z.string().nullable(),
    email: z.string(),
    vat_number: z.string().nullable(),
    address: postalAddress.nullable(),
  })
  .describe("An invoice's customer (spec 2.3)")
  .meta({ example: examples.customerExample })

export const invoice = z
  .object({
    id: z.string(),
    invoice_number: z.string(),
    status: z.enum(INVOICE_STATUSES),
    currency: z.string(),
    line_items: z.array(z.object({ description: z.string(), quantity: z.number(), unit_price: z.number().int() })),
    subtotal: z.number().int(),
    tax_percentage: z.number(),
    tax_total: z.number().int(),
    total: z.number().int(),
    issued_at: isoDateTime,
    due_at: isoDateTime.nullable(),
    payment_id: z.string(),
    notes: z.string(),
    customer,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .describe('An invoice with its customer (spec 2.2)')
  .meta({ example: examples.invoiceExample })

export const invoiceSettings = z
  .object({
    invoice_prefix: z.string(),
    next_number: z.number().int(),
    preview: z.string().describe('The number the next invoice would get now'),
  })
  .meta({ example: examples.invoiceSettingsExample })

export const feeTier = z
  .object({
    tierId: z.string(),
    tierName: z.string(),
    ratePercent: z.number(),
    volume: z.number().describe('Settled volume over the window, USD'),
    windowDays: z.number().int(),
    nextTier: z.object({ name: z.string(), ratePercent: z.number(), minVolume: z.number(), amountToNext: z.number() }).nullable(),
  })
  .describe("The merchant's fee tier (spec 2.5)")
  .meta({ example: examples.feeTierExample })

export const currency = z
  .object({ resource: z.literal('currencies'), name: z.string(), code: z.string(), symbol: z.string(), precision: z.number().int() })
  .describe('A pricing currency (spec 2.6)')
  .meta({ example: examples.currencyExample })

export const balance = z
  .object({ balance: decimalText })
  .describe("One asset's balance (spec 2.7)")
  .meta({ example: examples.balanceExample })

export const accountBalances = z
  .object({
    account: accountAddress,
    items: z.array(z.object({ asset_id: z.string(), asset_code: z.string(), balance: decimalText })),
  })
  .meta({ example: examples.accountBalancesExample })

export const merchant = z
  .object({
    id: z.string(),
    name: z.string(),
    settlement_mode: z.enum(SETTLEMENT_MODES),
    account: accountAddress,
    webhooks_paused: z.boolean(),
  })
  .describe('The authenticated merchant')
  .meta({ example: examples.merchantExample })

export const sandboxMerchant = z
  .object({
    id: z.string(),
    name: z.string(),
    apiKey: z.string(),
    apiSecret: z.string(),
    settlement_mode: z.enum(SETTLEMENT_MODES),
    account: accountAddress,
    escrow_fee_bps: z.number().int(),
  })
  .describe('A merchant with its keys, as the admin sees it')
  .meta({ example: examples.sandboxMerchantExample })

const deliveryFields = {
  id: z.string(),
  merchant_id: z.string(),
  checkout_id: z.string().describe('The payment the event is about'),
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  url: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  http_status: z.number().int().nullable().describe('null when there was no HTTP answer'),
  error_message: z.string().nullable(),
  attempt_count: z.number().int(),
  duration_ms: z.number().int().nullable(),
  resend_of: z.string().nullable(),
  last_attempt_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
}

export const webhookDeliverySummary = z
  .object(deliveryFields)
  .describe('A webhook delivery log entry as lists show it (spec 2.8)')
  .meta({ example: without(examples.webhookDeliveryExample, ['request_payload', 'response_body']) })

export const webhookDelivery = z
  .object({
    ...deliveryFields,
    request_payload: z.string().describe('The exact JSON text sent and signed'),
    response_body: z.string().nullable().describe("The receiver's answer, first 4096 bytes"),
  })
  .describe('One webhook delivery log entry in full (spec 2.8)')
  .meta({ example: examples.webhookDeliveryExample })

export const webhooksPausedState = z
  .object({ merchant_id: z.string(), webhooks_paused: z.boolean() })
  .meta({ example: examples.webhooksPausedStateExample })

/** Whether a payment's webhooks have all been sent, as `paybox trigger` waits for them (sandbox only). */
export const paymentWebhooksState = z
  .object({
    checkout_id: z.string(),
    event_coming: z
      .boolean()
      .describe('An event the sandbox will emit with no one acting: a settlement in processing reports its outcome when its ledger closes'),
    pending_deliveries: z.number().int().describe('Deliveries of its events not yet attempted'),
    quiet: z.boolean().describe('No event coming and no delivery pending: its delivery log is final until someone acts'),
  })
  .meta({ example: examples.paymentWebhooksStateExample })

export const crossChainQuote = z
  .object({
    quoteId: z.string(),
    paymentId: z.string(),
    originChain: z.string(),
    originToken: z.string(),
    depositAddress: z.string(),
    amountIn: z.string().describe('Origin token to send, decimal text, bridge fee included'),
    amountOut: decimalText.describe('USDC that arrives'),
    bridgeFeeBps: z.number().int(),
    refundAddress: z.string(),
    expiresAt: isoDateTime.describe("The order's deadline on the business clock"),
    status: z.enum(BRIDGE_ORDER_STATUSES).describe("The bridge order's status (docs/bridge.md)"),
    amountDeposited: z.string().describe('Origin token deposited so far, decimal text'),
    amountRefunded: z.string().describe('Origin token sent back to refundAddress, decimal text'),
    usdcDelivered: decimalText.describe('USDC the bridge delivered to the payment'),
    supersededBy: z.string().nullable().describe('The newer quote of the same payment that replaced this one'),
    depositTxId: txHash.optional().describe('The Stellar transaction that delivered the USDC'),
    transactions: z.object({
      origin: z.array(z.object({ type: z.enum(['deposit', 'refund']), hash: z.string(), amount: z.string(), at: isoDateTime })),
      stellar: z.array(z.object({ type: z.literal('delivery'), hash: txHash })),
    }),
    history: z.array(z.object({ status: z.enum(BRIDGE_ORDER_STATUSES), at: isoDateTime })),
  })
  .describe('A cross-chain quote: a bridge order (spec 4.5; docs/bridge.md)')
  .meta({ example: examples.crossChainQuoteExample })

export const originChains = z
  .object({
    bridgeFeeBps: z.number().int(),
    items: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        addressFormat: z.enum(['evm', 'solana']),
        tokens: z.array(z.object({ symbol: z.string(), decimals: z.number().int(), usdRate: z.string() })),
      }),
    ),
  })
  .meta({ example: examples.originChainsExample })

export const depositResult = z
  .object({ quote: crossChainQuote, payment })
  .meta({ example: { quote: examples.crossChainQuoteExample, payment: examples.paymentExample } })

export const ledgerOperation = z.object({
  index: z.number().int(),
  type: z.literal('payment'),
  from: accountAddress,
  to: accountAddress,
  asset: z.enum(LEDGER_ASSET_CODES),
  amount: decimalText,
})

export const escrowOrder = z
  .object({
    paymentId: z.string(),
    escrow_order_id: z.string(),
    escrow_status: z.enum(ESCROW_STATUSES),
    escrow_contract_address: z.string(),
    custody_account: accountAddress,
    contract_balance: decimalText,
    held: decimalText,
    platform_fee_account: accountAddress,
    payee: accountAddress,
    escrow_platform_fee_bps: z.number().int(),
    escrow_expires_at: isoDateTime.nullable(),
    settlement_status: z.enum(SETTLEMENT_STATUSES),
    // escrow_status keeps the spec's values (created, funded, failed; no "released"): a release is said here.
    release: z
      .object({
        status: z
          .enum(SETTLEMENT_STATUSES)
          .describe("The settlement the release started: processing until the release's ledger closes, then paid"),
        released_at: isoDateTime,
        transaction: txHash.describe('The release transaction: the payee paid, the platform fee taken'),
      })
      .nullable()
      .describe('What releasing the order did; null until it is released'),
    transactions: z.array(
      z.object({
        hash: txHash,
        ledger: z.number().int(),
        appliedAt: isoDateTime,
        successful: z.boolean(),
        operations: z.array(ledgerOperation.pick({ from: true, to: true, asset: true, amount: true })),
      }),
    ),
  })
  .describe("An escrow merchant's order, its custody and its ledger transactions")
  .meta({ example: examples.escrowOrderExample })

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
    createdAt: isoDateTime,
  })
  .meta({ example: examples.ledgerAccountExample })

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
    appliedAt: isoDateTime,
    closedAt: isoDateTime.nullable(),
    payment: z.string().nullable().describe('The payment whose memo the transaction carries'),
    unmatched: z.boolean().describe('It carries a memo no payment has (the money landed all the same)'),
    horizonUrl: z.string().describe("The transaction on the sandbox's Horizon API"),
  })
  .meta({ example: examples.ledgerTransactionExample })

const EXAMPLE_URL = 'http://127.0.0.1:4010/payments'

/** Lists of the spec: items, meta and, for payments and refunds, links (spec 2.9). */
const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), meta: pageMeta })
const linkedPage = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), meta: pageMeta, links: pageLinks })

// Overloads, so that a page with links infers a type with links (the client's answers are z.infer of these).
export function pageOf<T extends z.ZodType>(item: T, withLinks: true): ReturnType<typeof linkedPage<T>>
export function pageOf<T extends z.ZodType>(item: T, withLinks: false): ReturnType<typeof page<T>>
export function pageOf<T extends z.ZodType>(item: T, withLinks: boolean) {
  const example = { items: [exampleOf(item)], meta: { totalItems: 1, itemCount: 1, itemsPerPage: 20, totalPages: 1, currentPage: 1 } }
  const links = { first: `${EXAMPLE_URL}?page=1&limit=20`, previous: '', next: '', last: `${EXAMPLE_URL}?page=1&limit=20` }
  return withLinks ? linkedPage(item).meta({ example: { ...example, links } }) : page(item).meta({ example })
}

export const itemsOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) }).meta({ example: { items: [exampleOf(item)] } })

const healthCheck = z.object({ status: z.enum(HEALTH_STATUSES), detail: z.string().optional() })
const healthChecks = z.object({ database: healthCheck, ledger: healthCheck, webhooks: healthCheck })

/** Whether clients share this sandbox: `paybox scenario run` isolates its runs in a tenant on one that is not a developer's own. */
const sandboxSharing = z.object({
  shared: z.boolean().describe('Started with --shared (or on a non-loopback host)'),
  replicated: z.boolean().describe('One of the replicas over a PostgreSQL database'),
})
export const health = z
  .object({ status: z.literal('ok'), checks: healthChecks, sandbox: sandboxSharing })
  .meta({ example: examples.healthExample })
export const requestLogEntry = z
  .object({
    requestId: z.string().describe("As in the response's Request-Id header"),
    time: isoDateTime.describe('When the request arrived (real time)'),
    method: z.string(),
    path: z.string().describe('Without the query string'),
    status: z.number().int().min(0).max(599).describe('The response status; 0 when the client went away before an answer'),
    durationMs: z.number().min(0),
    merchantId: z.string().nullable().describe('The merchant whose key signed the request; null for public, admin and refused requests'),
    idempotencyKey: z.string().nullable(),
  })
  .describe('One API request in the request log: no body, query string or credential')
  .meta({ example: examples.requestLogEntryExample })

export const healthFailing = errorBody
  .extend({ checks: healthChecks })
  .describe('The Error body (503 Service Unavailable) with every check')
  .meta({
    example: {
      statusCode: 503,
      reason: 'Service Unavailable',
      message: 'webhooks: the dispatcher stopped',
      requestId: examples.errorExample.requestId,
      checks: examples.healthFailingChecksExample,
    },
  })

export const sandboxClock = z
  .object({
    now: isoDateTime.describe('Business time'),
    advancedSeconds: z.number().int().describe('How far business time has been moved past the wall clock'),
    frozenAt: isoDateTime.optional().describe('Only while the clock is frozen'),
  })
  .meta({ example: examples.sandboxClockExample })

export const createdTenant = z
  .object({ merchant: sandboxMerchant, clock: sandboxClock })
  .describe('A tenant: a merchant for one job, its keys, and its own business clock')
  .meta({ example: { merchant: examples.sandboxMerchantExample, clock: examples.sandboxClockExample } })

export const tenant = z
  .object({ id: z.string(), name: z.string(), createdAt: isoDateTime, clock: sandboxClock })
  .describe('An active tenant, without its keys')
  .meta({
    example: {
      id: examples.sandboxMerchantExample.id,
      name: examples.sandboxMerchantExample.name,
      createdAt: examples.sandboxClockExample.now,
      clock: examples.sandboxClockExample,
    },
  })

export const tenantList = z
  .object({
    data: z.array(tenant).describe('Active tenants, oldest first'),
    maxTenants: z.number().int().describe('How many active tenants the sandbox takes'),
  })
  .meta({ example: { data: [exampleOf(tenant)], maxTenants: 1000 } })

export const archivedTenant = z
  .object({ id: z.string(), archivedAt: isoDateTime.describe("On the tenant's clock") })
  .meta({ example: { id: examples.sandboxMerchantExample.id, archivedAt: examples.sandboxClockExample.now } })

export const dashboardSignInLink = z
  .object({
    url: z.string().describe('Opens the dashboard signed in as the admin; works once'),
    expiresAt: isoDateTime.describe('The link stops working at this instant (wall-clock time)'),
  })
  .meta({ example: examples.dashboardSignInLinkExample })

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
  .meta({ example: examples.walletExample })

export const snapshot = z
  .object({ name: z.string(), size: z.number().int().describe('Bytes'), createdAt: isoDateTime })
  .meta({ example: examples.snapshotExample })

const merchantCredentials = sandboxMerchant.pick({ id: true, name: true, apiKey: true, apiSecret: true, settlement_mode: true })
export const resetState = z
  .object({
    merchants: z.array(merchantCredentials),
    clock: z.object({ now: isoDateTime, frozenAt: isoDateTime.optional() }),
  })
  .meta({ example: examples.resetStateExample })
export const restoredSnapshot = resetState
  .extend({ snapshot })
  .meta({ example: { ...examples.resetStateExample, snapshot: examples.snapshotExample } })

export const advancedClock = sandboxClock
  .extend({
    processed: z.object({
      expiredPayments: z.number().int(),
      overdueInvoices: z.number().int(),
      failedEscrows: z.number().int(),
      closedQuotes: z.number().int(),
    }),
  })
  .meta({ example: { ...examples.sandboxClockExample, advancedSeconds: 86400, processed: examples.advancedClockProcessedExample } })

export const paymentEvent = z
  .object({
    sequence: z.number().int(),
    event_type: z.enum(WEBHOOK_EVENT_TYPES),
    checkout_id: z.string(),
    payload: z.string().describe('The exact webhook body text'),
    created_at: isoDateTime,
  })
  .describe('A payment event, as the events stream sends it')
  .meta({ example: examples.paymentEventExample })

/** What the sandbox POSTs to a payment's webhookUrl (spec 6). */
export const webhookBody = z
  .object({
    data: z.object({
      type: z.enum(WEBHOOK_EVENT_TYPES),
      id: z.string().describe('The payment id'),
      status: z.enum(PAYMENT_STATUSES),
      settlement_status: z.enum(SETTLEMENT_STATUSES),
      amount: money,
      settlement_amount: z.number(),
      settlement_currency: z.literal('USDC'),
      settlement_fee: z.number(),
      amount_paid: z.number().int(),
      amount_received: z.number().describe('USDC received so far'),
      amount_remaining: z.number().describe('USDC still to pay, 0 once paid in full'),
      history: z.array(historyEntry),
      metadata: z.record(z.string(), z.unknown()),
    }),
  })
  .describe('A webhook body (spec 6): the payment as it is after the event')
  .meta({ example: examples.webhookBodyExample })

export const openApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })
  .meta({ example: examples.openApiDocumentExample })

/** Every response body, by the component name the document gives it. */
export const RESPONSE_SCHEMAS = {
  Error: errorBody,
  Payment: payment,
  RefundedPayment: refundedPayment,
  PaymentPage: pageOf(payment, true),
  Refund: refund,
  RefundPage: pageOf(refund, true),
  Invoice: invoice,
  Customer: customer,
  InvoicePage: pageOf(invoice, false),
  InvoiceSettings: invoiceSettings,
  FeeTier: feeTier,
  Currency: currency,
  CurrencyList: itemsOf(currency),
  Balance: balance,
  AccountBalances: accountBalances,
  Merchant: merchant,
  SandboxMerchant: sandboxMerchant,
  SandboxMerchantList: itemsOf(sandboxMerchant),
  WebhookDelivery: webhookDelivery,
  WebhookDeliverySummary: webhookDeliverySummary,
  WebhookDeliveryPage: pageOf(webhookDeliverySummary, false),
  WebhooksPausedState: webhooksPausedState,
  PaymentWebhooksState: paymentWebhooksState,
  PaymentEvent: paymentEvent,
  RequestLogEntry: requestLogEntry,
  RequestLogList: itemsOf(requestLogEntry),
  CrossChainQuote: crossChainQuote,
  OriginChains: originChains,
  DepositResult: depositResult,
  EscrowOrder: escrowOrder,
  LedgerAccount: ledgerAccount,
  LedgerAccountList: itemsOf(ledgerAccount),
  LedgerTransaction: ledgerTransaction,
  LedgerTransactionList: itemsOf(ledgerTransaction),
  SandboxClock: sandboxClock,
  CreatedTenant: createdTenant,
  TenantList: tenantList,
  ArchivedTenant: archivedTenant,
  DashboardSignInLink: dashboardSignInLink,
  AdvancedClock: advancedClock,
  WebhookBody: webhookBody,
  Health: health,
  HealthFailing: healthFailing,
  Wallet: wallet,
  Snapshot: snapshot,
  SnapshotList: itemsOf(snapshot),
  RestoredSnapshot: restoredSnapshot,
  ResetState: resetState,
  OpenApiDocument: openApiDocument,
} satisfies Record<string, z.ZodType>
