// The bodies that move a business clock, which the sandbox's clock (contract/sandbox-admin.ts) and
// each merchant's clock (contract/tenants.ts) both take.
import { z } from 'zod'
import { isoDateTime } from './validation.js'

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

/** By the component name the OpenAPI document gives them. */
export const clockBodies = { AdvanceClockRequest: advanceBody, FreezeClockRequest: freezeBody }
