// What a person types for an invoice, from flags or prompts. Readers return undefined for text they
// cannot read; the *Flag wrappers make that one line naming the flag, the prompts a hint.
import ms from 'ms'
import { MAX_QUANTITY } from '../api/limits.js'
import type { CustomerType, InvoiceLineItem, NewCustomer, PostalAddress } from '../client/types.js'
import { QUANTITY_SCALE, TAX_SCALE } from '../invoice-totals.js'
import { parseDecimal } from '../money.js'
import { readAmount, type AmountReading } from './amount-input.js'
import { UserError } from '../user-error.js'

export const EXPECTED = {
  item: '"description;quantity;unit price"',
  quantity: `a number greater than 0 and at most ${MAX_QUANTITY}, with at most ${QUANTITY_SCALE} decimal places`,
  tax: `a percentage from 0 to 100 with at most ${TAX_SCALE} decimal places`,
  due: 'a date (2026-12-31, meaning 23:59:59 UTC that day) or a date-time with an offset (2026-12-31T17:00:00Z)',
  dueIn: 'a duration such as 30d, 2w or 12h',
  email: 'an email address',
} as const

/** A quantity as the JSON number the API takes: "0.1" is 0.1, exactly 1/10 once read back as decimal text. */
export function quantityOf(text: string): number | undefined {
  const scaled = parseDecimal(text, QUANTITY_SCALE)
  if (scaled === undefined || scaled <= 0n || scaled > BigInt(MAX_QUANTITY) * 10n ** BigInt(QUANTITY_SCALE)) return undefined
  // At most 13 significant digits: the number's shortest decimal form is the text itself.
  return Number(text.trim())
}

/** A unit price in major units ("10.00") as smallest units of the currency; 0 is allowed (a free line). */
export const unitPriceOf = (text: string, currency: string, precision: number): AmountReading =>
  readAmount(text, currency, precision, 'zero')

/** A tax percentage ("21", "7.25", "21%"). */
export function taxOf(text: string): number | undefined {
  const digits = text.trim().replace(/%$/, '')
  const scaled = parseDecimal(digits, TAX_SCALE)
  if (scaled === undefined || scaled > 100n * 10n ** BigInt(TAX_SCALE)) return undefined
  return Number(digits)
}

export type ItemReading = { item: InvoiceLineItem } | { problem: string }

/** "Description;quantity;unit price": read from the end, so a description may contain ";". */
export function readItem(text: string, currency: string, precision: number): ItemReading {
  const fields = text.split(';')
  if (fields.length < 3) return { problem: `must be ${EXPECTED.item}` }
  const priceText = fields.pop()!.trim()
  const quantityText = fields.pop()!.trim()
  const description = fields.join(';').trim()
  if (description === '') return { problem: 'needs a description before the quantity' }
  const quantity = quantityOf(quantityText)
  if (quantity === undefined) return { problem: `has quantity "${quantityText}"; it must be ${EXPECTED.quantity}` }
  const unitPrice = unitPriceOf(priceText, currency, precision)
  if ('expected' in unitPrice) return { problem: `has unit price "${priceText}"; it must be ${unitPrice.expected}` }
  return { item: { description, quantity, unit_price: unitPrice.value } }
}

export function itemFlag(text: string, currency: string, precision: number, flag = 'item'): InvoiceLineItem {
  const reading = readItem(text, currency, precision)
  if ('problem' in reading) throw new UserError(`--${flag} "${text}" ${reading.problem}`)
  return reading.item
}

export function taxFlag(text: string, flag = 'tax'): number {
  const tax = taxOf(text)
  if (tax === undefined) throw new UserError(`--${flag} must be ${EXPECTED.tax}, got "${text}"`)
  return tax
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/

/** A real day of the calendar: Date would read 2026-02-30 as 2 March. */
function isCalendarDate(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)))
  return date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day)
}

