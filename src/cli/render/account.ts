// The merchant's own account: balances of its settlement account and its fee tier.
import type { AccountBalances, FeeTier } from '../../client/types.js'
import { details, table } from '../output.js'
import { formatDecimalNumber } from '../usdc.js'

export function renderBalances(balances: AccountBalances): string {
  const rows = balances.items.map((b) => [b.asset_code, b.balance, b.asset_id])
  return `Account ${balances.account}\n${table(['Asset', 'Balance', 'Asset id'], rows)}`
}

export function renderFeeTier(tier: FeeTier): string {
  const next = tier.nextTier
  return details([
    ['Tier', `${tier.tierName} (${tier.tierId})`],
    ['Rate', `${tier.ratePercent}%`],
    [`${tier.windowDays}-day volume`, `${formatDecimalNumber(tier.volume)} USD`],
    [
      'Next tier',
      next ? `${next.name} (${next.ratePercent}%) from ${formatDecimalNumber(next.minVolume)} USD` : 'none: this is the top tier',
    ],
    ['To next tier', next ? `${formatDecimalNumber(next.amountToNext)} USD` : undefined],
  ])
}
