// Request schemas of the refund endpoints.
import { z } from 'zod'
import { MAX_AMOUNT_VALUE } from '../payments/payment-schemas.js'
import { metadata, optionalText, pageQuery } from '../validation/common.js'

export const createRefundBody = z
  .strictObject({
    /** Smallest units of the payment's pricing currency; default: everything still refundable. */
    amount: z
      .number()
      .int({ message: 'must be an integer in the smallest unit of the pricing currency' })
      .positive({ message: 'must be greater than 0' })
      .max(MAX_AMOUNT_VALUE)
      .nullish(),
    description: optionalText(1000),
    metadata: metadata.nullish(),
  })
  .optional()
export type CreateRefundBody = z.infer<typeof createRefundBody>

export const listRefundsQuery = z.strictObject({ ...pageQuery })
