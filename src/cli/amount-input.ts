// Amounts typed in major units ("12.50"): one reader, so a flag, a prompt and an invoice's unit
// price refuse the same text with the same words.
import { MAX_AMOUNT_VALUE, minorToMajorUnits, parseDecimal } from '../money.js'

export type AmountReading = { value: number } | { expected: string }

/** Payment amounts are positive; an invoice line may be free (a unit price of 0). */
export type AmountMinimum = 'positive' | 'zero'

export function readAmount(text: string, currency: string, precision: number, minimum: AmountMinimum = 'positive'): AmountReading {
  const units = parseDecimal(text, precision)
  if (units === undefined || (minimum === 'positive' && units === 0n)) return { expected: amountFormat(currency, precision, minimum) }
  // The size is its own problem: "at most 2 decimal places" would mislead about 99999999999999.
  if (units > BigInt(MAX_AMOUNT_VALUE)) return { expected: `no more than ${minorToMajorUnits(MAX_AMOUNT_VALUE, precision)} ${currency}` }
  return { value: Number(units) }
}

function amountFormat(currency: string, precision: number, minimum: AmountMinimum): string {
  if (minimum === 'positive') return `a positive amount with at most ${precision} decimal places for ${currency}`
  return precision === 0
    ? `a whole amount of ${currency}, 0 or more`
    : `an amount of ${currency} of 0 or more with at most ${precision} decimal place${precision === 1 ? '' : 's'}`
}

/** The prompt's check of an answer: true, or the hint shown under the question. */
export const amountAnswerCheck =
  (currency: string, precision: number, minimum: AmountMinimum = 'positive') =>
  (text: string): true | string => {
    const reading = readAmount(text, currency, precision, minimum)
    return 'value' in reading || `Enter ${reading.expected}`
  }
