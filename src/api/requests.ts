// The request bodies and list queries of the API: the sandbox validates with these schemas, the
// OpenAPI document describes them, and the client's request types are their z.input (what a
// client sends, before transforms). Unknown fields are refused, so a misspelt field is an error
// rather than silently ignored.
import { z } from 'zod'
import { CURRENCY_CODES, CUSTOMER_TYPES, INVOICE_STATUSES, LOCALES, PAYMENT_STATUSES, SETTLEMENT_MODES } from './enumerations.js'
import { QUANTITY_SCALE, TAX_SCALE } from '../invoice-totals.js'
import { MAX_AMOUNT_VALUE, numberToScaled } from '../money.js'
import { httpUrl, isoDateOrDateTime, isoDateTime, metadata, optionalText, pageQuery } from './validation.js'

export const MAX_EXPIRES_IN_HOURS = 24 * 365
export const MAX_LINE_ITEMS = 100
export const MAX_QUANTITY = 1_000_000
export const MAX_INVOICE_NUMBER_LENGTH = 64
export const MAX_INVOICE_PREFIX_LENGTH = 24

// Codes are typed as text: a client passes what its user typed, and the sandbox names the choices.
const currencyCode = z.enum(CURRENCY_CODES as readonly string[] as [string, ...string[]], {
  message: `must be one of ${CURRENCY_CODES.join(', ')}`,
})

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
  status: z.enum(PAYMENT_STATUSES, { message: `must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
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

/** Failing a payment or an escrow order's funding: an optional reason for the history. */
export const failBody = z.strictObject({ reason: optionalText(200) }).optional()
export type FailBody = z.infer<typeof failBody>
