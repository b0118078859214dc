// GET /merchant: who the authenticated merchant is (the CLI needs the id for the webhook-log
// paths, which name the merchant). Never the secret.
import { Router } from 'express'
import { currentMerchant } from '../http/auth.js'

export function merchantRoutes(): Router {
  return Router().get('/merchant', (req, res) => {
    const merchant = currentMerchant(req)
    res.json({
      id: merchant.id,
      name: merchant.name,
      settlement_mode: merchant.settlement_mode,
      account: merchant.account_id,
      webhooks_paused: merchant.webhooks_paused === 1,
    })
  })
}
