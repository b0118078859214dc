// The request bodies and list queries of the API: the sandbox validates with these schemas, the
// OpenAPI document describes them, and the client's request types are their z.input (what a
// client sends, before transforms). Unknown fields are refused, so a misspelt field is an error
// rather than silently ignored.
import { z } from 'zod'
import {
  CURRENCY_CODES,
  CUSTOMER_TYPES,
  INVOICE_STATUSES,
  LEDGER_ASSET_CODES,
  LEDGER_ROLES,
  LOCALES,
  PAYMENT_STATUSES,
  SETTLEMENT_MODES,
  WEBHOOK_DELIVERY_STATUSES,
} from './enumerations.js'
import { MAX_LINE_ITEMS, MAX_QUANTITY } from './limits.js'
import { QUANTITY_SCALE, TAX_SCALE } from '../invoice-totals.js'
import { MAX_AMOUNT_VALUE, USDC_SCALE, formatDecimal, numberToScaled, parseDecimal } from '../money.js'
import {
  httpUrl,
  isAccountAddress,
  isoDateOrDateTime,
  isoDateTime,
  metadata,
  noBody,
  optionalText,
  pageQuery,
  queryInteger,
} from './validation.js'

export { MAX_LINE_ITEMS, MAX_QUANTITY }
export const MAX_EXPIRES_IN_HOURS = 24 * 365
export const MAX_INVOICE_NUMBER_LENGTH = 64
export const MAX_INVOICE_PREFIX_LENGTH = 24

/**
 * One of `values`, typed as text going in (a client passes what its user typed, and the sandbox
 * names the choices) and as the enumeration once checked, so the sandbox's columns are checked.
 */
function textEnum<T extends string>(values: readonly T[]) {
  return z
    .enum(values as readonly string[] as [string, ...string[]], { message: `must be one of ${values.join(', ')}` })
    .transform((value) => value as T)
}

const currencyCode = textEnum(CURRENCY_CODES)

/** An amount in the smallest unit of a payment's pricing currency, as the simulations and refunds take it. */
export const pricingAmount = z
  .number()
  .int({ message: 'must be an integer in the smallest unit of the pricing currency' })
  .positive({ message: 'must be greater than 0' })
  .max(MAX_AMOUNT_VALUE)

// Payments (spec 4.1, 4.2)

export const createPaymentBody = z.strictObject({
  amount: z.strictObject({
    currency: currencyCode,
    value: z
      .number()
      .int({ message: 'must be an integer in the smallest unit of the currency' })
      .positive({ message: 'must be greater than 0' })
      .max(MAX_AMOUNT_VALUE, { message: `must be at most ${MAX_AMOUNT_VALUE}` }),
  }),
  description: z.string().trim().min(1, { message: 'must not be empty' }).max(1000),
  redirectUrl: httpUrl.nullish(),
  name: optionalText(200),
  cancelUrl: httpUrl.nullish(),
  webhookUrl: httpUrl.nullish(),
  locale: z.enum(LOCALES, { message: 'must be en or es' }).nullish(),
  metadata: metadata.nullish(),
  partnerId: optionalText(255),
  escrowPayee: z.string().max(64).nullish(),
  escrowPlatformFee: z.number().int({ message: 'must be an integer number of basis points' }).min(0).max(10_000).nullish(),
  expiresInHours: z.number().positive({ message: 'must be greater than 0' }).max(MAX_EXPIRES_IN_HOURS).nullish(),
  storeId: optionalText(255),
  escrowExpiresAt: isoDateTime.nullish(),
})
export type CreatePaymentBody = z.infer<typeof createPaymentBody>

export const listPaymentsQuery = z.strictObject({
  ...pageQuery,
  status: textEnum(PAYMENT_STATUSES).optional(),
  startDate: isoDateOrDateTime.optional(),
  endDate: isoDateOrDateTime.optional(),
  storeId: z.string().min(1).max(255).optional(),
})
export type ListPaymentsQuery = z.infer<typeof listPaymentsQuery>

// Refunds (spec 4.6)

export const createRefundBody = z
  .strictObject({
    /** Smallest units of the payment's pricing currency; default: everything still refundable. */
    amount: pricingAmount.nullish(),
    description: optionalText(1000),
    metadata: metadata.nullish(),
  })
  .optional()
export type CreateRefundBody = z.infer<typeof createRefundBody>

export const listRefundsQuery = z.strictObject({ ...pageQuery })

