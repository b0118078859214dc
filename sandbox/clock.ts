// Time for the sandbox. Business rules (expiry, due dates, history) read a Clock that tests and
// the simulation controls can move; only request authentication reads the real wall clock.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
}

/** A clock the simulation controls can move forward (`POST /sandbox/clock/advance`). */
export interface AdvanceableClock extends Clock {
  advance(ms: number): void
}

export const systemClock: Clock = { now: () => Date.now() }

/**
 * The sandbox's business clock: the wall clock shifted by an offset that only moves forward,
 * so `advance()` makes time pass for everything time-based without touching authentication.
 */
export class BusinessClock implements AdvanceableClock {
  #offsetMs: number
  readonly #wall: Clock

  constructor(wall: Clock = systemClock, offsetMs = 0) {
    this.#wall = wall
    this.#offsetMs = offsetMs
  }

  now(): number {
    return this.#wall.now() + this.#offsetMs
  }

  get offsetMs(): number {
    return this.#offsetMs
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The business clock only moves forward')
    this.#offsetMs += ms
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
