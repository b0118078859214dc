// A merchant's own business clock (docs/clocks.md): read, advanced, frozen and unfrozen apart
// from the sandbox-wide clock. It lives in the merchant's row, so every replica reads the change
// at once. A merchant that has none follows the sandbox-wide clock until its clock is first moved:
// then it takes one of its own, at the sandbox-wide time.
import type { Kysely } from 'kysely'
import { BusinessClock, toIso, merchantNowOf, type ClockSources } from '../clock.js'
import type { SandboxContext } from '../context.js'
import type { Database } from '../db/schema.js'
import { runTransaction } from '../db/database.js'
import { notFound } from '../errors.js'
import { findMerchantClock, lockMerchant, writeMerchantClock, type MerchantClockRow } from '../merchants/merchant-repository.js'
import { processDueWork, readAdvancedMs, readFrozenAtMs, type DueWorkReport } from './clock-service.js'

export interface MerchantClockView {
  now: string
  advancedSeconds: number
  frozenAt?: string
}

/** Where a new clock of its own starts: at the sandbox-wide time, frozen if that is (an injected test clock stands still). */
export function ownClockFromSandbox(ctx: ClockSources): { clock_offset_ms: number; clock_frozen_at: number | null } {
  const now = ctx.clock.now()
  const frozen = ctx.clock instanceof BusinessClock ? ctx.clock.frozenAtMs : now
  return { clock_offset_ms: now - ctx.wallClock.now(), clock_frozen_at: frozen ?? null }
}

async function clockOf(db: Kysely<Database>, merchantId: string): Promise<MerchantClockRow> {
  const clock = await findMerchantClock(db, merchantId)
  if (clock === undefined) throw notFound(`No merchant ${merchantId.slice(0, 64)}`)
  return clock
}

/** The merchant's clock as GET /sandbox/merchants/{id}/clock shows it (the sandbox-wide one's while it has none). */
export async function viewMerchantClock(
  ctx: Pick<SandboxContext, 'db' | 'clock' | 'wallClock'>,
  merchantId: string,
): Promise<MerchantClockView> {
  const clock = await clockOf(ctx.db, merchantId)
  if (clock.clock_offset_ms === null) {
    const frozenAt = await readFrozenAtMs(ctx.db)
    return {
      now: toIso(ctx.clock.now()),
      advancedSeconds: Math.floor((await readAdvancedMs(ctx.db)) / 1000),
      ...(frozenAt === undefined ? {} : { frozenAt: toIso(frozenAt) }),
    }
  }
  return ownClockView(ctx, clock)
}

/** A clock of its own (a tenant's) as the API shows it. */
export const ownClockView = (ctx: ClockSources, clock: MerchantClockRow): MerchantClockView => ({
  now: toIso(merchantNowOf(ctx, clock)),
  advancedSeconds: Math.floor(clock.clock_advanced_ms / 1000),
  ...(clock.clock_frozen_at === null ? {} : { frozenAt: toIso(clock.clock_frozen_at) }),
})

/** Changes the merchant's own clock (taking one first if it has none) in one transaction. */
async function changeOwnClock(
  ctx: Pick<SandboxContext, 'db' | 'clock' | 'wallClock'>,
  merchantId: string,
  change: (clock: MerchantClockRow & { clock_offset_ms: number }) => MerchantClockRow,
): Promise<void> {
  await runTransaction(ctx.db, async (trx) => {
    // Locked: changes through every replica apply one after another, each to the clock the one before left.
    const merchant = await lockMerchant(trx, merchantId)
    if (merchant === undefined) throw notFound(`No merchant ${merchantId.slice(0, 64)}`)
    const { clock_offset_ms, clock_frozen_at, clock_advanced_ms } = merchant
    const stored: MerchantClockRow = { clock_offset_ms, clock_frozen_at, clock_advanced_ms }
    const own = stored.clock_offset_ms === null ? { ...stored, ...ownClockFromSandbox(ctx) } : stored
    await writeMerchantClock(trx, merchantId, change(own as MerchantClockRow & { clock_offset_ms: number }))
  })
}

/** Moves the merchant's business time forward by `ms`, then processes what came due for it. */
export async function advanceMerchantClock(ctx: SandboxContext, merchantId: string, ms: number): Promise<DueWorkReport> {
  await changeOwnClock(ctx, merchantId, (clock) => ({
    clock_offset_ms: clock.clock_offset_ms + ms,
    clock_frozen_at: clock.clock_frozen_at === null ? null : clock.clock_frozen_at + ms,
    clock_advanced_ms: clock.clock_advanced_ms + ms,
  }))
  return processDueWork(ctx, merchantId)
}

/** Stops the merchant's business time at `atMs` (default: now), which may not be earlier than now. */
export async function freezeMerchantClock(ctx: SandboxContext, merchantId: string, atMs?: number): Promise<void> {
  await changeOwnClock(ctx, merchantId, (clock) => {
    const now = merchantNowOf(ctx, clock)
    const at = atMs ?? now
    if (!Number.isFinite(at) || at < now) throw new RangeError('The business clock only moves forward')
    return { ...clock, clock_frozen_at: at }
  })
}

/** The merchant's business time runs on from the instant it stood still at, so it never jumps. */
export async function unfreezeMerchantClock(ctx: SandboxContext, merchantId: string): Promise<void> {
  await changeOwnClock(ctx, merchantId, (clock) =>
    clock.clock_frozen_at === null
      ? clock
      : { ...clock, clock_offset_ms: clock.clock_frozen_at - ctx.wallClock.now(), clock_frozen_at: null },
  )
}
