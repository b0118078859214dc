// The merchant account's balances (spec 2.7, 4.14): GET /accounts/balances/{asset_id} for one
// asset, GET /accounts/balances for all. Balances are decimal text with 7 places, as on Stellar.
import { USDC_SCALE, formatDecimal } from '../../src/money.js'
import type { SandboxContext } from '../context.js'
import { currentMerchant } from '../http/auth.js'
import { badRequest } from '../errors.js'
import { USDC_ASSET_CODE } from '../ledger/ledger-accounts.js'
import type { AccountBalances } from '../ledger/ledger-types.js'
import type { Handlers } from '../openapi/handlers.js'

type AssetKey = keyof AccountBalances

/** What an asset_id names: USDC, USDC:<the sandbox issuer>, native or XLM; anything else is unsupported. */
function assetOf(assetId: string, usdcIssuer: string): AssetKey | undefined {
  if (assetId === USDC_ASSET_CODE || assetId === `${USDC_ASSET_CODE}:${usdcIssuer}`) return 'usdc'
  if (assetId === 'native' || assetId === 'XLM') return 'xlm'
  return undefined
}

export function balanceHandlers(ctx: SandboxContext) {
  const balancesOf = async (account: string): Promise<AccountBalances> => {
    const balances = await ctx.ledger.balances(ctx.db, account)
    if (!balances) throw new Error(`The merchant account ${account} is not on the ledger`)
    return balances
  }
  return {
    listBalances: async (req, res) => {
      const merchant = currentMerchant(req)
      const balances = await balancesOf(merchant.account_id)
      res.json({
        account: merchant.account_id,
        items: [
          {
            asset_id: `${USDC_ASSET_CODE}:${ctx.identity.usdcIssuer}`,
            asset_code: USDC_ASSET_CODE,
            balance: formatDecimal(balances.usdc, USDC_SCALE),
          },
          { asset_id: 'native', asset_code: 'XLM', balance: formatDecimal(balances.xlm, USDC_SCALE) },
        ],
      })
    },
    getBalance: async (req, res) => {
      const merchant = currentMerchant(req)
      const asset = assetOf(req.params.assetId, ctx.identity.usdcIssuer)
      if (!asset) {
        throw badRequest(
          `Asset ${req.params.assetId.slice(0, 80)} is not supported: use USDC, USDC:${ctx.identity.usdcIssuer}, native or XLM`,
          'Asset is not supported',
        )
      }
      const balances = await balancesOf(merchant.account_id)
      res.json({ balance: formatDecimal(balances[asset], USDC_SCALE) })
    },
  } satisfies Partial<Handlers>
}
