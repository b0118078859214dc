// Exact money arithmetic on scaled integers. Amounts are never binary floats: a value is an
// integer count of the smallest unit at a given scale (cents at 2, USDC stroops at 7).

/** USDC amounts on the ledger have 7 decimal places, like every Stellar asset. */
export const USDC_SCALE = 7

/** The largest amount the API accepts, in the currency's smallest unit. */
export const MAX_AMOUNT_VALUE = 100_000_000_000

const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?$/

/**
 * Parses non-negative decimal text ("12.5", "0.0000001") into an integer at `scale` decimal
 * places. Returns undefined when the text is not a plain decimal or has more places than `scale`.
 */
export function parseDecimal(text: string, scale: number): bigint | undefined {
  const match = DECIMAL_TEXT.exec(text.trim())
  if (!match) return undefined
  const whole = match[1] ?? '0'
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  if (fraction.length > scale) return undefined
  return BigInt(whole + fraction.padEnd(scale, '0'))
}

/** Formats an integer at `scale` decimal places as decimal text with exactly `scale` places. */
export function formatDecimal(units: bigint, scale: number): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0')
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits.slice(digits.length - scale)
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`
}

/** The same as formatDecimal but without trailing zeros: "12.5" rather than "12.5000000". */
export function formatDecimalShort(units: bigint, scale: number): string {
  const text = formatDecimal(units, scale)
  return scale > 0 ? text.replace(/\.?0+$/, '') : text
}

/** A USDC amount in stroops as people read it: "12.5 USDC". */
export const formatUsdcAmount = (stroops: bigint): string => `${formatDecimalShort(stroops, USDC_SCALE)} USDC`

/** Divides and rounds half away from zero (half up for the non-negative amounts used here). */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive')
  const negative = numerator < 0n
  const magnitude = negative ? -numerator : numerator
  const rounded = (magnitude * 2n + denominator) / (denominator * 2n)
  return negative ? -rounded : rounded
}

/** Converts a major-unit amount typed by a person ("12.50") into the currency's smallest unit. */
export function majorToMinorUnits(text: string, precision: number): number | undefined {
  const units = parseDecimal(text, precision)
  if (units === undefined || units > BigInt(Number.MAX_SAFE_INTEGER)) return undefined
  return Number(units)
}

/** Formats a smallest-unit integer in major units with the currency's precision ("12.50"). */
export function minorToMajorUnits(value: number, precision: number): string {
  return formatDecimal(BigInt(value), precision)
}

/**
 * A JSON number as an exact integer at `scale` decimal places, read from its shortest decimal
 * form (what JSON.parse was given, for any number written with at most 15 significant digits).
 * Undefined for negatives, exponent forms (very small or huge numbers) and more places than `scale`.
 */
export function numberToScaled(value: number, scale: number): bigint | undefined {
  if (!Number.isFinite(value)) return undefined
  return parseDecimal(String(value), scale)
}
