// Request schemas of the invoice endpoints (spec 4.7–4.11). Unknown fields are refused.
import { z } from 'zod'
import { CUSTOMER_TYPES, INVOICE_STATUSES } from '../../src/api/enumerations.js'
import { numberToScaled } from '../../src/money.js'
import { SUPPORTED_CURRENCY_CODES } from '../currencies/currency-table.js'
import { MAX_AMOUNT_VALUE } from '../payments/payment-schemas.js'
import { isoDateTime, optionalText, pageQuery } from '../validation/common.js'
import { MAX_PREFIX_LENGTH, isValidPrefix } from './invoice-numbering.js'
import { QUANTITY_SCALE, TAX_SCALE } from '../../src/invoice-totals.js'

export const MAX_LINE_ITEMS = 100
export const MAX_QUANTITY = 1_000_000
export const MAX_INVOICE_NUMBER_LENGTH = 64

const requiredText = (max: number) => z.string().trim().min(1, { message: 'must not be empty' }).max(max)

const address = z.strictObject({
  line1: requiredText(200),
  postal_code: requiredText(32),
  city: requiredText(100),
  country: requiredText(64),
})

export const inlineCustomer = z.strictObject({
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

export const createInvoiceBody = z
  .strictObject({
    currency: z.enum(SUPPORTED_CURRENCY_CODES as [string, ...string[]], {
      message: `must be one of ${SUPPORTED_CURRENCY_CODES.join(', ')}`,
    }),
    line_items: z.array(lineItem).min(1, { message: 'must have at least 1 item' }).max(MAX_LINE_ITEMS),
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
    due_at: isoDateTime.nullish().transform((v) => v ?? undefined),
    notes: optionalText(2000),
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
      .max(MAX_PREFIX_LENGTH, { message: `must be at most ${MAX_PREFIX_LENGTH} characters` })
      .refine(isValidPrefix, { message: 'may hold only letters, digits, space, - _ . / and the token {year}' })
      .optional(),
    next_number: z
      .number()
      .int({ message: 'must be a whole number' })
      .min(1, { message: 'must be at least 1' })
      .max(1_000_000_000)
      .optional(),
  })
  .optional()
export type InvoiceSettingsBody = z.infer<typeof invoiceSettingsBody>
