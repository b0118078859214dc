// The pricing currencies the sandbox accepts (spec 2.6) and the fixed sandbox rates used to
// price a payment in USDC. Rates are decimal text in USD per one major unit of the currency;
// USDC is treated as exactly 1 USD. Change a rate here and every conversion follows.
import { CURRENCY_CODES, type CurrencyCode } from '../../src/api/enumerations.js'
import { USDC_SCALE, divideRoundHalfUp, parseDecimal } from '../../src/money.js'

export interface Currency {
  code: CurrencyCode
  name: string
  symbol: string
  /** Decimal places of the smallest unit (2 for cents, 0 for yen). */
  precision: number
  /** USD per one major unit, as exact decimal text. */
  usdRate: string
}

const TABLE: Record<CurrencyCode, Omit<Currency, 'code'>> = {
  USD: { name: 'US Dollar', symbol: '$', precision: 2, usdRate: '1' },
  EUR: { name: 'Euro', symbol: '€', precision: 2, usdRate: '1.08' },
  GBP: { name: 'British Pound', symbol: '£', precision: 2, usdRate: '1.27' },
  JPY: { name: 'Japanese Yen', symbol: '¥', precision: 0, usdRate: '0.0067' },
  CHF: { name: 'Swiss Franc', symbol: 'CHF', precision: 2, usdRate: '1.13' },
  CAD: { name: 'Canadian Dollar', symbol: 'CA$', precision: 2, usdRate: '0.73' },
  AUD: { name: 'Australian Dollar', symbol: 'A$', precision: 2, usdRate: '0.66' },
  MXN: { name: 'Mexican Peso', symbol: 'MX$', precision: 2, usdRate: '0.058' },
  BRL: { name: 'Brazilian Real', symbol: 'R$', precision: 2, usdRate: '0.2' },
}

/** In the order of CURRENCY_CODES, as GET /currencies lists them. */
export const CURRENCIES: readonly Currency[] = CURRENCY_CODES.map((code) => ({ code, ...TABLE[code] }))

const BY_CODE = new Map<string, Currency>(CURRENCIES.map((currency) => [currency.code, currency]))

export function findCurrency(code: string): Currency | undefined {
  return BY_CODE.get(code)
}

/** The scale at which rates are held: enough places for every rate in the table. */
const RATE_SCALE = 8

/**
 * Prices `value` smallest units of `currency` in USDC stroops (7 decimals), rounding half up
 * once at the end, so conversion never drifts.
 */
export function toUsdcStroops(value: number, currency: Currency): bigint {
  const rate = parseDecimal(currency.usdRate, RATE_SCALE)
  if (rate === undefined) throw new Error(`Invalid sandbox rate for ${currency.code}`)
  const numerator = BigInt(value) * rate * 10n ** BigInt(USDC_SCALE)
  const denominator = 10n ** BigInt(currency.precision + RATE_SCALE)
  return divideRoundHalfUp(numerator, denominator)
}