// A bare date is the end of that day in UTC, payable on the day wherever the customer is west of
// Greenwich; a date-time must carry its offset (local time would depend on this computer).
export function dueDateOf(text: string): string | undefined {
  const trimmed = text.trim()
  const dateOnly = ISO_DATE.exec(trimmed)
  const match = dateOnly ?? ISO_DATE_TIME.exec(trimmed)
  if (!match || !isCalendarDate(match[1]!, match[2]!, match[3]!)) return undefined
  const time = Date.parse(dateOnly ? `${trimmed}T23:59:59Z` : trimmed)
  return Number.isNaN(time) ? undefined : new Date(time).toISOString()
}

/** A due date `text` from `now` ("30d", "2w", "12h"); a bare number is refused (ms would read it as milliseconds). */
export function dueInOf(text: string, now: number): string | undefined {
  const trimmed = text.trim()
  if (!/^\d+(\.\d+)?\s*[a-z]+$/i.test(trimmed)) return undefined
  const milliseconds = ms(trimmed as ms.StringValue) as number | undefined
  if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds) || milliseconds <= 0) return undefined
  return new Date(now + milliseconds).toISOString()
}

// Checked against this computer's clock: the business clock only runs ahead of it, so what this
// refuses the API would refuse too.
export function dueFlags(due: string | undefined, dueIn: string | undefined, now: number): string | undefined {
  if (due === undefined && dueIn === undefined) return undefined
  const [flag, text, expected, dueAt] =
    due !== undefined ? ['due', due, EXPECTED.due, dueDateOf(due)] : ['due-in', dueIn!, EXPECTED.dueIn, dueInOf(dueIn!, now)]
  if (dueAt === undefined) throw new UserError(`--${flag} must be ${expected}, got "${text}"`)
  if (Date.parse(dueAt) <= now) throw new UserError(`--${flag} must be in the future, got "${text}" (${dueAt})`)
  return dueAt
}

/** The answer to "Due?" in the interactive flow: a date, a date-time or a duration from now. */
export function dueAnswerOf(text: string, now: number): string | undefined {
  const dueAt = dueDateOf(text) ?? dueInOf(text, now)
  return dueAt !== undefined && Date.parse(dueAt) > now ? dueAt : undefined
}

/** Loose on purpose: the API checks addresses properly; this catches a swapped flag value. */
export const isEmailLike = (text: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)

export interface CustomerFlags {
  'customer-email'?: string
  'customer-name'?: string
  'customer-type'?: string
  company?: string
  vat?: string
  'address-line1'?: string
  'postal-code'?: string
  city?: string
  country?: string
}

const ADDRESS_FLAGS = ['address-line1', 'postal-code', 'city', 'country'] as const
/** Flags describing a new customer: meaningless next to --customer-id, which uses the stored one. */
export const NEW_CUSTOMER_FLAGS = ['customer-name', 'customer-type', 'company', 'vat', ...ADDRESS_FLAGS] as const

/** A new customer from its flags; the address takes all four of its flags or none. */
export function newCustomerFlags(flags: CustomerFlags & { 'customer-email': string }): NewCustomer {
  const email = flags['customer-email'].trim()
  if (!isEmailLike(email)) throw new UserError(`--customer-email must be ${EXPECTED.email}, got "${flags['customer-email']}"`)
  const given = ADDRESS_FLAGS.filter((name) => flags[name] !== undefined)
  if (given.length > 0 && given.length < ADDRESS_FLAGS.length) {
    const missing = ADDRESS_FLAGS.filter((name) => flags[name] === undefined)
    throw new UserError(
      `An address needs all of --address-line1, --postal-code, --city and --country; missing ${missing.map((name) => `--${name}`).join(', ')}`,
    )
  }
  const address: PostalAddress | undefined =
    given.length === 0
      ? undefined
      : { line1: flags['address-line1']!, postal_code: flags['postal-code']!, city: flags.city!, country: flags.country! }
  return {
    email,
    customer_type: flags['customer-type'] as CustomerType | undefined,
    name: flags['customer-name'],
    company_name: flags.company,
    vat_number: flags.vat,
    address,
  }
}
