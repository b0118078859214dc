// Which fee tier a merchant is on: its settled volume over the trailing window on the business
// clock, placed in the tier table (spec 2.5, 4.12).
import type { Kysely } from 'kysely'
import { USDC_SCALE, formatDecimalShort } from '../../src/money.js'
import type { Database } from '../db/schema.js'
import { sumSettledVolume } from '../payments/payment-repository.js'
import { FEE_TIER_WINDOW_DAYS, minVolumeStroops, tierForVolume, type FeeTier } from './fee-tiers.js'

const WINDOW_MS = FEE_TIER_WINDOW_DAYS * 24 * 60 * 60 * 1000

export interface MerchantFeeTier {
  tier: FeeTier
  next: FeeTier | undefined
  /** Settled volume over the window, USDC stroops. */
  volume: bigint
}

export async function merchantFeeTier(db: Kysely<Database>, merchantId: string, now: number): Promise<MerchantFeeTier> {
  const volume = await sumSettledVolume(db, merchantId, now - WINDOW_MS, now)
  return { ...tierForVolume(volume), volume }
}

const usd = (stroops: bigint): number => Number(formatDecimalShort(stroops, USDC_SCALE))
const percent = (bps: number): number => bps / 100

/** The fee-tier resource (spec 2.5): amounts in USD, rates in percent. */
export function toFeeTierResource({ tier, next, volume }: MerchantFeeTier): Record<string, unknown> {
  return {
    tierId: tier.id,
    tierName: tier.name,
    ratePercent: percent(tier.rateBps),
    volume: usd(volume),
    windowDays: FEE_TIER_WINDOW_DAYS,
    nextTier:
      next === undefined
        ? null
        : {
            name: next.name,
            ratePercent: percent(next.rateBps),
            minVolume: usd(minVolumeStroops(next)),
            amountToNext: usd(minVolumeStroops(next) - volume),
          },
  }
}
