// Invoices, each with a linked payment the customer pays it with (spec 4.7–4.11).
import { z } from 'zod'
import { CUSTOMER_TYPES, INVOICE_STATUSES } from '../enumerations.js'
import { MAX_LINE_ITEMS, MAX_QUANTITY } from '../limits.js'
import { QUANTITY_SCALE, TAX_SCALE } from '../../invoice-totals.js'
import { MAX_AMOUNT_VALUE, numberToScaled } from '../../money.js'
import { currencyCode, isoDateTime, optionalText, pageQuery } from '../validation.js'
import { dateTimeText, pageOf } from '../resources.js'
import { endpoint } from './entry.js'

const INVOICE_ID = { id: 'Invoice id' }

export const MAX_INVOICE_NUMBER_LENGTH = 64

export const MAX_INVOICE_PREFIX_LENGTH = 24

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
const inlineCustomer = z.strictObject({
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

export const postalAddress = z.object({ line1: z.string(), postal_code: z.string(), city: z.string(), country: z.string() })

const customerExample = {
  id: '38121c4f-af7d-4267-941e-c3f9c98d9b29',
  customer_type: 'business',
  name: 'Ada Lovelace',
  company_name: 'Analytical Engines Ltd',
  email: 'ada@example.com',
  vat_number: 'GB123456789',
  address: { line1: '12 St James Square', postal_code: 'SW1Y 4JH', city: 'London', country: 'GB' },
}

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
  .meta({ example: customerExample })

const invoiceExample = {
  id: '62133702-cdac-425e-9b26-5425b1aeef2d',
  invoice_number: 'INV-0001',
  status: 'sent',
  currency: 'EUR',
  line_items: [{ description: 'Consulting', quantity: 2, unit_price: 15000 }],
  subtotal: 30000,
  tax_percentage: 21,
  tax_total: 6300,
  total: 36300,
  issued_at: '2026-11-24T12:56:06.589Z',
  due_at: null,
  payment_id: 'pt_01a20da0b8c0739691121515f6797a64',
  notes: '',
  customer: customerExample,
  createdAt: '2026-11-24T12:56:06.589Z',
  updatedAt: '2026-11-24T12:56:06.589Z',
}

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
    issued_at: dateTimeText,
    due_at: dateTimeText.nullable(),
    payment_id: z.string(),
    notes: z.string(),
    customer,
    createdAt: dateTimeText,
    updatedAt: dateTimeText,
  })
  .describe('An invoice with its customer (spec 2.2)')
  .meta({ example: invoiceExample })

export const invoicePage = pageOf(invoice, false)

const invoiceSettingsExample = { invoice_prefix: 'INV-', next_number: 2, preview: 'INV-0002' }

export const invoiceSettings = z
  .object({
    invoice_prefix: z.string(),
    next_number: z.number().int(),
    preview: z.string().describe('The number the next invoice would get now'),
  })
  .meta({ example: invoiceSettingsExample })

export const invoices = {
  create: endpoint({
    operationId: 'createInvoice',
    method: 'post',
    path: '/invoices',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Create an invoice and its payment',
    tag: 'Invoices',
    description: 'Exactly one of customer_id and customer.',
    errors: [404, 409],
    body: createInvoiceBody,
    response: invoice,
  }),
  /** Newest first. */
  list: endpoint({
    operationId: 'listInvoices',
    method: 'get',
    path: '/invoices',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'List invoices, newest first',
    tag: 'Invoices',
    errors: [],
    query: listInvoicesQuery,
    response: invoicePage,
  }),
  /** The numbering prefix, the next number and a preview of the next invoice number. */
  settings: endpoint({
    operationId: 'getInvoiceSettings',
    method: 'get',
    path: '/invoices/settings',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Invoice numbering',
    tag: 'Invoices',
    errors: [],
    response: invoiceSettings,
  }),
  updateSettings: endpoint({
    operationId: 'updateInvoiceSettings',
    method: 'post',
    path: '/invoices/settings',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Change invoice numbering',
    tag: 'Invoices',
    errors: [],
    body: invoiceSettingsBody,
    response: invoiceSettings,
  }),
  get: endpoint({
    operationId: 'getInvoice',
    method: 'get',
    path: '/invoices/:id',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Get an invoice',
    tag: 'Invoices',
    pathParams: INVOICE_ID,
    errors: [404],
    response: invoice,
  }),
  /** Voids an unpaid invoice and expires its payment link; a paid one needs a refund instead (409). */
  cancel: endpoint({
    operationId: 'cancelInvoice',
    method: 'post',
    path: '/invoices/:id/cancel',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Void an unpaid invoice',
    tag: 'Invoices',
    pathParams: INVOICE_ID,
    errors: [404, 409],
    response: invoice,
    answer: 'The voided invoice',
  }),
}

/** This file's bodies by the component name the OpenAPI document gives them. */
export const invoiceBodies = { CreateInvoiceRequest: createInvoiceBody, InvoiceSettingsRequest: invoiceSettingsBody }

/** The answers declared here, by the component name the OpenAPI document gives them. */
export const invoiceAnswers = { Invoice: invoice, Customer: customer, InvoicePage: invoicePage, InvoiceSettings: invoiceSettings }
