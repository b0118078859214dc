// Invoice numbers (spec 4.11): the merchant's prefix, with {year} replaced by the UTC year of
// the business clock at issue, then the counter zero-padded to at least 4 digits:
// INV-0001, INV-2026-0042, ACME/10000. The counter never resets.

export const DEFAULT_PREFIX = 'INV-'
export const FIRST_NUMBER = 1
export const YEAR_TOKEN = '{year}'

/** The prefix as it is written at `now`: {year} replaced. */
export function resolvePrefix(prefix: string, now: number): string {
  return prefix.replaceAll(YEAR_TOKEN, String(new Date(now).getUTCFullYear()))
}

export function formatInvoiceNumber(prefix: string, counter: number, now: number): string {
  return `${resolvePrefix(prefix, now)}${String(counter).padStart(4, '0')}`
}
