import { describe, expect, it } from 'vitest'
import { durationFlag } from '../../src/cli/duration-flag.js'
import { UserError } from '../../src/user-error.js'

describe('durationFlag', () => {
  it('reads bare numbers as seconds, fractions included, and units as ms reads them', () => {
    expect(durationFlag('30', 'timeout')).toBe(30_000)
    expect(durationFlag('1.5', 'timeout')).toBe(1_500)
    expect(durationFlag('500ms', 'timeout')).toBe(500)
    expect(durationFlag('2m', 'timeout')).toBe(120_000)
  })

  it('refuses nonsense, zero and more than the maximum, naming the flag', () => {
    for (const text of ['soon', '0', '-1', '']) {
      expect(() => durationFlag(text, 'timeout')).toThrow(`Invalid --timeout "${text}"`)
    }
    expect(() => durationFlag('11m', 'timeout', { maxMs: 600_000 })).toThrow(UserError)
    expect(durationFlag('10m', 'timeout', { maxMs: 600_000 })).toBe(600_000)
  })
})
