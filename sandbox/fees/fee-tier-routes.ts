// GET /merchant/fee-tier (spec 4.12).
import { Router } from 'express'
import type { SandboxContext } from '../context.js'
import { currentMerchant } from '../http/auth.js'
import { merchantFeeTier, toFeeTierResource } from './fee-tier-service.js'

export function feeTierRoutes(ctx: SandboxContext): Router {
  return Router().get('/merchant/fee-tier', async (req, res) => {
    const tier = await merchantFeeTier(ctx.db, currentMerchant(req).id, ctx.clock.now())
    res.json(toFeeTierResource(tier))
  })
}
