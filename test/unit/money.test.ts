import { describe, expect, it } from 'vitest'
import {
  divideRoundHalfUp,
  formatDecimal,
  formatDecimalShort,
  majorToMinorUnits,
  minorToMajorUnits,
  parseDecimal,
} from '../../src/money.js'
import { CURRENCIES, findCurrency, toUsdcStroops } from '../../sandbox/currencies/currency-table.js'
import { MAX_USDC_STROOPS } from '../../sandbox/payments/payment-service.js'
import { usdcNumber } from '../../sandbox/payments/payment-resource.js'

const currency = (code: string) => {
  const found = findCurrency(code)
  if (!found) throw new Error(`no ${code}`)
  return found
}

describe('decimal text', () => {
  it('parses to an exact scaled integer', () => {
    expect(parseDecimal('12.5', 7)).toBe(125_000_000n)
    expect(parseDecimal('0.0000001', 7)).toBe(1n)
    expect(parseDecimal('12.50', 2)).toBe(1250n)
    expect(parseDecimal('12.500', 2)).toBe(1250n)
  })

  it('refuses what is not plain decimal text or has too many places', () => {
    for (const text of ['', '-1', '1e3', '0x10', '1.2.3', ' . ', 'abc', '12.345']) {
      expect(parseDecimal(text, 2), text).toBeUndefined()
    }
  })

  it('formats with fixed or trimmed places', () => {
    expect(formatDecimal(125_000_000n, 7)).toBe('12.5000000')
    expect(formatDecimal(1n, 7)).toBe('0.0000001')
    expect(formatDecimal(-150n, 2)).toBe('-1.50')
    expect(formatDecimal(42n, 0)).toBe('42')
    expect(formatDecimalShort(125_000_000n, 7)).toBe('12.5')
    expect(formatDecimalShort(100_000_000n, 7)).toBe('10')
  })

  it('rounds half up exactly', () => {
    expect(divideRoundHalfUp(5n, 2n)).toBe(3n)
    expect(divideRoundHalfUp(4n, 3n)).toBe(1n)
    expect(divideRoundHalfUp(5n, 3n)).toBe(2n)
    expect(divideRoundHalfUp(-5n, 2n)).toBe(-3n)
  })

  it('converts major units typed by a person into smallest units and back', () => {
    expect(majorToMinorUnits('12.50', 2)).toBe(1250)
    expect(majorToMinorUnits('0.1', 2)).toBe(10)
    expect(majorToMinorUnits('1500', 0)).toBe(1500)
    expect(majorToMinorUnits('12.345', 2)).toBeUndefined()
    expect(majorToMinorUnits('1.5', 0)).toBeUndefined()
    expect(minorToMajorUnits(1250, 2)).toBe('12.50')
    expect(minorToMajorUnits(7, 2)).toBe('0.07')
    expect(minorToMajorUnits(1500, 0)).toBe('1500')
  })
})

describe('pricing in USDC', () => {
  it('converts at the sandbox rate without float drift', () => {
    expect(toUsdcStroops(1250, currency('USD'))).toBe(125_000_000n) // 12.50 USD = 12.5 USDC
    expect(toUsdcStroops(1250, currency('EUR'))).toBe(135_000_000n) // 12.50 × 1.08
    expect(toUsdcStroops(1, currency('USD'))).toBe(100_000n) // one cent
    expect(toUsdcStroops(1500, currency('JPY'))).toBe(100_500_000n) // 1500 × 0.0067 = 10.05
    expect(toUsdcStroops(3, currency('MXN'))).toBe(17_400n) // 0.03 × 0.058 = 0.00174
  })

  it('rounds half up once at the end', () => {
    // 1 JPY = 0.0067 USDC exactly; 0.1 of a stroop would need rounding: not here.
    expect(toUsdcStroops(1, currency('JPY'))).toBe(67_000n)
    // 0.01 MXN × 0.058 = 0.00058 USDC = 5800 stroops exactly.
    expect(toUsdcStroops(1, currency('MXN'))).toBe(5_800n)
  })

  it('has a valid rate and precision for every currency', () => {
    for (const c of CURRENCIES) {
      expect(parseDecimal(c.usdRate, 8), c.code).toBeGreaterThan(0n)
      expect([0, 2, 3]).toContain(c.precision)
    }
    expect(CURRENCIES.map((c) => c.code)).toEqual(expect.arrayContaining(['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'MXN', 'BRL']))
  })
})

describe('usdcNumber', () => {
  it('is the number the decimal text of the amount parses to', () => {
    const max = Number(MAX_USDC_STROOPS)
    const edges = [0, 1, 5, 9, 10, 99, 1_000_000, 9_999_999, 10_000_000, 12_345_678, 123_456_789_012, max - 1, max, 2 ** 53 - 1]
    let seed = 7
    const next = () => (seed = (seed * 48_271) % 2_147_483_647)
    const random = Array.from({ length: 20_000 }, () => (next() * 2 ** 22 + (next() % 2 ** 22)) % max)
    for (const stroops of [...edges, ...random]) {
      expect(usdcNumber(stroops), String(stroops)).toBe(Number(formatDecimalShort(BigInt(stroops), 7)))
    }
  })
})
