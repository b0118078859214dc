// Request schemas of the cross-chain endpoints.
import { z } from 'zod'

const text = z.string({ message: 'must be a string' }).trim().min(1, { message: 'must not be empty' }).max(128)

export const quoteBody = z.strictObject({
  originChain: text,
  originToken: text,
  refundAddress: text,
})
export type QuoteBody = z.infer<typeof quoteBody>

export const depositBody = z
  .strictObject({
    amountIn: z.string().trim().min(1).max(80).optional(),
    // The simulated bridge fails this order: its deposits go back to the refund address.
    fail: z.boolean({ message: 'must be true or false' }).optional(),
  })
  .optional()
export type DepositBody = z.infer<typeof depositBody>
