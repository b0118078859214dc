// Request schemas of the payments endpoints (spec 4.1, 4.2). Unknown fields are refused so that
// a misspelt field is an error rather than silently ignored.
import { z } from 'zod'
import { LOCALES, PAYMENT_STATUSES, type PaymentStatus } from '../../src/api/enumerations.js'
import { MAX_AMOUNT_VALUE } from '../../src/money.js'
import { SUPPORTED_CURRENCY_CODES } from '../currencies/currency-table.js'
import { httpUrl, isoDateOrDateTime, isoDateTime, metadata, optionalText, pageQuery } from '../validation/common.js'

export { MAX_AMOUNT_VALUE }
export const MAX_EXPIRES_IN_HOURS = 24 * 365

/** An amount in the smallest unit of a payment's pricing currency, as the simulations and refunds take it. */
export const pricingAmount = z
  .number()
  .int({ message: 'must be an integer in the smallest unit of the pricing currency' })
  .positive({ message: 'must be greater than 0' })
  .max(MAX_AMOUNT_VALUE)

export { LOCALES, PAYMENT_STATUSES, type PaymentStatus }

export const createPaymentBody = z.strictObject({
  amount: z.strictObject({
    currency: z.enum(SUPPORTED_CURRENCY_CODES as [string, ...string[]], {
      message: `must be one of ${SUPPORTED_CURRENCY_CODES.join(', ')}`,
    }),
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
