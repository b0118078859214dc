// Freezing the business clock at "now" must not race the wall clock: `paybox sandbox clock
// freeze` without --at was refused now and then ("must not be earlier than the current business
// time") when a millisecond passed between two readings of now.
import { describe, expect, it } from 'vitest'
import { BusinessClock } from '../../sandbox/clock.js'

describe('BusinessClock.freeze', () => {
  it('freezes at now even when the wall clock ticks on every reading', () => {
    let wall = Date.UTC(2026, 10, 24, 12)
    // Every reading is a millisecond later than the last, as on a busy machine.
    const ticking = { now: () => wall++ }
    const clock = new BusinessClock(ticking)
    expect(() => clock.freeze()).not.toThrow()
    expect(clock.frozenAtMs).toBeDefined()
    expect(() => clock.freeze(clock.now() - 1)).toThrow(RangeError)
  })
})
