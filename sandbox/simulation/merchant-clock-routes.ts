// /sandbox/merchants/{id}/clock: one merchant's business time, read and moved apart from the
// sandbox-wide clock. The admin token may move any merchant's; a merchant's own key only its own,
// and only where the sandbox allows it (SandboxLimits.merchantOwnClock, docs/clocks.md).
import type { Request } from 'express'
import { advanceBody, freezeBody } from '../../src/api/clock-bodies.js'
import { noBody } from '../../src/api/validation.js'
import type { SandboxContext } from '../context.js'
import { ApiError } from '../errors.js'
import type { Handlers } from '../openapi/handlers.js'
import { asClockChange } from './clock-service.js'
import { advanceMerchantClock, freezeMerchantClock, unfreezeMerchantClock, viewMerchantClock } from './merchant-clock-service.js'

const forbidden = (message: string) => new ApiError(403, 'Forbidden', message)

export function merchantClockHandlers(ctx: SandboxContext) {
  /** The merchant whose clock the request may read or move (admin: any; a merchant key: its own, if allowed). */
  const allowedMerchant = (req: Request<{ id: string }>): string => {
    const merchant = req.merchant
    if (merchant === undefined) return req.params.id
    if (merchant.id !== req.params.id) throw forbidden("A merchant key may only read or move its own merchant's clock")
    if (!ctx.tenants.merchantOwnClock)
      throw forbidden('This sandbox does not let merchant keys move their clocks: use the admin token (docs/clocks.md)')
    return merchant.id
  }
  return {
    getMerchantClock: async (req, res) => {
      res.json(await viewMerchantClock(ctx, allowedMerchant(req)))
    },
    advanceMerchantClock: async (req, res) => {
      const id = allowedMerchant(req)
      const { seconds } = advanceBody.parse(req.body)
      const processed = await advanceMerchantClock(ctx, id, seconds * 1000)
      res.json({ ...(await viewMerchantClock(ctx, id)), processed })
    },
    freezeMerchantClock: async (req, res) => {
      const id = allowedMerchant(req)
      // No body, or an object: a JSON null is refused like any other wrong type.
      const { at } = freezeBody.optional().parse(req.body) ?? {}
      await asClockChange(() => freezeMerchantClock(ctx, id, at))
      res.json(await viewMerchantClock(ctx, id))
    },
    unfreezeMerchantClock: async (req, res) => {
      const id = allowedMerchant(req)
      noBody.parse(req.body)
      await unfreezeMerchantClock(ctx, id)
      res.json(await viewMerchantClock(ctx, id))
    },
  } satisfies Partial<Handlers>
}
