// Sandbox-wide merchant administration (behind the admin token, see http/app.ts).
import { Router } from 'express'
import type { SandboxContext } from '../context.js'
import { notFound } from '../http/errors.js'
import { findMerchantById, listMerchants } from '../merchants/merchant-repository.js'
import { rotateSecret, toMerchantCredentials } from '../merchants/merchant-service.js'
import { noBody } from '../validation/common.js'

export function adminRoutes(ctx: SandboxContext): Router {
  const router = Router()
  router.get('/sandbox/merchants', async (_req, res) => {
    const merchants = await listMerchants(ctx.db)
    res.json({ items: merchants.map((merchant) => ({ ...toMerchantCredentials(merchant), account: merchant.account_id })) })
  })

  // New deliveries and resends are signed with the new secret from the moment this answers.
  router.post('/sandbox/merchants/:id/rotate-secret', async (req, res) => {
    noBody.parse(req.body)
    const merchant = await ctx.db.transaction().execute(async (trx) => {
      const found = await findMerchantById(trx, req.params.id)
      if (!found) throw notFound(`No merchant ${req.params.id.slice(0, 64)}`)
      return rotateSecret(trx, ctx.random, found)
    })
    res.json({ ...toMerchantCredentials(merchant), account: merchant.account_id })
  })
  return router
}
