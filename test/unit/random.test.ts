// The sandbox's random source: crypto bytes handed out from a pool, never twice, never shared.
import { describe, expect, it } from 'vitest'
import { cryptoRandom, hex, seededRandom } from '../../sandbox/random.js'

describe('cryptoRandom', () => {
  it('hands out fresh bytes of the length asked, across pool refills and for large requests', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 3_000; i++) {
      const value = hex(cryptoRandom, 8)
      expect(value).toMatch(/^[0-9a-f]{16}$/)
      seen.add(value)
    }
    expect(seen.size).toBe(3_000)
    expect(cryptoRandom.bytes(10_000)).toHaveLength(10_000)
  })

  it('gives every caller its own memory: what was handed out stays as it was', () => {
    const first = cryptoRandom.bytes(16)
    const kept = Buffer.from(first)
    expect(first.equals(Buffer.alloc(16))).toBe(false)
    // Draw past several pool refills, then change a later value: the first is untouched.
    for (let i = 0; i < 2_000; i++) cryptoRandom.bytes(16).fill(0xff)
    expect(first.equals(kept)).toBe(true)
  })

  it('makes time-ordered v7 ids with random tails', () => {
    const a = cryptoRandom.uuidV7(1_700_000_000_000)
    const b = cryptoRandom.uuidV7(1_700_000_000_001)
    expect(a < b).toBe(true)
    expect(a.slice(0, 13)).toBe('018bcfe5-6800')
    expect(cryptoRandom.uuidV7(1_700_000_000_000)).not.toBe(a)
  })
})

describe('seededRandom', () => {
  it('repeats the same stream for the same seed and boot, and another for another boot', () => {
    const draw = (stream: string) => hex(seededRandom('seed', stream), 40)
    expect(draw('boot:1')).toBe(draw('boot:1'))
    expect(draw('boot:2')).not.toBe(draw('boot:1'))
  })
})
