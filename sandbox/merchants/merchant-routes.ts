// GET /merchant: who the authenticated merchant is (the CLI needs the id for the webhook-log
// paths, which name the merchant). Never the secret.
import { currentMerchant } from '../http/auth.js'
import type { Handlers } from '../openapi/handlers.js'

export function merchantHandlers() {
  return {
    getMerchant: (req, res) => {
      const merchant = currentMerchant(req)
      res.json({
        id: merchant.id,
        name: merchant.name,
        settlement_mode: merchant.settlement_mode,
        account: merchant.account_id,
        webhooks_paused: merchant.webhooks_paused === 1,
      })
    },
  } satisfies Partial<Handlers>
}
