// Sandbox-wide merchant administration (behind the admin token, see http/app.ts).
import { Router } from 'express'
import type { SandboxContext } from '../context.js'
import { listMerchants } from '../merchants/merchant-repository.js'
import { toMerchantCredentials } from '../merchants/merchant-service.js'

export function adminRoutes(ctx: SandboxContext): Router {
  const router = Router()
  router.get('/sandbox/merchants', async (_req, res) => {
    const merchants = await listMerchants(ctx.db)
    res.json({ items: merchants.map((merchant) => ({ ...toMerchantCredentials(merchant), account: merchant.account_id })) })
  })
  return router
}
