// Reusable request-schema pieces: URLs, ISO dates, metadata, paging query values, choices,
// amounts. Each endpoint's own body and query are in its resource's file of src/api/contract/.
import { StrKey } from '@stellar/stellar-base'
import { z } from 'zod'
import { CURRENCY_CODES } from './enumerations.js'
import { MAX_AMOUNT_VALUE } from '../money.js'

export const MAX_URL_LENGTH = 2048
export const MAX_METADATA_KEYS = 50
export const MAX_METADATA_BYTES = 8 * 1024

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false
  const { protocol } = new URL(text)
  return protocol === 'http:' || protocol === 'https:'
}

export const httpUrl = z.string().max(MAX_URL_LENGTH).refine(isHttpUrl, { message: 'must be an absolute http(s) URL' })

/** An ISO 8601 date-time with a zone ("2026-12-31T23:59:59Z", "…+02:00"), as epoch ms. */
export const isoDateTime = z.iso.datetime({ offset: true }).transform((text) => Date.parse(text))

/** An ISO 8601 date or date-time, as epoch ms (a bare date is midnight UTC). */
export const isoDateOrDateTime = z.union([z.iso.datetime({ offset: true }), z.iso.date()]).transform((text) => Date.parse(text))

export const metadata = z
  .record(z.string().max(40), z.unknown())
  .refine((value) => Object.keys(value).length <= MAX_METADATA_KEYS, {
    message: `may have at most ${MAX_METADATA_KEYS} keys`,
  })
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= MAX_METADATA_BYTES, {
    message: `must serialize to at most ${MAX_METADATA_BYTES} bytes`,
  })

/**
 * A non-negative integer given as query text ("2"), bounded. Branded so that a client's query
 * type (ClientQuery in src/client/types.ts) can tell it from other text and take a number.
 */
export const queryInteger = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, { message: 'must be a whole number' })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { message: `must be between ${min} and ${max}` })
    .brand<'QueryInteger'>()

/** Whether text is a Stellar account address (G…), checksum included. */
export const isAccountAddress = (text: string): boolean => StrKey.isValidEd25519PublicKey(text)

export const pageQuery = {
  page: queryInteger(1, 1_000_000).optional(),
  limit: queryInteger(1, 100).optional(),
}

/** Optional text field; null is taken as "not given", as most clients mean it. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .nullish()
    .transform((v) => v ?? undefined)

/** For endpoints that take no body: nothing, or an empty JSON object. */
export const noBody = z.strictObject({}).optional()

/**
 * One of `values`, typed as text going in (a client passes what its user typed, and the sandbox
 * names the choices) and as the enumeration once checked, so the sandbox's columns are checked.
 */
export function textEnum<T extends string>(values: readonly T[]) {
  return z
    .enum(values as readonly string[] as [string, ...string[]], { message: `must be one of ${values.join(', ')}` })
    .transform((value) => value as T)
}

export const currencyCode = textEnum(CURRENCY_CODES)

/** An amount in the smallest unit of a payment's pricing currency, as the simulations and refunds take it. */
export const pricingAmount = z
  .number()
  .int({ message: 'must be an integer in the smallest unit of the pricing currency' })
  .positive({ message: 'must be greater than 0' })
  .max(MAX_AMOUNT_VALUE)
