// GET /merchant/fee-tier (spec 4.12).
import type { SandboxContext } from '../context.js'
import { currentMerchant } from '../http/auth.js'
import { merchantFeeTier, toFeeTierResource } from './fee-tier-service.js'
import type { Handlers } from '../http/declared-routes.js'
import { merchantNowOf } from '../merchants/merchant-time.js'

export function feeTierHandlers(ctx: SandboxContext) {
  return {
    getFeeTier: async (req, res) => {
      const merchant = currentMerchant(req)
      const tier = await merchantFeeTier(ctx.db, merchant.id, merchantNowOf(ctx, merchant))
      res.json(toFeeTierResource(tier))
    },
  } satisfies Partial<Handlers>
}
