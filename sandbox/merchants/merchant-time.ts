// Each merchant's business time: its own clock (a tenant's, or one moved on its own through
// /sandbox/merchants/{id}/clock), or else the sandbox-wide clock. Read from the merchant's row,
// never cached, so a clock moved on one replica is the time of every replica at once.
// docs/clocks.md names every rule that reads it.
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import type { SandboxContext } from '../context.js'
import type { Database, MerchantRow } from '../db/schema.js'
import { findMerchantClock } from './merchant-repository.js'

export type MerchantClockColumns = Pick<MerchantRow, 'clock_offset_ms' | 'clock_frozen_at'>
export type ClockSources = Pick<SandboxContext, 'clock' | 'wallClock'>

/** Business time for `merchant`; the sweeps compute the same in SQL (sweepNow in merchant-repository.ts). */
export function merchantNowOf(ctx: ClockSources, merchant: MerchantClockColumns): number {
  if (merchant.clock_frozen_at !== null) return merchant.clock_frozen_at
  if (merchant.clock_offset_ms !== null) return ctx.wallClock.now() + merchant.clock_offset_ms
  return ctx.clock.now()
}

/** The merchant's clock, for code that takes a Clock. */
export const merchantClockOf = (ctx: ClockSources, merchant: MerchantClockColumns): Clock => ({
  now: () => merchantNowOf(ctx, merchant),
})

/** Business time for the merchant `merchantId` (the sandbox-wide time for one not found). */
export async function merchantNow(ctx: ClockSources, db: Kysely<Database>, merchantId: string): Promise<number> {
  const clock = await findMerchantClock(db, merchantId)
  return clock === undefined ? ctx.clock.now() : merchantNowOf(ctx, clock)
}

/**
 * The merchant's own time if it has a clock of its own, else `sandboxTime`: an instant already
 * read on the sandbox-wide clock (a ledger's apply or close time), kept as it was.
 */
export async function merchantTimeOr(ctx: ClockSources, db: Kysely<Database>, merchantId: string, sandboxTime: number): Promise<number> {
  const clock = await findMerchantClock(db, merchantId)
  return clock === undefined || clock.clock_offset_ms === null ? sandboxTime : merchantNowOf(ctx, clock)
}