// Cross-chain payments (spec 4.5)

const chainText = z.string({ message: 'must be a string' }).trim().min(1, { message: 'must not be empty' }).max(128)

export const quoteBody = z.strictObject({
  originChain: chainText,
  originToken: chainText,
  /** An address on the origin chain, where the bridge would return the funds. */
  refundAddress: chainText,
})
export type QuoteBody = z.infer<typeof quoteBody>

export const depositBody = z
  .strictObject({
    /** What the customer sent, in the origin token, decimal text (default: what the order still lacks). */
    amountIn: z.string().trim().min(1).max(80).optional(),
    /** The simulated bridge fails the order: its deposits go back to the refund address. */
    fail: z.boolean({ message: 'must be true or false' }).optional(),
  })
  .optional()
export type DepositBody = z.infer<typeof depositBody>

// Invoices (spec 4.7–4.11)

/** Letters, digits, space, - _ . / and the {year} token: nothing else. */
const INVOICE_PREFIX_PATTERN = /^(?:[\p{L}\p{N} _./-]|\{year\})*$/u

export function isValidInvoicePrefix(prefix: string): boolean {
  return prefix.length <= MAX_INVOICE_PREFIX_LENGTH && INVOICE_PREFIX_PATTERN.test(prefix)
}

const requiredText = (max: number) => z.string().trim().min(1, { message: 'must not be empty' }).max(max)

const address = z.strictObject({
  line1: requiredText(200),
  postal_code: requiredText(32),
  city: requiredText(100),
  country: requiredText(64),
})

/** A customer given inline when creating an invoice; it is stored and gets an id. */
export const inlineCustomer = z.strictObject({
  /** Default business. */
  customer_type: z
    .enum(CUSTOMER_TYPES, { message: 'must be business or individual' })
    .nullish()
    .transform((v) => v ?? 'business'),
  name: optionalText(200),
  company_name: optionalText(200),
  email: z.email({ message: 'must be a valid email address' }).max(254),
  vat_number: optionalText(64),
  address: address.nullish(),
})

const lineItem = z.strictObject({
  description: requiredText(500),
  quantity: z
    .number()
    .positive({ message: 'must be greater than 0' })
    .max(MAX_QUANTITY)
    .refine((q) => numberToScaled(q, QUANTITY_SCALE) !== undefined, { message: `may have at most ${QUANTITY_SCALE} decimal places` }),
  unit_price: z.number().int({ message: 'must be an integer in the smallest unit of the currency' }).min(0).max(MAX_AMOUNT_VALUE),
})

/** Exactly one of customer_id (a stored customer) and customer (a new one). */
export const createInvoiceBody = z
  .strictObject({
    currency: currencyCode,
    line_items: z.array(lineItem).min(1, { message: 'must have at least 1 item' }).max(MAX_LINE_ITEMS),
    /** 0–100, at most 4 decimal places; default 0. */
    tax_percentage: z
      .number()
      .min(0, { message: 'must be between 0 and 100' })
      .max(100, { message: 'must be between 0 and 100' })
      .refine((t) => numberToScaled(t, TAX_SCALE) !== undefined, { message: `may have at most ${TAX_SCALE} decimal places` })
      .nullish()
      .transform((v) => v ?? 0),
    customer_id: z
      .string()
      .min(1)
      .max(64)
      .nullish()
      .transform((v) => v ?? undefined),
    customer: inlineCustomer.nullish().transform((v) => v ?? undefined),
    /** ISO 8601 date-time with an offset, in the future. */
    due_at: isoDateTime.nullish().transform((v) => v ?? undefined),
    notes: optionalText(2000),
    /** Default: the next number of the merchant's sequence. */
    invoice_number: z
      .string()
      .trim()
      .min(1, { message: 'must not be empty' })
      .max(MAX_INVOICE_NUMBER_LENGTH)
      .nullish()
      .transform((v) => v ?? undefined),
  })
  .superRefine((body, context) => {
    if ((body.customer_id === undefined) === (body.customer === undefined)) {
      context.addIssue({ code: 'custom', path: ['customer'], message: 'give exactly one of customer_id and customer' })
    }
  })
export type CreateInvoiceBody = z.infer<typeof createInvoiceBody>

