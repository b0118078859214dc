// Sandbox-wide merchant administration (behind the admin token, see app/app.ts).
import type { SandboxContext } from '../context.js'
import { notFound } from '../errors.js'
import { findMerchantById, listMerchants } from '../merchants/merchant-repository.js'
import { createMerchant, rotateSecret, toMerchantCredentials } from '../merchants/merchant-service.js'
import { noBody } from '../../src/api/validation.js'
import type { MerchantRow } from '../db/schema.js'
import { runTransaction } from '../db/database.js'
import { createMerchantBody } from '../../src/api/contract/sandbox-admin.js'
import type { Handlers } from '../openapi/handlers.js'

const adminView = (merchant: MerchantRow) => ({
  ...toMerchantCredentials(merchant),
  account: merchant.account_id,
  escrow_fee_bps: merchant.escrow_fee_bps,
})

export function adminHandlers(ctx: SandboxContext) {
  return {
    listSandboxMerchants: async (req, res) => {
      const merchants = await listMerchants(ctx.db)
      res.json({ items: merchants.map(adminView) })
    },
    // A new merchant with fresh keys and a funded settlement account on the ledger.
    createSandboxMerchant: async (req, res) => {
      const body = createMerchantBody.parse(req.body)
      const merchant = await runTransaction(ctx.db, (trx) =>
        createMerchant(
          trx,
          ctx.random,
          { name: body.name, settlementMode: body.settlement_mode, escrowFeeBps: body.escrow_fee_bps },
          ctx.clock.now(),
        ),
      )
      res.status(201).json(adminView(merchant))
    },
    // New deliveries and resends are signed with the new secret from the moment this answers.
    rotateMerchantSecret: async (req, res) => {
      noBody.parse(req.body)
      const merchant = await runTransaction(ctx.db, async (trx) => {
        const found = await findMerchantById(trx, req.params.id)
        if (!found) throw notFound(`No merchant ${req.params.id.slice(0, 64)}`)
        return rotateSecret(trx, ctx.random, found)
      })
      res.json(adminView(merchant))
    },
  } satisfies Partial<Handlers>
}
