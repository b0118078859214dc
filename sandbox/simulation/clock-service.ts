// The business clock's state: how far it has been advanced past the wall clock, or the instant
// it is frozen at, kept in the database so a restart resumes at the same business time, and
// the work that falls due when time moves.
import type { Kysely } from 'kysely'
import { BusinessClock, type Clock } from '../clock.js'
import type { SandboxContext } from '../context.js'
import type { Database } from '../db/schema.js'
import { badRequest, conflict } from '../errors.js'
import { closeDueQuotes } from '../cross-chain/quote-service.js'
import { failDueEscrows } from '../escrow/escrow-service.js'
import { markOverdueInvoices } from '../invoices/invoice-sync.js'
import { expireDuePayments } from '../payments/payment-expiry.js'
import { addToState, deleteState, readState, readStates, writeState } from '../state/sandbox-state.js'
import { announce, onAnnouncement, runTransaction, type SandboxDb } from '../db/database.js'

export async function readAdvancedMs(db: Kysely<Database>): Promise<number> {
  return Number((await readState(db, 'clock_advanced_ms')) ?? '0')
}

/** The instant business time is frozen at, if it is. */
export async function readFrozenAtMs(db: Kysely<Database>): Promise<number | undefined> {
  const value = await readState(db, 'clock_frozen_at')
  return value === undefined ? undefined : Number(value)
}

const CLOCK_TOPIC = 'clock'

/** The business clock as stored: how far it was advanced (its offset), the instant it is frozen at if it is, and its version. */
interface StoredClock {
  advancedMs: number
  frozenAtMs: number | undefined
  version: number
}

/** In one statement, so that the three are of one moment. */
async function readStoredClock(db: Kysely<Database>): Promise<StoredClock> {
  const state = await readStates(db, ['clock_advanced_ms', 'clock_frozen_at', 'clock_version'])
  const frozenAt = state.get('clock_frozen_at')
  return {
    advancedMs: Number(state.get('clock_advanced_ms') ?? '0'),
    frozenAtMs: frozenAt === undefined ? undefined : Number(frozenAt),
    version: Number(state.get('clock_version') ?? '0'),
  }
}

/** The business clock as the database last left it: running at its offset, or frozen. */
export async function loadBusinessClock(db: Kysely<Database>, wall: Clock): Promise<BusinessClock> {
  const stored = await readStoredClock(db)
  const clock = new BusinessClock(wall)
  clock.adopt(stored.advancedMs, stored.frozenAtMs, stored.version)
  return clock
}

/**
 * Keeps `clock` at the state another replica of a shared sandbox stores when it moves business
 * time (freeze, advance, unfreeze); returns a function that stops following.
 */
export function followStoredClock(db: SandboxDb, clock: BusinessClock): () => void {
  return onAnnouncement(db, CLOCK_TOPIC, () => {
    void readStoredClock(db).then(
      (stored) => clock.adopt(stored.advancedMs, stored.frozenAtMs, stored.version),
      () => {},
    )
  })
}

/**
 * Runs `change` on the stored clock in one transaction that first moves its version up, which
 * locks the version's row: the changes of all replicas apply one after another, each to the
 * state the one before stored. This replica's clock then takes on what was stored.
 */
async function changeStoredClock(
  ctx: SandboxContext,
  change: (trx: Kysely<Database>, stored: Omit<StoredClock, 'version'>) => Promise<Omit<StoredClock, 'version'>>,
): Promise<void> {
  const changed = await runTransaction(ctx.db, async (trx) => {
    const version = await addToState(trx, 'clock_version', 1)
    const stored = await change(trx, await readStoredClock(trx))
    await announce(ctx.db, trx, CLOCK_TOPIC)
    return { ...stored, version }
  })
  if (ctx.clock instanceof BusinessClock) ctx.clock.adopt(changed.advancedMs, changed.frozenAtMs, changed.version)
}

/**
 * Moves business time forward by `ms`, then processes everything that came due. With `from`, only
 * if it has been advanced exactly that far (checked in the same transaction): a form submitted twice
 * moves the clock once, the other submits get a 409.
 */
