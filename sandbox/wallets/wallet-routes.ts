// POST /sandbox/wallets (admin token): a new funded customer wallet, with its secret.
import { USDC_SCALE, formatDecimal } from '../../src/money.js'
import type { SandboxContext } from '../context.js'
import { HORIZON_PATH } from '../horizon/horizon-requests.js'
import { refusedByLedgerAs } from '../ledger/ledger-refusals.js'
import { createWalletBody } from '../../src/api/contract/sandbox-admin.js'
import { createWallet } from './wallet-service.js'
import { runTransaction } from '../db/database.js'
import type { Handlers } from '../openapi/handlers.js'

export function walletHandlers(ctx: SandboxContext) {
  return {
    createWallet: async (req, res) => {
      const body = createWalletBody.parse(req.body)
      const wallet = await refusedByLedgerAs(400, 'the wallet funding', () =>
        runTransaction(ctx.db, (trx) => createWallet(ctx, trx, body, ctx.clock.now())),
      )
      res.status(201).json({
        publicKey: wallet.publicKey,
        secret: wallet.secret,
        balances: { USDC: formatDecimal(wallet.usdc, USDC_SCALE), XLM: formatDecimal(wallet.xlm, USDC_SCALE) },
        fundingTxId: wallet.fundingTxId,
        usdcTrustline: wallet.usdcTrustline && { limit: formatDecimal(wallet.usdcTrustline.limit, USDC_SCALE) },
        // What a Stellar SDK script needs besides the keys.
        horizonUrl: `${ctx.publicUrl}${HORIZON_PATH}`,
        networkPassphrase: ctx.ledger.networkPassphrase,
      })
    },
  } satisfies Partial<Handlers>
}