export const listInvoicesQuery = z.strictObject({
  ...pageQuery,
  status: z.enum(INVOICE_STATUSES, { message: `must be one of ${INVOICE_STATUSES.join(', ')}` }).optional(),
  // Numbers are unique per merchant: this finds the one invoice a number names (the CLI's `invoices get INV-0001`).
  invoice_number: z.string().min(1, { message: 'must not be empty' }).max(MAX_INVOICE_NUMBER_LENGTH).optional(),
})

export const invoiceSettingsBody = z
  .strictObject({
    invoice_prefix: z
      .string()
      .max(MAX_INVOICE_PREFIX_LENGTH, { message: `must be at most ${MAX_INVOICE_PREFIX_LENGTH} characters` })
      .refine(isValidInvoicePrefix, { message: 'may hold only letters, digits, space, - _ . / and the token {year}' })
      .optional(),
    /** Only forward: at least the current next number. */
    next_number: z
      .number()
      .int({ message: 'must be a whole number' })
      .min(1, { message: 'must be at least 1' })
      .max(1_000_000_000)
      .optional(),
  })
  .optional()
export type InvoiceSettingsBody = z.infer<typeof invoiceSettingsBody>

// Sandbox extensions

/** POST /sandbox/merchants (admin token). */
export const createMerchantBody = z.strictObject({
  name: z.string().trim().min(1, { message: 'must not be empty' }).max(200),
  settlement_mode: z.enum(SETTLEMENT_MODES, { message: 'must be direct or escrow' }),
  /** Default platform fee of the merchant's escrow orders, basis points, 0–10000 (escrow merchants only; default 0). */
  escrow_fee_bps: z.number().int({ message: 'must be a whole number of basis points' }).min(0).max(10_000).optional(),
})

/** POST /sandbox/tenants (admin token): a merchant for one job, with its own clock (frozen at frozenAt when given). */
export const createTenantBody = z.strictObject({
  name: z.string().trim().min(1, { message: 'must not be empty' }).max(100).optional(),
  settlementMode: z.enum(SETTLEMENT_MODES, { message: 'must be direct or escrow' }).optional(),
  /** Default platform fee of its escrow orders, basis points, 0–10000 (escrow tenants only; default 0). */
  escrowFeeBps: z.number().int({ message: 'must be a whole number of basis points' }).min(0).max(10_000).optional(),
  frozenAt: isoDateTime.optional(),
})

/** Failing a payment or an escrow order's funding: an optional reason for the history. */
export const failBody = z.strictObject({ reason: optionalText(200) }).optional()
export type FailBody = z.infer<typeof failBody>

/** Stellar's limit for a text memo. */
const MAX_TEXT_MEMO_BYTES = 28

/** A sandbox customer wallet pays over the ledger (POST /sandbox/payments/{id}/pay). */
export const payBody = z
  .strictObject({
    /** Smallest units of the pricing currency; default: what remains. */
    amount: pricingAmount.optional(),
    // Or what to pay, the sandbox deciding how much (docs/payment-lifecycle.md), so that every
    // client of the simulation (CLI, checkout buttons, dashboard, scenarios) pays the same.
    underpay: z.boolean().describe('Pay half of what remains, rounded down, leaving the payment underpaid').optional(),
    overpay: z.boolean().describe('Pay what remains plus a tenth of the amount (rounded half up, at least one unit)').optional(),
    /** The paying customer wallet (G…); default: the one holding the most USDC. */
    from: z.string().refine(isAccountAddress, { message: 'must be a Stellar account address (G…)' }).optional(),
    /** Make the payment's settlement fail when it comes. */
    failSettlement: z.boolean().optional(),
    // A customer's mistakes: the money lands on the destination, but the memo matcher credits
    // nothing (another memo names no payment, or another payment; XLM is not the priced asset).
    memo: z
      .string()
      .min(1, { message: 'must not be empty' })
      .refine((memo) => Buffer.byteLength(memo, 'utf8') <= MAX_TEXT_MEMO_BYTES, { message: `must be at most ${MAX_TEXT_MEMO_BYTES} bytes` })
      .optional(),
    asset: z.enum(LEDGER_ASSET_CODES, { message: `must be ${LEDGER_ASSET_CODES.join(' or ')}` }).optional(),
  })
  .refine((body) => !body.failSettlement || ((body.asset ?? 'USDC') === 'USDC' && body.memo === undefined), {
    message: "applies only to a payment with the payment's own memo, in USDC",
    path: ['failSettlement'],
  })
  .superRefine((body, context) => {
    const given = (['amount', 'underpay', 'overpay'] as const).filter((field) =>
      field === 'amount' ? body.amount !== undefined : body[field],
    )
    if (given.length > 1) {
      context.addIssue({
        code: 'custom',
        path: [given[1]!],
        message: `cannot be sent with ${given[0]}: send at most one of amount, underpay, overpay`,
      })
    }
    // Both are measured against what the payment's own memo pays in USDC.
    const intent = given.find((field) => field !== 'amount')
    if (intent !== undefined && ((body.asset ?? 'USDC') !== 'USDC' || body.memo !== undefined)) {
      context.addIssue({ code: 'custom', path: [intent], message: "applies only to a payment with the payment's own memo, in USDC" })
    }
  })
  .optional()
