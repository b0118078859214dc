// Time for the sandbox. Business rules (expiry, due dates, history) read a Clock that tests and
// the simulation controls can move; only request authentication reads the real wall clock.
// A merchant with a clock of its own (a tenant) reads merchantNowOf (docs/clocks.md).
import type { MerchantRow } from './db/schema.js'

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
}

/** A clock the simulation controls can move forward (`POST /sandbox/clock/advance`). */
export interface AdvanceableClock extends Clock {
  advance(ms: number): void
}

export const systemClock: Clock = { now: () => Date.now() }

/** A gate that opens at most once every `intervalMs` of `clock`'s time: at the first call, then at the first after each interval. */
export function atMostEvery(clock: Clock, intervalMs: number): () => boolean {
  let openedAt: number | undefined
  return () => {
    const now = clock.now()
    if (openedAt !== undefined && now - openedAt < intervalMs) return false
    openedAt = now
    return true
  }
}

/**
 * The sandbox's business clock: the wall clock shifted by an offset that only moves forward,
 * so `advance()` makes time pass for everything time-based without touching authentication.
 * Frozen, it stands still at one instant (reproducible runs) until advanced or unfrozen.
 */
export class BusinessClock implements AdvanceableClock {
  #offsetMs: number
  #frozenAtMs: number | undefined
  readonly #wall: Clock
  #version = 0

  constructor(wall: Clock = systemClock, offsetMs = 0, frozenAtMs?: number) {
    this.#wall = wall
    this.#offsetMs = offsetMs
    this.#frozenAtMs = frozenAtMs
  }

  now(): number {
    return this.#frozenAtMs ?? this.#wall.now() + this.#offsetMs
  }

  /** How far business time is ahead of the wall clock (negative once behind it). */
  get offsetMs(): number {
    return this.#frozenAtMs === undefined ? this.#offsetMs : this.#frozenAtMs - this.#wall.now()
  }

  /** The instant business time stands still at, while frozen. */
  get frozenAtMs(): number | undefined {
    return this.#frozenAtMs
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The business clock only moves forward')
    if (this.#frozenAtMs === undefined) this.#offsetMs += ms
    else this.#frozenAtMs += ms
  }

  /** Stops business time at `atMs` (default: now), which may not be earlier than now. */
  freeze(atMs?: number): void {
    // Now read once: read twice, the wall clock may tick in between and "now" be refused as past.
    const now = this.now()
    const at = atMs ?? now
    if (!Number.isFinite(at) || at < now) throw new RangeError('The business clock only moves forward')
    this.#frozenAtMs = at
  }

  /**
   * Takes on the stored state (this replica or another moved the clock) at `version`, which
   * every stored change moves up: a read that lands after a newer one holds an older state, and
   * is ignored.
   */
  adopt(offsetMs: number, frozenAtMs: number | undefined, version: number): void {
    if (version < this.#version) return
    this.#version = version
    this.#offsetMs = offsetMs
    this.#frozenAtMs = frozenAtMs
  }

  /** Lets business time run again from the instant it stood still at, so it never jumps. */
  unfreeze(): void {
    if (this.#frozenAtMs === undefined) return
    this.#offsetMs = this.#frozenAtMs - this.#wall.now()
    this.#frozenAtMs = undefined
  }
}

/** A clock that stands still until told to move: for tests. */
export class ManualClock implements AdvanceableClock {
  #now: number
  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.#now = typeof start === 'number' ? start : start.getTime()
  }

  now(): number {
    return this.#now
  }

  set(ms: number): void {
    this.#now = ms
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The clock only moves forward')
    this.#now += ms
  }
}

export const toIso = (ms: number): string => new Date(ms).toISOString()

export type MerchantClockColumns = Pick<MerchantRow, 'clock_offset_ms' | 'clock_frozen_at'>
/** The two clocks a merchant's own time is computed from. */
export interface ClockSources {
  clock: Clock
  wallClock: Clock
}

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