export async function advanceClock(ctx: SandboxContext, ms: number, from?: { advancedMs: number }): Promise<DueWorkReport> {
  await changeStoredClock(ctx, async (trx, stored) => {
    if (from !== undefined && stored.advancedMs !== from.advancedMs)
      throw conflict('Conflict', 'The clock changed since this form was shown: nothing was moved. Look at the clock again and retry.')
    // A frozen clock moves its instant; a running one its offset. The offset is also kept
    // while frozen so that advancedSeconds counts what was advanced.
    const frozenAtMs = stored.frozenAtMs === undefined ? undefined : stored.frozenAtMs + ms
    if (frozenAtMs !== undefined) await writeState(trx, 'clock_frozen_at', String(frozenAtMs))
    return { advancedMs: await addToState(trx, 'clock_advanced_ms', ms), frozenAtMs }
  })
  // An injected clock (tests) is not stored: it is moved here.
  if (!(ctx.clock instanceof BusinessClock)) ctx.clock.advance(ms)
  return processDueWork(ctx)
}

/** Persists a frozen business time, for a sandbox whose genesis must happen at a fixed instant. */
export async function writeFrozenAt(db: Kysely<Database>, atMs: number): Promise<void> {
  await writeState(db, 'clock_frozen_at', String(atMs))
}

/**
 * Stops business time at `atMs` (default: now); it stays there across restarts until
 * unfrozen. Only a BusinessClock can be frozen (tests may inject other clocks).
 */
export async function freezeClock(ctx: SandboxContext, atMs?: number): Promise<void> {
  controllableClock(ctx)
  await changeStoredClock(ctx, async (trx, stored) => {
    const clock = new BusinessClock(ctx.wallClock, stored.advancedMs, stored.frozenAtMs)
    clock.freeze(atMs)
    await writeFrozenAt(trx, clock.frozenAtMs!)
    return { advancedMs: stored.advancedMs, frozenAtMs: clock.frozenAtMs }
  })
}

/** Business time runs on from the instant it was frozen at. */
export async function unfreezeClock(ctx: SandboxContext): Promise<void> {
  controllableClock(ctx)
  await changeStoredClock(ctx, async (trx, stored) => {
    const clock = new BusinessClock(ctx.wallClock, stored.advancedMs, stored.frozenAtMs)
    clock.unfreeze()
    await deleteState(trx, 'clock_frozen_at')
    await writeState(trx, 'clock_advanced_ms', String(clock.offsetMs))
    return { advancedMs: clock.offsetMs, frozenAtMs: undefined }
  })
}

export class ClockNotControllableError extends Error {}

/** Refusals of the clock itself (moving backwards, an injected clock) as 4xx answers. */
export async function asClockChange<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change()
  } catch (error) {
    if (error instanceof RangeError) throw badRequest('at: must not be earlier than the current business time (it only moves forward)')
    if (error instanceof ClockNotControllableError) throw conflict('Conflict', error.message)
    throw error
  }
}

function controllableClock(ctx: SandboxContext): BusinessClock {
  if (!(ctx.clock instanceof BusinessClock))
    throw new ClockNotControllableError('This sandbox runs on an injected clock, which cannot be frozen')
  return ctx.clock
}

export interface DueWorkReport {
  expiredPayments: number
  overdueInvoices: number
  failedEscrows: number
  /** Bridge orders past their deadline: expired, or their incomplete deposit refunded. */
  closedQuotes: number
}

/** Everything time-based that is due, each by its merchant's business time; only `merchantId`'s when given. */
export async function processDueWork(ctx: SandboxContext, merchantId?: string): Promise<DueWorkReport> {
  return {
    expiredPayments: await expireDuePayments(ctx, merchantId),
    overdueInvoices: await markOverdueInvoices(ctx, merchantId),
    failedEscrows: await failDueEscrows(ctx, merchantId),
    closedQuotes: await closeDueQuotes(ctx, merchantId),
  }
}
