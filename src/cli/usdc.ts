// USDC amounts arrive from the API as JSON numbers with at most 7 decimal places; these read
// them exactly into stroops (integers) and format them back, never computing on floats.
import { USDC_SCALE, formatDecimal, formatDecimalShort, parseDecimal } from '../money.js'

/** A non-negative USDC (or USD) number from the API in stroops. */
export function stroopsOf(value: number): bigint {
  // toFixed gives the decimal the API wrote: below 2^53 stroops a double is within half a stroop of it.
  const stroops = parseDecimal(value.toFixed(USDC_SCALE), USDC_SCALE)
  if (stroops === undefined) throw new RangeError(`Not a USDC amount: ${value}`)
  return stroops
}

/** "5.0000000 USDC": all 7 places, as the ledger shows amounts. */
export const formatUsdc = (stroops: bigint): string => `${formatDecimal(stroops, USDC_SCALE)} USDC`

/** "1234.5": a USD or USDC number without trailing zeros. */
export const formatDecimalNumber = (value: number): string => formatDecimalShort(stroopsOf(value), USDC_SCALE)
