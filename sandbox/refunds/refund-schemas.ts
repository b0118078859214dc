// Request schemas of the refund endpoints.
import { z } from 'zod'
import { pricingAmount } from '../payments/payment-schemas.js'
import { metadata, optionalText, pageQuery } from '../validation/common.js'

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
