// The commerce fee tiers (spec 2.5): the rate a merchant pays on each settlement depends on
// its settled volume over the trailing window. One table; change a tier here and the fee-tier
// endpoint, settlement fees and the docs' examples follow.
import { USDC_SCALE, parseDecimal } from '../../src/money.js'

export interface FeeTier {
  id: string
  name: string
  /** The fee in basis points of the settled amount (100 = 1%). */
  rateBps: number
  /** USD of settled volume over the window from which the tier applies, decimal text. */
  minVolume: string
}

export const FEE_TIER_WINDOW_DAYS = 30

/** Lowest first; the first tier starts at zero volume. */
export const FEE_TIERS: readonly FeeTier[] = [
  { id: 'tier_starter', name: 'Starter', rateBps: 100, minVolume: '0' },
  { id: 'tier_growth', name: 'Growth', rateBps: 80, minVolume: '10000' },
  { id: 'tier_scale', name: 'Scale', rateBps: 50, minVolume: '100000' },
  { id: 'tier_enterprise', name: 'Enterprise', rateBps: 25, minVolume: '1000000' },
]

/** A tier's minimum volume in USDC stroops (USDC counts as exactly one USD). */
export const minVolumeStroops = (tier: FeeTier): bigint => parseDecimal(tier.minVolume, USDC_SCALE)!

/** The tier a trailing volume (stroops) falls in, and the one above it, if any. */
export function tierForVolume(volume: bigint): { tier: FeeTier; next: FeeTier | undefined } {
  let index = 0
  while (index + 1 < FEE_TIERS.length && volume >= minVolumeStroops(FEE_TIERS[index + 1]!)) index++
  return { tier: FEE_TIERS[index]!, next: FEE_TIERS[index + 1] }
}

/**
 * The fee on a settled amount (stroops), rounded up to the next stroop: never zero on a
 * non-zero amount, and never more than the amount itself.
 */
export function feeFor(amount: bigint, rateBps: number): bigint {
  if (amount <= 0n) return 0n
  return (amount * BigInt(rateBps) + 9_999n) / 10_000n
}