export type PayBody = z.infer<typeof payBody>

// Customer wallets (POST /sandbox/wallets): amounts are stroops, 10^-7 of a unit, as on Stellar.

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

// Business time (admin token)

/** Ten years: more than any expiry or due date needs. */
const MAX_ADVANCE_SECONDS = 10 * 366 * 24 * 3600

export const advanceBody = z.strictObject({
  seconds: z
    .number()
    .int({ message: 'must be a whole number of seconds' })
    .positive({ message: 'must be greater than 0' })
    .max(MAX_ADVANCE_SECONDS, { message: `must be at most ${MAX_ADVANCE_SECONDS} (ten years)` }),
})

export const freezeBody = z.strictObject({ at: isoDateTime.optional() })

// Snapshots (admin token)

export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
export const SNAPSHOT_NAME_RULE = '1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit'

export const snapshotName = z.string().regex(SNAPSHOT_NAME, { message: `must be ${SNAPSHOT_NAME_RULE}` })
export const saveSnapshotBody = z.strictObject({
  name: snapshotName,
  /** Overwrite a snapshot of that name (default: 409). */
  replace: z.boolean().optional(),
})

// The request log

/** Records the request log keeps for its list endpoints; older ones are dropped. */
export const REQUEST_LOG_CAPACITY = 1_000

const requestFilterFields = {
  status: z
    .string()
    .regex(/^[1-5](xx|\d\d)$/, { message: 'must be a status class such as 4xx, or a status such as 404' })
    .optional(),
  path: z.string().max(256).regex(/^\//, { message: 'must start with /' }).optional(),
}

export const requestLogStreamQuery = z.strictObject(requestFilterFields)
export const requestLogListQuery = z.strictObject({ ...requestFilterFields, limit: queryInteger(1, REQUEST_LOG_CAPACITY).optional() })

// The webhook delivery log (spec 4.15) and the payment event stream

export const webhookLogQuery = z.strictObject({
  ...pageQuery,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { message: `must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` }).optional(),
  checkout_id: z.string().min(1).max(64).optional(),
})

export const eventsQuery = z.strictObject({ after: queryInteger(0, Number.MAX_SAFE_INTEGER).optional() })

// The simulated ledger (admin token)

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

/** The request bodies by the component name the OpenAPI document gives them: an endpoint names its body so. */
export const REQUEST_BODIES = {
  CreatePaymentRequest: createPaymentBody,
  CreateRefundRequest: createRefundBody,
  CreateInvoiceRequest: createInvoiceBody,
  InvoiceSettingsRequest: invoiceSettingsBody,
  CrossChainQuoteRequest: quoteBody,
  DepositRequest: depositBody,
  SandboxPayRequest: payBody,
  SandboxFailRequest: failBody,
  CreateMerchantRequest: createMerchantBody,
  CreateTenantRequest: createTenantBody,
  AdvanceClockRequest: advanceBody,
  FreezeClockRequest: freezeBody,
  CreateWalletRequest: createWalletBody,
  SaveSnapshotRequest: saveSnapshotBody,
  NoBody: noBody,
} satisfies Record<string, z.ZodType>

/** The list queries by name: an endpoint names its query so. */
export const QUERIES = {
  ListPaymentsQuery: listPaymentsQuery,
  ListRefundsQuery: listRefundsQuery,
  ListInvoicesQuery: listInvoicesQuery,
  WebhookLogQuery: webhookLogQuery,
  EventsQuery: eventsQuery,
  RequestLogListQuery: requestLogListQuery,
  RequestLogStreamQuery: requestLogStreamQuery,
  LedgerAccountsQuery: ledgerAccountsQuery,
  LedgerTransactionsQuery: ledgerTransactionsQuery,
} satisfies Record<string, z.ZodObject>
