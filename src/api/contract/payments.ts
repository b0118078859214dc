// Payments (spec 4.1–4.4) and refunding one (spec 4.6).
import { z } from 'zod'
import { LOCALES, PAYMENT_STATUSES } from '../enumerations.js'
import { MAX_AMOUNT_VALUE } from '../../money.js'
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
import * as examples from '../examples.js'
import { dateTimeText, exampleOf, pageOf, payment, paymentFields, txHash, without } from '../resources.js'
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

/** The refund's copy of its payment leaves out checkout_id, shortUrl, settlement_fee and partner_id (spec 2.4). */
export const refundedPayment = z
  .object(paymentFields)
  .describe('The refunded payment as it is now (spec 2.4)')
  .meta({ example: { ...without(examples.paymentExample, ['checkout_id', 'shortUrl', 'settlement_fee', 'partner_id']), refunded: true } })

const refundExample = {
  refund_id: 'rf_01a20da0b89b7193937ef11dd93f464e',
  amount: { asset_id: examples.USDC, value: 5 },
  status: 'refunded',
  description: 'Damaged item',
  settlement_Id: 'f3443c8b4b005972cef4726114847e0296ba2e7d369795cf4e80005fb963c101',
  metadata: {},
  paymentId: examples.PAYMENT_ID,
  createdAt: '2026-11-24T12:56:06.555Z',
}

export const refund = z
  .object({
    refund_id: z.string().regex(/^rf_[0-9a-f]{32}$/),
    amount: z.object({ asset_id: z.string(), value: z.number().describe('USDC, at most 7 decimal places') }),
    status: z.literal('refunded'),
    description: z.string(),
    settlement_Id: txHash.describe('Ledger transaction that paid the customer back'),
    metadata: z.record(z.string(), z.unknown()),
    paymentId: z.string(),
    createdAt: dateTimeText,
    payment: refundedPayment,
  })
  .describe('A refund (spec 2.4)')
  .meta({ example: { ...refundExample, payment: exampleOf(refundedPayment) } })

export const refundPage = pageOf(refund, true)

export const paymentPage = pageOf(payment, true)

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
    response: payment,
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
    response: paymentPage,
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
    response: payment,
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
    response: payment,
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
    response: refund,
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
    response: refundPage,
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
    response: refund,
  }),
}

/** This file's bodies by the component name the OpenAPI document gives them. */
export const paymentBodies = { CreatePaymentRequest: createPaymentBody, CreateRefundRequest: createRefundBody }

/** The answers declared here, by the component name the OpenAPI document gives them. */
export const paymentAnswers = { RefundedPayment: refundedPayment, Refund: refund, PaymentPage: paymentPage, RefundPage: refundPage }
