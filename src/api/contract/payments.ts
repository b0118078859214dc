// Payments (spec 4.1–4.4) and refunding one (spec 4.6).
import { z } from 'zod'
import { LOCALES, PAYMENT_STATUSES } from '../enumerations.js'
import { MAX_AMOUNT_VALUE } from '../../money.js'
import { RESPONSE_SCHEMAS } from '../resources.js'
import {
  currencyCode,
  httpUrl,
  isoDateOrDateTime,
  isoDateTime,
  metadata,
  optionalText,
  pageQuery,
  pricingAmount,
  textEnum,
} from '../validation.js'
import { endpoint, PAYMENT_ID } from './entry.js'

export const MAX_EXPIRES_IN_HOURS = 24 * 365

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

export const createRefundBody = z
  .strictObject({
    /** Smallest units of the payment's pricing currency; default: everything still refundable. */
    amount: pricingAmount.nullish(),
    description: optionalText(1000),
    metadata: metadata.nullish(),
  })
  .optional()
export type CreateRefundBody = z.infer<typeof createRefundBody>

export const payments = {
  create: endpoint({
    operationId: 'createPayment',
    method: 'post',
    path: '/payments',
    security: 'digest',
    authReason: 'Unauthorized',
    idempotent: true,
    summary: 'Create a payment',
    tag: 'Payments',
    errors: [409, 422],
    body: createPaymentBody,
    response: RESPONSE_SCHEMAS.Payment,
  }),
  list: endpoint({
    operationId: 'listPayments',
    method: 'get',
    path: '/payments',
    security: 'digest',
    authReason: 'Unauthorized',
    summary: 'List payments, newest first',
    tag: 'Payments',
    errors: [],
    query: listPaymentsQuery,
    response: RESPONSE_SCHEMAS.PaymentPage,
  }),
  get: endpoint({
    operationId: 'getPayment',
    method: 'get',
    path: '/payments/:id',
    security: 'digest',
    authReason: 'Unauthorized',
    summary: 'Get a payment',
    tag: 'Payments',
    pathParams: PAYMENT_ID,
    errors: [404],
    response: RESPONSE_SCHEMAS.Payment,
  }),
  /** Takes what an underpaid payment received as payment in full: it becomes paid. */
  acceptUnderpayment: endpoint({
    operationId: 'acceptUnderpayment',
    method: 'post',
    path: '/payments/:id/accept-underpayment',
    security: 'digest',
    authReason: 'Unauthorized',
    idempotent: true,
    summary: 'Accept an underpaid payment as paid',
    tag: 'Payments',
    pathParams: PAYMENT_ID,
    errors: [404, 409, 422],
    response: RESPONSE_SCHEMAS.Payment,
  }),
  /** Pays the customer back over the ledger (default: everything still refundable). */
  refund: endpoint({
    operationId: 'refundPayment',
    method: 'post',
    path: '/payments/:id/refunds',
    security: 'digest',
    authReason: 'Unauthorized',
    idempotent: true,
    summary: 'Refund a payment (default: everything still refundable)',
    tag: 'Refunds',
    pathParams: PAYMENT_ID,
    errors: [404, 409, 422],
    body: createRefundBody,
    response: RESPONSE_SCHEMAS.Refund,
  }),
}

export const listRefundsQuery = z.strictObject({ ...pageQuery })

export const refunds = {
  list: endpoint({
    operationId: 'listRefunds',
    method: 'get',
    path: '/refunds',
    security: 'digest',
    authReason: 'Unauthorized',
    summary: 'List refunds, newest first',
    tag: 'Refunds',
    errors: [],
    query: listRefundsQuery,
    response: RESPONSE_SCHEMAS.RefundPage,
  }),
  get: endpoint({
    operationId: 'getRefund',
    method: 'get',
    path: '/refunds/:id',
    security: 'digest',
    authReason: 'Unauthorized',
    summary: 'Get a refund',
    tag: 'Refunds',
    pathParams: { id: 'Refund id (rf_…)' },
    errors: [404],
    response: RESPONSE_SCHEMAS.Refund,
  }),
}

/** This file's bodies by the component name the OpenAPI document gives them. */
export const paymentBodies = { CreatePaymentRequest: createPaymentBody, CreateRefundRequest: createRefundBody }
