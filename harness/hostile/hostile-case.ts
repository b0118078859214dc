// What a hostile case is, and the small vocabulary every family of cases writes them with.
import type { Rng } from './rng.js'

export const ENDPOINTS = [
  'POST /payments',
  'GET /payments',
  'GET /payments/{id}',
  'GET /currencies',
  'GET /sandbox/merchants',
  'GET /health',
  'GET /s/{code}',
  'GET /checkout/{id}',
  'POST /payments/{id}/refunds',
  'POST /sandbox/payments/{id}/…',
  'GET /accounts/balances/{asset}',
  'GET /sandbox/ledger/…',
  'GET /merchants/{id}/webhook-logs…',
  'POST /invoices…',
  'GET /horizon/…',
  'POST /horizon/transactions',
  'POST /sandbox/wallets',
] as const
export type Endpoint = (typeof ENDPOINTS)[number]
/** The endpoint of route cases: they are spread over every route of the app. */
export const EVERY_ROUTE = 'every route'

/** Every body field of POST /payments (spec 4.1), nested ones as "amount.value". */
export const PAYMENT_FIELDS = [
  'amount',
  'amount.value',
  'amount.currency',
  'description',
  'redirectUrl',
  'cancelUrl',
  'webhookUrl',
  'name',
  'locale',
  'metadata',
  'partnerId',
  'storeId',
  'expiresInHours',
  'escrowPayee',
  'escrowPlatformFee',
  'escrowExpiresAt',
] as const
export type PaymentField = (typeof PAYMENT_FIELDS)[number]

export type Signer = 'direct' | 'escrow'

export type Expectation =
  /** A JSON error body {statusCode, reason, message} with this status. */
  | { kind: 'error'; status: number }
  /** An HTML page (the hosted checkout) with this status. */
  | { kind: 'page'; status: number }
  /** GET /health: 200 {status: "ok"}. */
  | { kind: 'health' }
  /**
   * One of these 4xx statuses, as a JSON error body, or as an HTML page where `pageAllowed`
   * (browser routes, registered before the JSON body parser).
   */
  | { kind: 'rejected'; statuses: number[]; pageAllowed: boolean }

export interface HostileCase {
  /** Unique, human-readable: shown when the case fails. */
  name: string
  endpoint: Endpoint | typeof EVERY_ROUTE
  family: string
  /** The POST /payments body field the case targets, if any. */
  field?: PaymentField
  method: string
  /** Path and query exactly as fetch will put them on the request line. */
  path: string
  body?: string | Uint8Array
  /** Sent in this order; a name may repeat. Values may hold {{now}} and {{sig}} (see send). */
  headers: Array<[string, string]>
  /** Add correct digest headers for this merchant (unless the case sets x-digest-* itself). */
  signAs?: Signer
  /** Sign over this body text instead of the body sent. */
  signBody?: string
  expect: Expectation
}

export interface HostileCredentials {
  direct: { id: string; apiKey: string; apiSecret: string }
  escrow: { apiKey: string; apiSecret: string }
  adminToken: string
  /** An admin's dashboard session: its Cookie header and CSRF token (hostile-run.ts's dashboardSession). */
  dashboard?: { cookie: string; csrfToken: string }
}

/** What fetch sends for `path`: percent-encoding and normalisation applied, empty "?" dropped. */
export function onTheWire(path: string): string {
  const url = new URL(path, 'http://sandbox.invalid')
  return url.pathname + url.search
}

export const error = (status: number): Expectation => ({ kind: 'error', status })
export const page = (status: number): Expectation => ({ kind: 'page', status })

export const MAX_BODY_BYTES = 256 * 1024

/** JSON text spliced in verbatim where a value `raw(text)` stands (numbers JSON.stringify cannot write). */
const RAW_MARK = '@@raw@@'
export const raw = (text: string): string => `${RAW_MARK}${text}${RAW_MARK}`
export const toJson = (value: unknown): string => JSON.stringify(value).replace(/"@@raw@@(.*?)@@raw@@"/g, '$1')

/** Sets a property even when its name is "__proto__". */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true })
}

export const encodeQuery = (pairs: Array<[string, string]>): string =>
  pairs.map(([k, v]) => `${encodeQueryPart(k)}=${encodeQueryPart(v)}`).join('&')
// Keep a deliberately broken escape ("%", "%00") as written; encode everything else.
const encodeQueryPart = (text: string): string => (/^%(00)?$/.test(text) ? text : encodeURIComponent(text))

export type NewCase = Omit<HostileCase, 'name' | 'headers' | 'path'> & { name: string; path: string; headers?: Array<[string, string]> }

/**
 * What each family of hand-written cases writes with: one seeded stream and one numbered list,
 * shared in a fixed order, so that a seed always yields the same cases under the same numbers.
 */
export interface CaseWriter {
  rng: Rng
  creds: HostileCredentials
  add(c: NewCase): void
}
