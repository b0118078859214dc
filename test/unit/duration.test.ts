// The one reading of "how far to advance business time" that `paybox sandbox clock advance` and the
// dashboard's Clock page share.
import { describe, expect, it } from 'vitest'
import { parseAdvanceSeconds } from '../../src/duration.js'

describe('parseAdvanceSeconds', () => {
  it('reads whole seconds and ms durations', () => {
    expect(parseAdvanceSeconds('120')).toBe(120)
    expect(parseAdvanceSeconds('90s')).toBe(90)
    expect(parseAdvanceSeconds(' 31m ')).toBe(1860)
    expect(parseAdvanceSeconds('2h')).toBe(7200)
    expect(parseAdvanceSeconds('7d')).toBe(604_800)
  })

  it('refuses what is not a whole number of seconds, at least one', () => {
    for (const text of ['', '   ', 'soon', '0', '500ms', '1.5s', '-5m', '1e3', 'x'.repeat(200), '<script>']) {
      expect(parseAdvanceSeconds(text), text).toBeUndefined()
    }
  })
})
