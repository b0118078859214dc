// A seeded, deterministic generator of malformed requests for every endpoint the sandbox serves,
// and a sender that signs them like an outside client. The same seed always yields the same
// cases; nothing here reads Math.random. Hand-written cases probe each endpoint's own rules;
// route cases, derived from the app's router stack, reach every route, new ones included.
import type { Express } from 'express'
import { parseJsonBody } from '../sandbox/http/body.js'
import { signDigest } from '../src/signing.js'
import { refusedWebhookUrls } from './address-forms.js'
import { readResponse, type RawResponse } from './sandbox.js'

/** mulberry32: a tiny, well-mixed 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export class Rng {
  readonly #next: () => number
  constructor(seed: number) {
    this.#next = mulberry32(seed)
  }
  float(): number {
    return this.#next()
  }
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.#next() * (max - min + 1))
  }
  chance(probability: number): boolean {
    return this.#next() < probability
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list')
    return items[this.int(0, items.length - 1)]!
  }
  /** `count` distinct items in random order (all of them when count >= length). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items]
    for (let i = pool.length - 1; i > 0; i--) {
      const j = this.int(0, i)
      ;[pool[i], pool[j]] = [pool[j]!, pool[i]!]
    }
    return pool.slice(0, Math.min(count, pool.length))
  }
  hex(length: number): string {
    let out = ''
    for (let i = 0; i < length; i++) out += '0123456789abcdef'[this.int(0, 15)]
    return out
  }
  /** Text over `alphabet`; the default mixes ASCII, accents, CJK, emoji and JSON-special characters. */
  text(min: number, max: number, alphabet: readonly string[] = TEXT_ALPHABET): string {
    const length = this.int(min, max)
    let out = ''
    for (let i = 0; i < length; i++) out += this.pick(alphabet)
    return out
  }
}

// No '.', ':' or runs of spaces: generated text can never look like a stack frame ("    at ", ".ts:").
const TEXT_ALPHABET = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_ ',
  'é',
  'ß',
  'ñ',
  '中',
  '文',
  '🙂',
  '💸',
  '"',
  '\\',
  '/',
  '<',
  '>',
  '&',
  "'",
  '\u200b',
  '\u0007',
  '\n',
  '\t',
]
const KEY_ALPHABET = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$']

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

const error = (status: number): Expectation => ({ kind: 'error', status })
const page = (status: number): Expectation => ({ kind: 'page', status })

const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'MXN', 'BRL']
export const MAX_BODY_BYTES = 256 * 1024

/** JSON text spliced in verbatim where a value `raw(text)` stands (numbers JSON.stringify cannot write). */
const RAW_MARK = '@@raw@@'
const raw = (text: string): string => `${RAW_MARK}${text}${RAW_MARK}`
const toJson = (value: unknown): string => JSON.stringify(value).replace(/"@@raw@@(.*?)@@raw@@"/g, '$1')

/** Sets a property even when its name is "__proto__". */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true })
}

type Body = Record<string, unknown> & { amount: Record<string, unknown> }

/** A body the direct merchant could create a payment with; cases then break it. */
function validBody(rng: Rng): Body {
  const body: Body = {
    amount: { value: rng.int(1, 1_000_000), currency: rng.pick(CURRENCIES) },
    description: `Order ${rng.text(1, 30)}x`,
  }
  if (rng.chance(0.3)) body.redirectUrl = `https://shop.example/thanks/${rng.hex(6)}`
  if (rng.chance(0.2)) body.cancelUrl = `https://shop.example/cancel/${rng.hex(6)}`
  if (rng.chance(0.2)) body.webhookUrl = `http://127.0.0.1:9/hook/${rng.hex(6)}`
  if (rng.chance(0.2)) body.name = `Store ${rng.hex(4)}`
  if (rng.chance(0.2)) body.locale = rng.pick(['en', 'es'])
  if (rng.chance(0.2)) body.metadata = { orderId: rng.hex(8), nested: { n: rng.int(0, 9) } }
  if (rng.chance(0.15)) body.partnerId = `partner-${rng.hex(4)}`
  if (rng.chance(0.15)) body.storeId = `store-${rng.hex(4)}`
  if (rng.chance(0.2)) body.expiresInHours = rng.int(1, 72)
  return body
}

function setField(body: Body, field: PaymentField, value: unknown): Body {
  if (field === 'amount.value' || field === 'amount.currency') {
    body.amount = { ...body.amount }
    setOwn(body.amount, field.slice('amount.'.length), value)
  } else {
    setOwn(body, field, value)
  }
  return body
}

// Values of the wrong JSON type for each field. null only where the field is required.
const NOT_A_STRING: unknown[] = [0, 42, -1.5, 1e308, true, false, [], ['x'], {}, { text: 'x' }, [null]]
const NOT_A_NUMBER: unknown[] = [
  '100',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '1e2',
  '1_000',
  ' 100',
  '',
  true,
  false,
  [],
  [100],
  {},
  { value: 1 },
]
const NOT_AN_OBJECT: unknown[] = ['100 USD', 100, 0, true, [], [100, 'USD'], 'null', '{}']
const WRONG_TYPES: Record<PaymentField, unknown[]> = {
  amount: [...NOT_AN_OBJECT, null],
  'amount.value': [...NOT_A_NUMBER, null],
  'amount.currency': [...NOT_A_STRING, null],
  description: [...NOT_A_STRING, null],
  redirectUrl: NOT_A_STRING,
  cancelUrl: NOT_A_STRING,
  webhookUrl: NOT_A_STRING,
  name: NOT_A_STRING,
  locale: NOT_A_STRING,
  metadata: ['{}', 'a=b', 42, true, [], ['a', 'b'], [{ a: 1 }]],
  partnerId: NOT_A_STRING,
  storeId: NOT_A_STRING,
  expiresInHours: NOT_A_NUMBER,
  escrowPayee: NOT_A_STRING,
  escrowPlatformFee: NOT_A_NUMBER,
  escrowExpiresAt: [...NOT_A_STRING, 1_893_456_000_000],
}

// Values of the right type but outside the rules (for the escrow fields: as the escrow merchant).
const BAD_URLS = [
  '',
  'not a url',
  'javascript:alert(1)',
  'ftp://example.com/x',
  '//example.com/x',
  'example.com',
  'mailto:a@b.example',
  'file:///etc/passwd',
  'data:text/html,hi',
  'http://exa mple.com',
  `https://example.com/${'a'.repeat(2100)}`,
]
const BAD_NUMBERS_TEXT = ['1e400', '-1e400', '1E999', '-0.0', '1e-400']
const BAD_VALUES: Record<PaymentField, unknown[]> = {
  amount: [{}, { value: 100 }, { currency: 'USD' }, { value: 100, currency: 'USD', decimals: 2 }],
  'amount.value': [
    0,
    -1,
    -100,
    0.5,
    1.5,
    100.25,
    100_000_000_001,
    1e15,
    1e308,
    9007199254740993,
    1e-7,
    ...BAD_NUMBERS_TEXT.map(raw),
    raw('123456789012345678901234567890'),
  ],
  'amount.currency': ['usd', 'US', 'USDD', '', ' USD', 'USD ', 'XXX', 'BTC', 'USDC', 'ＵＳＤ', 'U\u200bSD'],
  description: ['', '   ', '\t\n ', 'x'.repeat(1001), 'é'.repeat(1001), 'y'.repeat(100_000)],
  redirectUrl: BAD_URLS,
  cancelUrl: BAD_URLS,
  webhookUrl: BAD_URLS,
  name: ['', '   ', 'n'.repeat(201)],
  locale: ['fr', 'EN', 'en-US', '', 'es ', 'english'],
  metadata: [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])), { blob: 'm'.repeat(9000) }, { ['k'.repeat(41)]: 1 }],
  partnerId: ['', '  ', 'p'.repeat(256)],
  storeId: ['', '  ', 's'.repeat(256)],
  expiresInHours: [0, -1, -0.5, 8761, 1e9, raw('1e400'), raw('-0')],
  escrowPayee: ['', 'GABC', `G${'A'.repeat(55)}`, 'not-an-address', 'g'.repeat(65), `S${'A'.repeat(55)}`],
  escrowPlatformFee: [-1, 10_001, 1.5, 1e9, -0.5],
  escrowExpiresAt: [
    '2001-01-01T00:00:00Z',
    '2030-01-01',
    '2030-01-01T00:00:00',
    '2030-13-01T00:00:00Z',
    '2030-02-30T00:00:00Z',
    'tomorrow',
    '1893456000',
    '',
    '2030-01-01T24:00:00Z',
    '2030-01-01T00:00:00+25:00',
  ],
}
const ESCROW_FIELDS: readonly PaymentField[] = ['escrowPayee', 'escrowPlatformFee', 'escrowExpiresAt']

const UNKNOWN_KEYS = [
  'amout',
  'Amount',
  'DESCRIPTION',
  'redirect_url',
  'webhook_url',
  'expires_in_hours',
  'status',
  'id',
  'merchantId',
  'settlement_mode',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '',
  ' ',
  'description ',
  'amount\u0000',
  'ключ',
  '🙂',
  '$where',
]
const UNKNOWN_AMOUNT_KEYS = ['decimals', 'precision', 'Value', 'currency ', 'amount', '__proto__', 'usdc']

const MALFORMED_JSON: Array<(valid: string, rng: Rng) => string> = [
  (v, rng) => v.slice(0, rng.int(1, v.length - 1)),
  (v) => `${v.slice(0, -1)},}`,
  (v) => v.replaceAll('"', "'"),
  (v) => v.replace(/"(\w+)":/g, '$1:'),
  (v) => `/* comment */${v}`,
  (v) => `${v} // trailing`,
  (v) => `${v}x`,
  (v) => `${v}${v}`,
  (v) => `${v},`,
  (v) => `\ufeff${v}`,
  (v) => v.replace(/"value":\d+/, '"value":NaN'),
  (v) => v.replace(/"value":\d+/, '"value":Infinity'),
  (v) => v.replace(/"value":\d+/, '"value":-Infinity'),
  (v) => v.replace(/"value":\d+/, '"value":0x10'),
  (v) => v.replace(/"value":\d+/, '"value":+1'),
  (v) => v.replace(/"value":\d+/, '"value":01'),
  (v) => v.replace(/"value":\d+/, '"value":.5'),
  (v) => v.replace(/"value":\d+/, '"value":1.'),
  (v) => v.replace(/"value":\d+/, '"value":undefined'),
  (v) => v.replace('"description":"', '"description":"line\nbreak'),
  (v) => v.replace('"description":"', '"description":"tab\there'),
  (v) => v.replace('"description":"', '"description":"nul\u0000'),
  (v) => v.replace('"description":"', '"description":"\\x41'),
  (v) => v.replace('"description":"', '"description":"\\u12G4'),
  (v) => v.replace('"description":"', '"description":"\\'),
  (v) => v.replace(':', ' '),
  (v) => v.replace(/:[^,]*,/, ':,'),
  () => '{,}',
  () => '}',
  () => '{"a":}',
  () => '{"a" 1}',
  () => 'undefined',
  () => "{'amount': {'value': 100, 'currency': 'USD'}, 'description': 'x'}",
  () => 'amount=100&currency=USD&description=x',
  () => '<payment><amount>100</amount></payment>',
  () => '[1, 2',
  () => '"unterminated',
  () => 'nul',
  () => 'True',
]

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'text/json',
  'application/jsonp',
  'application/json5',
  'json',
  'application/',
  '*/*',
  'application/javascript',
  '',
  'application/octet-stream',
  `application/${'json+'.repeat(1000)}x`,
]
/** Accepted as JSON by the sandbox: invalid bodies sent with them must reach validation. */
const JSON_CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'application/json;charset=latin1',
]

const INVALID_UTF8: number[][] = [
  [0xff],
  [0xfe],
  [0xc3, 0x28],
  [0xa0, 0xa1],
  [0xe2, 0x28, 0xa1],
  [0xe2, 0x82, 0x28],
  [0xf0, 0x28, 0x8c, 0xbc],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
]

const BAD_QUERY: Array<[string, string]> = [
  ['page', '0'],
  ['page', '-1'],
  ['page', 'abc'],
  ['page', '1.5'],
  ['page', '1e3'],
  ['page', ''],
  ['page', '1000001'],
  ['page', '9999999999'],
  ['page', '01x'],
  ['page', ' 1'],
  ['page', '+1'],
  ['page', '0x1'],
  ['page', '%00'],
  ['page', 'NaN'],
  ['page', 'Infinity'],
  ['page', '１'],
  ['page', '%'],
  ['limit', '0'],
  ['limit', '101'],
  ['limit', 'abc'],
  ['limit', '-1'],
  ['limit', '1000'],
  ['limit', ''],
  ['limit', '1.0'],
  ['limit', '100.5'],
  ['limit', '1e2'],
  ['limit', '99999999999'],
  ['limit', 'null'],
  ['status', 'OPEN'],
  ['status', 'bogus'],
  ['status', ''],
  ['status', 'open,paid'],
  ['status', 'open '],
  ['status', 'refunded'],
  ['startDate', '2024-13-01'],
  ['startDate', '2024-02-30'],
  ['startDate', '2023-02-29'],
  ['startDate', 'yesterday'],
  ['startDate', '1700000000'],
  ['startDate', '2024-01-01T25:00:00Z'],
  ['startDate', '2024-01-01T00:00:00'],
  ['startDate', '2024/01/01'],
  ['startDate', ''],
  ['endDate', '01-01-2024'],
  ['endDate', '2024-1-1'],
  ['endDate', '20240101'],
  ['endDate', '2024-01-01T00:00:00+25:00'],
  ['endDate', '2024-01-01 00:00:00Z'],
  ['endDate', 'now'],
  ['endDate', '2024-04-31'],
  ['storeId', ''],
  ['storeId', 's'.repeat(256)],
  ['pageSize', '10'],
  ['per_page', '10'],
  ['offset', '5'],
  ['sort', 'created_at'],
  ['Page', '1'],
  ['LIMIT', '5'],
  ['__proto__', '1'],
  ['constructor', 'x'],
  ['toString', 'x'],
  ['page[]', '1'],
  ['page[a]', '1'],
  ['status[]', 'open'],
  ['', 'x'],
  ['q', "' OR 1=1 --"],
]
const VALID_QUERY: Array<[string, string]> = [
  ['page', '2'],
  ['limit', '5'],
  ['status', 'open'],
  ['storeId', 'store-1'],
  ['startDate', '2024-01-01'],
  ['endDate', '2030-01-01T00:00:00Z'],
]

const encodeQuery = (pairs: Array<[string, string]>): string =>
  pairs.map(([k, v]) => `${encodeQueryPart(k)}=${encodeQueryPart(v)}`).join('&')
// Keep a deliberately broken escape ("%", "%00") as written; encode everything else.
const encodeQueryPart = (text: string): string => (/^%(00)?$/.test(text) ? text : encodeURIComponent(text))

/** Credentials are inputs so cases can carry near-miss variants; signing (it needs the time) is `sendHostile`'s. */
export function generateHostileCases(seed: number, creds: HostileCredentials): HostileCase[] {
  const rng = new Rng(seed)
  const cases: HostileCase[] = []
  const add = (c: Omit<HostileCase, 'name' | 'headers' | 'path'> & { name: string; path: string; headers?: Array<[string, string]> }) => {
    cases.push({ ...c, name: `#${cases.length} ${c.method} ${c.name}`, path: onTheWire(c.path), headers: c.headers ?? [] })
  }
  const post = (family: string, name: string, body: string | Uint8Array, status: number, extra: Partial<HostileCase> = {}) =>
    add({
      endpoint: 'POST /payments',
      family,
      method: 'POST',
      path: '/payments',
      name: `/payments ${family}: ${name}`,
      body,
      signAs: 'direct',
      expect: error(status),
      ...extra,
    })

  // --- POST /payments: a wrong JSON type for every field -------------------------------------
  for (const field of PAYMENT_FIELDS) {
    for (const value of rng.sample(WRONG_TYPES[field], 4)) {
      const signAs: Signer = ESCROW_FIELDS.includes(field) && rng.chance(0.5) ? 'escrow' : 'direct'
      post('wrong-type', `${field} = ${JSON.stringify(value)} as ${signAs}`, toJson(setField(validBody(rng), field, value)), 400, {
        field,
        signAs,
      })
    }
  }
  // --- POST /payments: right type, value outside the rules --------------------------------------
  for (const field of PAYMENT_FIELDS) {
    for (const value of rng.sample(BAD_VALUES[field], BAD_VALUES[field].length)) {
      const signAs: Signer = ESCROW_FIELDS.includes(field) ? 'escrow' : 'direct'
      const text = toJson(setField(validBody(rng), field, value))
      post('bad-value', `${field} = ${text.length > 120 ? `<${text.length} bytes>` : toJson(value)}`, text, 400, { field, signAs })
    }
  }
  // Escrow fields are refused outright for a direct merchant, even when well formed.
  for (const [field, value] of [
    ['escrowPayee', 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'],
    ['escrowPlatformFee', 250],
    ['escrowExpiresAt', '2099-01-01T00:00:00Z'],
  ] as const) {
    post('escrow-on-direct', `${field} sent by a direct merchant`, toJson(setField(validBody(rng), field, value)), 400, { field })
  }
  // --- POST /payments: missing required fields ------------------------------------------------
  const missing: Array<[string, (body: Record<string, unknown>, amount: Record<string, unknown>) => void]> = [
    ['amount', (b) => delete b.amount],
    ['description', (b) => delete b.description],
    ['amount.value', (_b, a) => delete a.value],
    ['amount.currency', (_b, a) => delete a.currency],
    ['amount and description', (b) => (delete b.amount, delete b.description)],
    ['everything', (b) => Object.keys(b).forEach((k) => delete b[k])],
  ]
  for (const [what, drop] of missing) {
    for (let i = 0; i < 2; i++) {
      const body: Record<string, unknown> = validBody(rng)
      const amount = { ...(body.amount as Record<string, unknown>) }
      body.amount = amount
      drop(body, amount)
      post('missing', what, toJson(body), 400)
    }
  }
  // --- POST /payments: unknown fields, top level and inside amount ---------------------------------
  for (const key of UNKNOWN_KEYS) {
    const body = validBody(rng)
    setOwn(body, key, rng.pick<unknown>([1, 'x', null, true, {}, []]))
    post('unknown-field', JSON.stringify(key), toJson(body), 400)
  }
  for (const key of UNKNOWN_AMOUNT_KEYS) {
    const body = validBody(rng)
    body.amount = { ...body.amount }
    setOwn(body.amount, key, rng.int(0, 9))
    post('unknown-field', `amount.${key}`, toJson(body), 400)
  }
  for (let i = 0; i < 4; i++) {
    const body = validBody(rng)
    const key = rng.text(100, 20_000, KEY_ALPHABET)
    setOwn(body, key, rng.text(0, 10))
    post('unknown-field', `random key of ${key.length} chars`, toJson(body), 400)
  }
  // Duplicate keys: JSON.parse keeps the last, which is invalid here.
  post(
    'duplicate-key',
    'description then empty description',
    '{"amount":{"value":100,"currency":"USD"},"description":"ok","description":""}',
    400,
  )
  post('duplicate-key', 'amount then string amount', '{"amount":{"value":100,"currency":"USD"},"description":"ok","amount":"100"}', 400)
  // --- POST /payments: huge strings --------------------------------------------------------------
  for (const field of ['description', 'name', 'redirectUrl', 'partnerId', 'storeId', 'locale', 'amount.currency', 'escrowPayee'] as const) {
    const size = rng.int(5_000, 200_000)
    const filler = field === 'redirectUrl' ? `https://example.com/${'p'.repeat(size)}` : rng.text(size, size, KEY_ALPHABET)
    post('huge-string', `${field} of ${filler.length} chars`, toJson(setField(validBody(rng), field, filler)), 400, { field })
  }
  // --- POST /payments: deep nesting ----------------------------------------------------------------
  for (const depth of [33, 100, 10_000, 40_000]) {
    post('deep-nesting', `array ${depth} levels`, `${'['.repeat(depth)}${']'.repeat(depth)}`, 400)
    post('deep-nesting', `object ${depth} levels`, `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`, 400)
  }
  for (const depth of [32, 10_000]) {
    const body = validBody(rng)
    delete body.metadata
    const valid = toJson(body)
    post(
      'deep-nesting',
      `metadata ${depth} levels`,
      valid.replace(/^\{/, `{"metadata":${'{"m":'.repeat(depth)}1${'}'.repeat(depth)},`),
      400,
      { field: 'metadata' },
    )
    post(
      'deep-nesting',
      `amount.value ${depth} levels of arrays`,
      valid.replace(/"value":\d+/, `"value":${'['.repeat(depth)}1${']'.repeat(depth)}`),
      400,
      { field: 'amount.value' },
    )
  }
  post('deep-nesting', 'unterminated 10000 levels', '['.repeat(10_000), 400)
  // --- POST /payments: malformed JSON -----------------------------------------------------------------
  for (const [i, breakIt] of MALFORMED_JSON.entries()) {
    const text = breakIt(toJson(validBody(rng)), rng)
    let parses = true
    try {
      JSON.parse(text)
    } catch {
      parses = false
    }
    if (parses) throw new Error(`malformed-json breaker ${i} produced valid JSON: ${text}`)
    post('malformed-json', `breaker ${i}: ${JSON.stringify(text.slice(0, 60))}`, text, 400)
  }
  // The same malformed text unsigned: body parsing comes before authentication.
  for (let i = 0; i < 4; i++) {
    const text = toJson(validBody(rng)).slice(0, -1)
    post('malformed-json', `unsigned, truncated ${i}`, text, 400, { signAs: undefined })
  }
  // --- POST /payments: a whole body that is not an object ---------------------------------------------
  for (const text of [
    '[]',
    `[${toJson(validBody(rng))}]`,
    '"string"',
    '""',
    'null',
    '0',
    '-1',
    '1e400',
    'true',
    'false',
    '   ',
    '\n\t',
    '{}',
    '[[]]',
  ]) {
    post('not-an-object', JSON.stringify(text), text, 400)
  }
  // --- POST /payments: invalid UTF-8 ---------------------------------------------------------------------
  for (const bad of INVALID_UTF8) {
    const text = toJson(validBody(rng))
    const at = text.indexOf('"description":"') + '"description":"'.length
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bad), Buffer.from(text.slice(at))])
    post('invalid-utf8', `bytes ${Buffer.from(bad).toString('hex')} inside description`, bytes, 400, {
      headers: [['content-type', 'application/json']],
    })
  }
  post(
    'invalid-utf8',
    'truncated multibyte at the end',
    Buffer.concat([Buffer.from(toJson(validBody(rng))), Buffer.from([0xe2, 0x82])]),
    400,
    { headers: [['content-type', 'application/json']] },
  )
  for (let i = 0; i < 3; i++) {
    const noise = Buffer.from([0xff, ...Array.from({ length: rng.int(10, 400) }, () => rng.int(0, 255))])
    post('invalid-utf8', `${noise.length} random bytes`, noise, 400, { headers: [['content-type', 'application/json']] })
  }
  post('invalid-utf8', 'no content-type at all', Buffer.from([0x7b, 0xff, 0x7d]), 400)
  // --- POST /payments and others: bodies over the 256 KiB limit ---------------------------------------------
  const oversized = (bytes: number): string => {
    const body = validBody(rng)
    const overhead = Buffer.byteLength(toJson({ ...body, description: '' }))
    return toJson({ ...body, description: 'o'.repeat(bytes - overhead) })
  }
  post('oversized', `${MAX_BODY_BYTES} bytes (exactly the limit)`, oversized(MAX_BODY_BYTES), 400)
  for (const bytes of [MAX_BODY_BYTES + 1, 300 * 1024, 1024 * 1024, 3 * 1024 * 1024]) {
    post('oversized', `${bytes} bytes`, oversized(bytes), 413)
  }
  post('oversized', 'over the limit, unsigned', oversized(MAX_BODY_BYTES + 1000), 413, { signAs: undefined })
  post('oversized', 'over the limit, malformed', `${oversized(MAX_BODY_BYTES + 10)}}}`, 413)
  post('oversized', 'over the limit, text/plain', oversized(MAX_BODY_BYTES + 10), 413, { headers: [['content-type', 'text/plain']] })
  post('oversized', 'over the limit, 140000 levels deep', `${'['.repeat(140_000)}${']'.repeat(140_000)}`, 413)
  // --- POST /payments: content types ---------------------------------------------------------------
  for (const type of WRONG_CONTENT_TYPES) {
    post('content-type', `valid body as ${JSON.stringify(type.slice(0, 40))}`, toJson(validBody(rng)), 415, {
      headers: [['content-type', type]],
    })
  }
  for (const type of JSON_CONTENT_TYPES) {
    const body = validBody(rng)
    delete body.description
    post('content-type', `JSON as ${JSON.stringify(type)}, description missing`, toJson(body), 400, { headers: [['content-type', type]] })
  }
  // --- POST /payments: headers --------------------------------------------------------------------
  for (const length of [256, 1000, 8000]) {
    post('idempotency-key', `${length} characters on a valid body`, toJson(validBody(rng)), 400, {
      headers: [['idempotency-key', 'k'.repeat(length)]],
    })
  }
  post('idempotency-key', 'empty on a valid body', toJson(validBody(rng)), 400, { headers: [['idempotency-key', '']] })
  post('idempotency-key', 'two 200-char keys (joined: 402) on a valid body', toJson(validBody(rng)), 400, {
    headers: [
      ['idempotency-key', 'a'.repeat(200)],
      ['idempotency-key', 'b'.repeat(200)],
    ],
  })
  post('idempotency-key', 'duplicated short key on an invalid body', toJson(setField(validBody(rng), 'amount.value', -5)), 400, {
    headers: [
      ['idempotency-key', 'dup-1'],
      ['idempotency-key', 'dup-2'],
    ],
  })
  post('idempotency-key', 'latin-1 garbage key on an invalid body', toJson(setField(validBody(rng), 'locale', 'xx')), 400, {
    headers: [['idempotency-key', '\u00ff\u00fe\u0080 key \u00e9']],
  })
  const digest = (key: string, timestamp: string, signature: string): Array<[string, string]> => [
    ['x-digest-key', key],
    ['x-digest-timestamp', timestamp],
    ['x-digest-signature', signature],
  ]
  const garbageDigest: Array<[string, Array<[string, string]>]> = [
    ['timestamp empty', digest(creds.direct.apiKey, '', '{{sig}}')],
    ['timestamp abc', digest(creds.direct.apiKey, 'abc', '{{sig}}')],
    ['timestamp 1e9', digest(creds.direct.apiKey, '1e9', '{{sig}}')],
    ['timestamp negative', digest(creds.direct.apiKey, '-{{now}}', '{{sig}}')],
    ['timestamp hex', digest(creds.direct.apiKey, '0x10', '{{sig}}')],
    ['timestamp 13 digits', digest(creds.direct.apiKey, '1234567890123', '{{sig}}')],
    ['timestamp zero', digest(creds.direct.apiKey, '0', '{{sig}}')],
    ['timestamp in milliseconds', digest(creds.direct.apiKey, '{{now}}000', '{{sig}}')],
    ['timestamp with fraction', digest(creds.direct.apiKey, '{{now}}.5', '{{sig}}')],
    ['timestamp latin-1', digest(creds.direct.apiKey, '\u00bd', '{{sig}}')],
    ['key unknown', digest(`pk_test_${'0'.repeat(32)}`, '{{now}}', '{{sig}}')],
    ['key 8000 chars', digest('k'.repeat(8000), '{{now}}', '{{sig}}')],
    ['key is the secret', digest(creds.direct.apiSecret, '{{now}}', '{{sig}}')],
    ['key with SQL', digest("' OR '1'='1", '{{now}}', '{{sig}}')],
    ['key latin-1', digest('\u00e9\u00ff', '{{now}}', '{{sig}}')],
    ['signature not hex', digest(creds.direct.apiKey, '{{now}}', 'z'.repeat(64))],
    ['signature 8000 chars', digest(creds.direct.apiKey, '{{now}}', 'a'.repeat(8000))],
    ['signature base64', digest(creds.direct.apiKey, '{{now}}', Buffer.from('x'.repeat(32)).toString('base64'))],
    ['signature empty', digest(creds.direct.apiKey, '{{now}}', '')],
    ['key duplicated', [['x-digest-key', creds.direct.apiKey], ...digest(creds.direct.apiKey, '{{now}}', '{{sig}}')]],
    ['timestamp duplicated', [['x-digest-timestamp', '{{now}}'], ...digest(creds.direct.apiKey, '{{now}}', '{{sig}}')]],
    ['signature duplicated', [['x-digest-signature', '{{sig}}'], ...digest(creds.direct.apiKey, '{{now}}', '{{sig}}')]],
    ['key of the escrow merchant, signed with the direct secret', digest(creds.escrow.apiKey, '{{now}}', '{{sig}}')],
  ]
  for (const [what, headers] of garbageDigest) {
    post('digest-headers', what, toJson(validBody(rng)), 401, { headers })
  }
  const junkHeaders: Array<[string, string]> = [
    ['x-junk', 'j'.repeat(8000)],
    ['x-forwarded-for', '999.999.999.999, <script>'],
    ['accept', 'text/html'],
    ['accept-encoding', 'br;q=2, *;q=-1'],
    ['user-agent', '\u00ff'.repeat(100)],
    ['x-digest-extra', 'surprise'],
    ['content-language', 'zz-ZZ'],
    ['cookie', 'a=b; '.repeat(500)],
  ]
  for (const header of junkHeaders) {
    post('junk-header', `${header[0]} on an invalid body`, toJson(setField(validBody(rng), 'amount.value', 0)), 400, { headers: [header] })
  }
  post('content-encoding', 'gzip claimed, plain text sent', toJson(validBody(rng)), 400, { headers: [['content-encoding', 'gzip']] })
  post('content-encoding', 'unknown coding', toJson(validBody(rng)), 415, { headers: [['content-encoding', 'rot13']] })
  // Signed over its exact bytes, BOM included: refused as malformed JSON, not as a bad signature.
  post('bom', 'BOM before a valid body, signed over the exact bytes', `\ufeff${toJson(validBody(rng))}`, 400)
  // Unsigned requests with a well-formed body stop at authentication.
  for (let i = 0; i < 3; i++) post('unsigned', `valid body ${i}`, toJson(validBody(rng)), 401, { signAs: undefined })
  post('wrong-signer', 'signed over a different body', toJson(validBody(rng)), 401, { signBody: toJson(validBody(rng)) })

  // --- GET /payments: bad query strings --------------------------------------------------------------
  const list = (name: string, query: string, status: number, signer: Signer | 'unsigned' = 'direct') =>
    add({
      endpoint: 'GET /payments',
      family: 'query',
      method: 'GET',
      path: `/payments?${query}`,
      name: `/payments?${name}`,
      signAs: signer === 'unsigned' ? undefined : signer,
      expect: error(status),
    })
  for (const bad of BAD_QUERY) {
    const others = rng.sample(
      VALID_QUERY.filter(([k]) => k !== bad[0]),
      rng.int(0, 2),
    )
    const pairs = rng.sample([bad, ...others], 3)
    list(encodeQuery(pairs).slice(0, 120), encodeQuery(pairs), 400)
  }
  for (const [name, value] of [
    ['page', '1'],
    ['limit', '5'],
    ['status', 'open'],
    ['startDate', '2024-01-01'],
  ]) {
    list(`${name} repeated`, `${name}=${value}&${name}=${value}`, 400)
  }
  list('page repeated three times', 'page=1&page=2&page=3', 400)
  list('limit empty key and value', 'limit=5&=', 400)
  list('huge unknown parameter', `${'u'.repeat(3000)}=${'v'.repeat(3000)}`, 400)
  list('page=0 unsigned', 'page=0', 401, 'unsigned')
  list('limit=101 unsigned', 'limit=101', 401, 'unsigned')

  // --- GET /payments/{id} -----------------------------------------------------------------------------------
  const get = (name: string, path: string, status: number, signer: Signer | 'unsigned' = 'direct', method = 'GET') =>
    add({
      endpoint: 'GET /payments/{id}',
      family: 'payment-id',
      method,
      path,
      name,
      signAs: signer === 'unsigned' ? undefined : signer,
      expect: error(status),
    })
  for (let i = 0; i < 6; i++) get(`unknown id ${i}`, `/payments/pt_${rng.hex(32)}`, 404)
  for (const id of [
    `pt_${rng.hex(31)}`,
    `pt_${rng.hex(33)}`,
    `PT_${rng.hex(32)}`,
    `pt_${rng.hex(32).toUpperCase()}`,
    `pt_${'g'.repeat(32)}`,
    `inv_${rng.hex(32)}`,
    'null',
    'undefined',
    '0',
    '-1',
    'x'.repeat(65),
    'y'.repeat(5000),
    `pt_${rng.hex(32)}'--`,
    'é中🙂',
    '%00',
    '%2F%2F',
    'a%2Fb',
    '%20',
    '*',
    '$',
    'pt_%00',
  ]) {
    get(`id ${JSON.stringify(id.length > 40 ? `${id.slice(0, 20)}…(${id.length})` : id)}`, `/payments/${id}`, 404)
  }
  for (const id of ['%', '%Z', '%ZZ', '%E0%A4%A', '%C3', '%FF', '%ED%A0%80', `pt_${rng.hex(8)}%`]) {
    get(`undecodable id ${JSON.stringify(id)}`, `/payments/${id}`, 400)
  }
  for (const suffix of ['/extra', '/refunds', '/accept-underpayment']) get(`id${suffix}`, `/payments/pt_${rng.hex(32)}${suffix}`, 404)
  for (const method of ['PUT', 'PATCH', 'DELETE']) get(`${method} of an id`, `/payments/pt_${rng.hex(32)}`, 404, 'direct', method)
  for (let i = 0; i < 3; i++) get(`unsigned id ${i}`, `/payments/pt_${rng.hex(32)}`, 401, 'unsigned')

  // --- GET /currencies ---------------------------------------------------------------------------------------
  const cur = (name: string, extra: Partial<HostileCase> & { expect: Expectation }, path = '/currencies', method = 'GET') =>
    add({ endpoint: 'GET /currencies', family: 'currencies', method, path, name: `${path} ${name}`, ...extra })
  cur('unsigned', { expect: error(401) })
  cur('unsigned with a query', { expect: error(401) }, '/currencies?code=USD')
  for (const [what, headers] of rng.sample(garbageDigest, 10)) cur(`digest ${what}`, { headers, signAs: 'direct', expect: error(401) })
  cur('signed over another path', {
    signAs: 'direct',
    expect: error(401),
    headers: [
      ['x-digest-key', creds.direct.apiKey],
      ['x-digest-timestamp', '{{now}}'],
      ['x-digest-signature', '{{sig:/payments}}'],
    ],
  })
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
    cur(`signed ${method}`, { signAs: 'direct', body: '{"code":"USD"}', expect: error(404) }, '/currencies', method)
  cur('signed POST, malformed JSON', { signAs: 'direct', body: '{"code":', expect: error(400) }, '/currencies', 'POST')
  cur(
    'signed POST, text/plain',
    { signAs: 'direct', body: 'USD', headers: [['content-type', 'text/plain']], expect: error(415) },
    '/currencies',
    'POST',
  )
  cur('signed POST, oversized', { signAs: 'direct', body: oversized(MAX_BODY_BYTES + 1), expect: error(413) }, '/currencies', 'POST')
  cur('signed, sub-path', { signAs: 'direct', expect: error(404) }, '/currencies/USD')
  cur('signed, undecodable sub-path', { signAs: 'escrow', expect: error(404) }, '/currencies/%ZZ')

  // --- GET /sandbox/merchants ----------------------------------------------------------------------------------
  const admin = (
    name: string,
    headers: Array<[string, string]>,
    status: number,
    path = '/sandbox/merchants',
    method = 'GET',
    body?: string,
    signAs?: Signer,
  ) =>
    add({
      endpoint: 'GET /sandbox/merchants',
      family: 'admin',
      method,
      path,
      name: `${path} ${name}`,
      headers,
      body,
      signAs,
      expect: error(status),
    })
  const token = creds.adminToken
  admin('without a token', [], 401)
  admin('with an empty token', [['x-sandbox-admin-token', '']], 401)
  for (const wrong of [
    token.slice(0, -1),
    `${token}x`,
    token.toUpperCase() === token ? `${token}0` : token.toUpperCase(),
    rng.hex(token.length),
    'admin',
    't'.repeat(8000),
    '\u00ff\u00fe',
    creds.direct.apiSecret,
    creds.direct.apiKey,
  ]) {
    admin(`with a wrong token (${wrong.length} chars)`, [['x-sandbox-admin-token', wrong]], 401)
  }
  admin(
    'with the token sent twice',
    [
      ['x-sandbox-admin-token', token],
      ['x-sandbox-admin-token', token],
    ],
    401,
  )
  admin('with the token in another header', [['authorization', `Bearer ${token}`]], 401)
  admin('with digest headers instead of the token', [], 401, '/sandbox/merchants', 'GET', undefined, 'direct')
  admin('with the token, unknown sub-path', [['x-sandbox-admin-token', token]], 404, '/sandbox/merchants/x')
  admin('with the token, unknown admin route', [['x-sandbox-admin-token', token]], 404, '/sandbox/nope')
  for (const bad of [
    '{"name":"x"}',
    '{"name":"","settlement_mode":"direct"}',
    '{"name":"x","settlement_mode":"both"}',
    '{"name":"x","settlement_mode":"direct","escrow_fee_bps":100}',
    '{"name":"x","settlement_mode":"escrow","escrow_fee_bps":10001}',
    '{"name":"x","settlement_mode":"escrow","escrow_fee_bps":2.5}',
    '{"name":"x","settlement_mode":"direct","apiKey":"pk"}',
  ]) {
    admin(`with the token, create ${bad.slice(0, 50)}`, [['x-sandbox-admin-token', token]], 400, '/sandbox/merchants', 'POST', bad)
  }
  admin('without the token, create', [], 401, '/sandbox/merchants', 'POST', '{"name":"x","settlement_mode":"direct"}')
  admin('with the token, DELETE', [['x-sandbox-admin-token', token]], 404, '/sandbox/merchants', 'DELETE')
  admin('with the token, malformed JSON', [['x-sandbox-admin-token', token]], 400, '/sandbox/merchants', 'POST', '{"name":')
  admin('without the token, oversized', [], 413, '/sandbox/merchants', 'POST', oversized(MAX_BODY_BYTES + 1))
  // Only named controls take the admin token; an unknown /sandbox path is simply not found.
  admin('without the token, undecodable path', [], 404, '/sandbox/%ZZ')
  admin('without the token, undecodable clock sub-path', [], 401, '/sandbox/clock/%ZZ')

  // --- GET /health -----------------------------------------------------------------------------------------
  const health = (name: string, path: string, expect: Expectation, extra: Partial<HostileCase> = {}, method = 'GET') =>
    add({ endpoint: 'GET /health', family: 'health', method, path, name: `${path} ${name}`, expect, ...extra })
  health(
    'with junk query',
    `/health?${encodeQuery([
      ['page', '0'],
      ['x', rng.text(5, 50)],
    ])}`,
    { kind: 'health' },
  )
  health(
    'with junk headers',
    '/health',
    { kind: 'health' },
    {
      headers: [
        ['x-junk', 'j'.repeat(4000)],
        ['idempotency-key', 'k'.repeat(1000)],
      ],
    },
  )
  health('with garbage digest headers', '/health', { kind: 'health' }, { headers: digest('nope', 'abc', 'zz') })
  health('POST JSON', '/health', error(404), { body: '{}' }, 'POST')
  health('POST malformed JSON', '/health', error(400), { body: '{"status":' }, 'POST')
  health('POST oversized', '/health', error(413), { body: oversized(MAX_BODY_BYTES + 1) }, 'POST')
  health(
    'POST invalid UTF-8',
    '/health',
    error(400),
    { body: Buffer.from([0x22, 0xc3, 0x28, 0x22]), headers: [['content-type', 'application/json']] },
    'POST',
  )
  health('PUT', '/health', error(404), {}, 'PUT')
  health('DELETE', '/health', error(404), {}, 'DELETE')
  health('sub-path', '/health/deep', error(404))

  // --- GET /s/{code} ---------------------------------------------------------------------------------------
  const short = (name: string, path: string, status: number, method = 'GET', body?: string) =>
    add({
      endpoint: 'GET /s/{code}',
      family: 'short-link',
      method,
      path,
      name: `${path.slice(0, 60)} ${name}`,
      body,
      expect: error(status),
    })
  const BASE64URL = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_']
  for (let i = 0; i < 8; i++) short('unknown code', `/s/${rng.text(11, 11, BASE64URL)}`, 404)
  for (const code of ['x'.repeat(33), 'y'.repeat(3000), 'é中🙂', '%00', 'a%2Fb', "'--", 'null']) short('odd code', `/s/${code}`, 404)
  for (const code of ['%', '%ZZ', '%C3', '%FF']) short('undecodable code', `/s/${code}`, 400)
  short('POST', `/s/${rng.text(11, 11, BASE64URL)}`, 404, 'POST', '{}')
  short('no code', '/s/', 404)

  // --- GET /checkout/{id} ----------------------------------------------------------------------------------
  const checkout = (name: string, path: string, expect: Expectation, method = 'GET', body?: string) =>
    add({ endpoint: 'GET /checkout/{id}', family: 'checkout', method, path, name: `${path.slice(0, 60)} ${name}`, body, expect })
  for (let i = 0; i < 6; i++) {
    const query = encodeQuery(
      rng.sample(
        [
          ['auth_token', rng.hex(32)],
          ['lang', rng.pick(['es', 'en', 'xx', ''])],
          ['auth_token', rng.text(0, 40)],
        ],
        rng.int(0, 3),
      ),
    )
    checkout('unknown payment', `/checkout/pt_${rng.hex(32)}${query ? `?${query}` : ''}`, page(404))
  }
  for (const id of ['x'.repeat(65), 'z'.repeat(3000), 'é中🙂', '%00', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'pt_%22%3E%3Cimg'])
    checkout('odd id', `/checkout/${id}`, page(404))
  checkout('repeated auth_token', `/checkout/pt_${rng.hex(32)}?auth_token=a&auth_token=b`, page(404))
  checkout('auth_token[]', `/checkout/pt_${rng.hex(32)}?auth_token[]=a&lang[]=es`, page(404))
  checkout('huge auth_token', `/checkout/pt_${rng.hex(32)}?auth_token=${'t'.repeat(5000)}`, page(404))
  for (const id of ['%', '%ZZ', '%E0%A4%A']) checkout('undecodable id', `/checkout/${id}`, error(400))
  checkout('POST', `/checkout/pt_${rng.hex(32)}`, error(404), 'POST', '{}')

  // --- POST /payments/{id}/refunds: bodies are refused before the payment is even looked up -----------------
  const refund = (
    name: string,
    body: string | undefined,
    status: number,
    signer: Signer | 'unsigned' = 'direct',
    id = `pt_${rng.hex(32)}`,
  ) =>
    add({
      endpoint: 'POST /payments/{id}/refunds',
      family: 'refund',
      method: 'POST',
      path: `/payments/${id}/refunds`,
      name: `refunds ${name}`,
      body,
      signAs: signer === 'unsigned' ? undefined : signer,
      expect: error(status),
    })
  for (const amount of [0, -1, 1.5, '100', true, [], {}, 'null', 1e300, Number.MAX_SAFE_INTEGER]) {
    refund(`amount ${JSON.stringify(amount)}`, JSON.stringify({ amount }), 400)
  }
  for (const body of [
    '{"description":7}',
    '{"description":""}',
    `{"description":"${'d'.repeat(1001)}"}`,
    '{"metadata":[]}',
    '{"metadata":"x"}',
    '{"reason":"x"}',
    '[]',
    '"refund"',
    '{"amount":',
    'null',
  ]) {
    refund(`body ${body.slice(0, 30)}`, body, 400)
  }
  refund('unknown payment, valid body', '{"amount":100}', 404)
  refund('unsigned', '{}', 401, 'unsigned')
  refund('oversized', oversized(MAX_BODY_BYTES + 1), 413)

  // --- POST /sandbox/payments/{id}/pay|fail|expire -------------------------------------------------------------
  const simulate = (name: string, action: string, body: string | undefined, status: number, signer: Signer | 'unsigned' = 'direct') =>
    add({
      endpoint: 'POST /sandbox/payments/{id}/…',
      family: 'simulation',
      method: 'POST',
      path: `/sandbox/payments/pt_${rng.hex(32)}/${action}`,
      name: `${action} ${name}`,
      body,
      signAs: signer === 'unsigned' ? undefined : signer,
      expect: error(status),
    })
  for (const body of [
    '{"amount":0}',
    '{"amount":-5}',
    '{"amount":2.5}',
    '{"amount":"5"}',
    '{"from":"GABC"}',
    `{"from":"S${'A'.repeat(55)}"}`,
    '{"from":7}',
    '{"failSettlement":"yes"}',
    '{"failSettlement":1}',
    '{"to":"G"}',
    '[1]',
  ]) {
    simulate(body, 'pay', body, 400)
  }
  for (const body of ['{"reason":5}', `{"reason":"${'r'.repeat(201)}"}`, '{"why":"x"}']) simulate(body, 'fail', body, 400)
  for (const body of ['{"now":true}', '[]', '"expire"']) simulate(body, 'expire', body, 400)
  for (const action of ['pay', 'fail', 'expire']) {
    simulate('unknown payment', action, '{}', 404)
    simulate('unsigned', action, '{}', 401, 'unsigned')
  }
  simulate('unknown action', 'refund', '{}', 404)

  // --- GET /accounts/balances/{asset_id} ---------------------------------------------------------------------
  const balance = (name: string, asset: string, status: number, signer: Signer | 'unsigned' = 'direct') =>
    add({
      endpoint: 'GET /accounts/balances/{asset}',
      family: 'balance',
      method: 'GET',
      path: `/accounts/balances/${asset}`,
      name: `balance ${name}`,
      signAs: signer === 'unsigned' ? undefined : signer,
      expect: error(status),
    })
  for (const asset of [
    'usdc',
    'EURC',
    'BTC',
    'USDC:',
    `USDC:G${'A'.repeat(55)}`,
    'USDC%3AGXYZ',
    'NATIVE',
    'xlm',
    'x'.repeat(3000),
    'é中🙂',
    '%00',
    "'--",
  ]) {
    balance(JSON.stringify(asset.slice(0, 30)), asset, 400)
  }
  for (const asset of ['%', '%ZZ', '%C3']) balance(`undecodable ${asset}`, asset, 400)
  balance('unsigned', 'USDC', 401, 'unsigned')

  // --- GET /sandbox/ledger/… (admin token) -------------------------------------------------------------------
  const ledger = (
    name: string,
    path: string,
    status: number,
    headers: Array<[string, string]> = [['x-sandbox-admin-token', creds.adminToken]],
  ) =>
    add({
      endpoint: 'GET /sandbox/ledger/…',
      family: 'ledger',
      method: 'GET',
      path,
      name: `${path.slice(0, 60)} ${name}`,
      headers,
      expect: error(status),
    })
  ledger('without the token', '/sandbox/ledger/accounts', 401, [])
  ledger('with a wrong token', '/sandbox/ledger/transactions', 401, [['x-sandbox-admin-token', rng.hex(24)]])
  for (const query of ['role=banker', 'role=', 'role[]=issuer', 'limit=5'])
    ledger('bad accounts query', `/sandbox/ledger/accounts?${query}`, 400)
  for (const query of [
    'limit=0',
    'limit=201',
    'limit=x',
    'order=up',
    'after=-1',
    'account=GABC',
    'account=',
    'cursor=5',
    'limit=1&limit=2',
  ]) {
    ledger('bad transactions query', `/sandbox/ledger/transactions?${query}`, 400)
  }
  for (const hash of [rng.hex(64), rng.hex(63), 'x'.repeat(64), 'y'.repeat(4000), '%00'])
    ledger('unknown hash', `/sandbox/ledger/transactions/${hash}`, 404)

  // --- /merchants/{merchantId}/webhook-logs… ------------------------------------------------------------------
  const logs = (name: string, path: string, status: number, method = 'GET', body?: string, signer: Signer | 'unsigned' = 'direct') =>
    add({
      endpoint: 'GET /merchants/{id}/webhook-logs…',
      family: 'webhook-log',
      method,
      path,
      name: `${path.slice(0, 70)} ${name}`,
      body,
      signAs: signer === 'unsigned' ? undefined : signer,
      expect: error(status),
    })
  const mine = `/merchants/${creds.direct.id}`
  for (const query of [
    'status=lost',
    'status=SUCCESS',
    'status=',
    'limit=0',
    'limit=101',
    'page=0',
    'page=x',
    'checkout_id=',
    `checkout_id=${'c'.repeat(65)}`,
    'order=asc',
    'status=success&status=failed',
  ]) {
    logs('bad query', `${mine}/webhook-logs?${query}`, 400)
  }
  logs('unsigned', `${mine}/webhook-logs`, 401, 'GET', undefined, 'unsigned')
  logs("another merchant's log", `/merchants/${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-8${rng.hex(3)}-${rng.hex(12)}/webhook-logs`, 404)
  logs('signed by the other merchant', `${mine}/webhook-logs`, 404, 'GET', undefined, 'escrow')
  for (const id of [rng.hex(8), `${rng.hex(8)}-0000-5000-8000-${rng.hex(12)}`, 'x'.repeat(3000), '%00', "'--"])
    logs('unknown entry', `${mine}/webhook-logs/${id}`, 404)
  for (const body of ['{"url":"http://evil.example"}', '[]', '"again"', '{'])
    logs('resend with a body', `${mine}/webhook-logs/${rng.hex(8)}/resend`, 400, 'POST', body)
  logs('resend of an unknown entry', `${mine}/webhook-logs/${rng.hex(8)}/resend`, 404, 'POST', '{}')
  logs('pause with a body', `${mine}/webhooks/pause`, 400, 'POST', '{"until":"tomorrow"}')
  logs('events stream with a bad cursor', `${mine}/events/stream?after=-1`, 400)
  logs('events stream, unknown parameter', `${mine}/events/stream?since=1`, 400)

  // --- /invoices… ---------------------------------------------------------------------------------------------
  const invoice = (name: string, path: string, status: number, method = 'POST', body?: string, signer: Signer | 'unsigned' = 'direct') =>
    add({
      endpoint: 'POST /invoices…',
      family: 'invoice',
      method,
      path,
      name: `${path.slice(0, 40)} ${name}`,
      body,
      signAs: signer === 'unsigned' ? undefined : signer,
      expect: error(status),
    })
  const item = { description: 'x', quantity: 1, unit_price: 100 }
  const validInvoice = { currency: 'USD', line_items: [item], customer: { email: 'a@b.co' } }
  const badInvoices: Array<[string, unknown]> = [
    ['no line items', { ...validInvoice, line_items: [] }],
    ['line items not an array', { ...validInvoice, line_items: item }],
    ['101 line items', { ...validInvoice, line_items: Array.from({ length: 101 }, () => item) }],
    ['quantity NaN text', { ...validInvoice, line_items: [{ ...item, quantity: 'NaN' }] }],
    ['quantity 1e-7', { ...validInvoice, line_items: [{ ...item, quantity: 1e-7 }] }],
    ['quantity 1e300', { ...validInvoice, line_items: [{ ...item, quantity: 1e300 }] }],
    ['unit price 1e300', { ...validInvoice, line_items: [{ ...item, unit_price: 1e300 }] }],
    ['unit price null', { ...validInvoice, line_items: [{ ...item, unit_price: null }] }],
    ['item extra field', { ...validInvoice, line_items: [{ ...item, sku: 'a' }] }],
    ['tax as text', { ...validInvoice, tax_percentage: '21' }],
    ['tax 100.00001', { ...validInvoice, tax_percentage: 100.00001 }],
    ['both customers', { ...validInvoice, customer_id: 'c' }],
    ['customer email array', { ...validInvoice, customer: { email: ['a@b.co'] } }],
    ['half an address', { ...validInvoice, customer: { email: 'a@b.co', address: { line1: 'x', city: 'y' } } }],
    ['due date garbage', { ...validInvoice, due_at: '31/12/2026' }],
    ['number empty', { ...validInvoice, invoice_number: '' }],
    ['number 65 characters', { ...validInvoice, invoice_number: 'n'.repeat(65) }],
    ['currency lowercase', { ...validInvoice, currency: 'usd' }],
    ['zero total', { ...validInvoice, line_items: [{ ...item, unit_price: 0 }] }],
  ]
  for (const [name, bad] of badInvoices) invoice(name, '/invoices', 400, 'POST', JSON.stringify(bad))
  invoice('malformed JSON', '/invoices', 400, 'POST', '{"currency":')
  invoice('unsigned', '/invoices', 401, 'POST', JSON.stringify(validInvoice), 'unsigned')
  for (const query of ['status=late', 'limit=0', 'page=-1', 'currency=USD']) invoice('bad list query', `/invoices?${query}`, 400, 'GET')
  for (const bad of [
    { invoice_prefix: 'INV#' },
    { invoice_prefix: 'p'.repeat(25) },
    { next_number: 0 },
    { next_number: 1.5 },
    { next_number: '7' },
    { prefix: 'INV-' },
    [1],
  ]) {
    invoice(`settings ${JSON.stringify(bad).slice(0, 30)}`, '/invoices/settings', 400, 'POST', JSON.stringify(bad))
  }
  for (const id of [rng.hex(8), `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-8${rng.hex(3)}-${rng.hex(12)}`, 'x'.repeat(3000)]) {
    invoice('unknown invoice', `/invoices/${id}`, 404, 'GET')
    invoice('cancel unknown invoice', `/invoices/${id}/cancel`, 404, 'POST', '{}')
  }
  invoice('cancel with a body', `/invoices/${rng.hex(8)}/cancel`, 400, 'POST', '{"reason":"x"}')

  // --- /horizon (no credentials, like Horizon; problem documents that carry the error fields too) -----------
  const horizonRead = (name: string, path: string, status: number, method = 'GET') =>
    add({ endpoint: 'GET /horizon/…', family: 'horizon', method, path, name: `${path.slice(0, 60)} ${name}`, expect: error(status) })
  for (const id of ['GABC', `G${'A'.repeat(55)}`, `S${'A'.repeat(55)}`, 'x'.repeat(3000), "'--"])
    horizonRead('malformed account id', `/horizon/accounts/${id}`, 400)
  horizonRead('undecodable account id', '/horizon/accounts/%ZZ', 400)
  for (const hash of [rng.hex(63), 'z'.repeat(64)]) horizonRead('malformed hash', `/horizon/transactions/${hash}`, 400)
  horizonRead('unknown hash', `/horizon/transactions/${rng.hex(64)}`, 404)
  for (const sequence of ['abc', '-1', '99999999999']) horizonRead('malformed ledger', `/horizon/ledgers/${sequence}`, 400)
  horizonRead('ledger not closed', `/horizon/ledgers/${rng.int(10_000, 99_999)}`, 404)
  horizonRead('malformed operation id', '/horizon/operations/1e5', 400)
  for (const query of [
    'limit=0',
    'limit=201',
    'order=sideways',
    'cursor=-5',
    'cursor=now&cursor=1',
    'join=ledgers',
    'cursor=99999999999999999999',
  ]) {
    horizonRead('bad paging', `/horizon/payments?${query}`, 400)
  }
  for (const query of ['cursor=1-2-3', 'cursor=abc', 'include_failed=maybe'])
    horizonRead('bad effects paging', `/horizon/effects?${query}`, 400)
  horizonRead('unknown parameter', '/horizon/fee_stats?x=1', 400)
  horizonRead('no such resource', `/horizon/effects/${rng.hex(8)}`, 404)
  horizonRead('PUT', '/horizon/transactions', 404, 'PUT')
  horizonRead('DELETE', `/horizon/accounts/${rng.hex(8)}`, 404, 'DELETE')

  const submit = (name: string, body: string, status: number, type = 'application/x-www-form-urlencoded') =>
    add({
      endpoint: 'POST /horizon/transactions',
      family: 'horizon-submit',
      method: 'POST',
      path: '/horizon/transactions',
      name: `submit ${name}`,
      body,
      headers: [['content-type', type]],
      expect: error(status),
    })
  submit('empty form', '', 400)
  submit('empty tx', 'tx=', 400)
  submit('two tx fields', 'tx=AAAA&tx=BBBB', 400)
  submit('an unknown field', 'tx=AAAA&memo=x', 400)
  for (let i = 0; i < 4; i++)
    submit(
      `random bytes ${i} as an envelope`,
      `tx=${encodeURIComponent(Buffer.from(rng.hex(rng.int(8, 400)), 'hex').toString('base64'))}`,
      400,
    )
  submit('not base64', `tx=${encodeURIComponent(rng.text(5, 40))}`, 400)
  submit('eleven fields', Array.from({ length: 11 }, (_, i) => `f${i}=1`).join('&'), 413)
  submit('over the size limit', `tx=${'A'.repeat(MAX_BODY_BYTES + 1)}`, 413)
  submit('as JSON', '{"tx":"AAAA"}', 415, 'application/json')
  submit('as text', 'tx=AAAA', 415, 'text/plain')
  submit('in latin-1', 'tx=AAAA', 415, 'application/x-www-form-urlencoded; charset=latin1')

  // --- POST /sandbox/wallets (admin token) ---------------------------------------------------------------------
  const wallet = (
    name: string,
    body: string | undefined,
    status: number,
    headers: Array<[string, string]> = [['x-sandbox-admin-token', creds.adminToken]],
  ) =>
    add({
      endpoint: 'POST /sandbox/wallets',
      family: 'wallet',
      method: 'POST',
      path: '/sandbox/wallets',
      name: `wallet ${name}`,
      body,
      headers,
      expect: error(status),
    })
  wallet('without the token', '{}', 401, [])
  wallet('with a wrong token', '{}', 401, [['x-sandbox-admin-token', rng.hex(24)]])
  for (const bad of [
    { usdc: 100 },
    { usdc: '-1' },
    { usdc: '1.12345678' },
    { usdc: '1000000.0000001' },
    { usdc: '1e3' },
    { xlm: '0' },
    { xlm: '0.9999999' },
    { xlm: 'lots' },
    { secret: `S${'A'.repeat(55)}` },
    { usdc: null },
  ]) {
    wallet(JSON.stringify(bad).slice(0, 40), JSON.stringify(bad), 400)
  }
  for (const body of ['[]', '"wallet"', '{"usdc":']) wallet(`body ${body}`, body, 400)

  return cases
}

// --- Route cases: every route of the app, found in its router stack ------------------------------

/**
 * SSRF through webhookUrl (issue 29), for a shared sandbox: every form the URL parser accepts of an
 * address in each reserved range (harness/address-forms.ts), each a 400 naming the field and
 * --allow-webhook-to. Apart from generateHostileCases: they hold only where internal targets are refused.
 */
export function generateEgressCases(seed: number): HostileCase[] {
  const rng = new Rng(seed)
  return refusedWebhookUrls().map(({ url, range }, index) => {
    const body = { ...validBody(rng), webhookUrl: url.replace('/hook', `:${rng.pick([80, 443, 8080, 9])}/hook/${rng.hex(4)}`) }
    return {
      name: `#${index} POST /payments egress: webhookUrl in ${range.cidr} as ${url}`,
      endpoint: 'POST /payments',
      family: 'egress',
      field: 'webhookUrl',
      method: 'POST',
      path: '/payments',
      body: toJson(body),
      headers: [],
      signAs: 'direct',
      expect: error(400),
    }
  })
}

export interface RouteInfo {
  /** Upper case. */
  method: string
  /** The Express pattern, such as /payments/:id/refunds. */
  path: string
  /** Registered before the JSON body parser: browser pages, /health and short links. */
  beforeBodyParser: boolean
}

export const routeLabel = (route: Pick<RouteInfo, 'method' | 'path'>): string => `${route.method} ${route.path}`

interface StackLayer {
  route?: { path: string | string[]; methods: Record<string, boolean | undefined> }
  handle?: unknown
  /** The path the layer was mounted at (app.use(path, router)). */
  rawPath?: unknown
}

/**
 * Every route of an Express app, in registration order, with the path routers are mounted at
 * put in front. A route or mount path Express keeps in a form this cannot read (a RegExp, a
 * list under a router) is refused loudly rather than left without cases.
 */
export function listRoutes(app: Express): RouteInfo[] {
  const routes: RouteInfo[] = []
  let bodyParserSeen = false
  const walk = (stack: StackLayer[], prefix: string) => {
    for (const layer of stack) {
      const nested = (layer.handle as { stack?: StackLayer[] } | undefined)?.stack
      if (layer.handle === parseJsonBody) {
        bodyParserSeen = true
      } else if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path]
        for (const path of paths) {
          if (typeof path !== 'string') throw new Error(`listRoutes: a route under "${prefix}" has a path that is not a string`)
          const full = prefix === '' ? path : path === '/' ? prefix : `${prefix}${path}`
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (!on) continue
            if (method === '_all')
              throw new Error(`listRoutes: ${full} is registered with .all(); name its methods so hostile cases can reach them`)
            routes.push({ method: method.toUpperCase(), path: full, beforeBodyParser: !bodyParserSeen })
          }
        }
      } else if (Array.isArray(nested)) {
        if (typeof layer.rawPath !== 'string')
          throw new Error(`listRoutes: a router under "${prefix}" is mounted at a path that is not one string`)
        walk(nested, layer.rawPath === '/' ? prefix : `${prefix}${layer.rawPath}`)
      }
    }
  }
  walk((app as unknown as { router: { stack: StackLayer[] } }).router.stack, '')
  return routes
}

/** Whether Express would route `wirePath` (query aside) to `pattern`: ":name" is one segment, "*name" the rest, "{…}" optional. */
export function routeMatches(pattern: string, wirePath: string): boolean {
  let source = ''
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!
    const name = /^[:*]([A-Za-z_$][\w$]*)/.exec(pattern.slice(i))
    if (name) {
      source += char === ':' ? '[^/]+' : '.+'
      i += name[0].length - 1
    } else if (char === '{') source += '(?:'
    else if (char === '}') source += ')?'
    else source += char.replace(/[.+?^$()[\]|\\]/g, '\\$&')
  }
  return new RegExp(`^${source}/?$`, 'i').test(wirePath.split('?')[0]!)
}

// Cases on a route's path with a method no route of that path has count too: they probe the path.
export function casesPerRoute(cases: readonly HostileCase[], routes: readonly RouteInfo[]): Map<string, number> {
  const counts = new Map(routes.map((route) => [routeLabel(route), 0]))
  for (const c of cases) {
    const onPath = routes.filter((route) => routeMatches(route.path, c.path))
    const sameMethod = onPath.filter((route) => route.method === c.method)
    for (const route of sameMethod.length > 0 ? sameMethod : onPath) counts.set(routeLabel(route), counts.get(routeLabel(route))! + 1)
  }
  return counts
}

/** The route's path with each parameter filled in by `fill`, optional groups kept. */
function concretePath(pattern: string, fill: (name: string) => string): string {
  return pattern.replace(/[{}]/g, '').replace(/[:*]([A-Za-z_$][\w$]*)/g, (_m, name: string) => fill(name))
}

const paramNames = (pattern: string): string[] => [...pattern.matchAll(/[:*]([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!)

/** A plausible value for a parameter: the shape of a real id, or the caller's own merchant id. */
function sampleParam(name: string, pattern: string, rng: Rng, creds: HostileCredentials): string {
  if (name === 'merchantId') return creds.direct.id
  if (name === 'hash') return rng.hex(64)
  if (name === 'id' && /^\/(sandbox\/)?(payments|checkout)\//.test(pattern)) return `pt_${rng.hex(32)}`
  return `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-8${rng.hex(3)}-${rng.hex(12)}`
}

/** Path segments no route accepts as an id (already percent-encoded where it matters). */
const HOSTILE_SEGMENTS = [
  '%ZZ',
  '%',
  '%C3',
  '%E0%A4%A',
  '%ED%A0%80',
  '%FF',
  '%00',
  'x'.repeat(5000),
  'é中🙂',
  "'%20OR%201%3D1--",
  '..%2F..%2Fetc%2Fpasswd',
  '-1',
  '0',
  '1e309',
  'null',
  'undefined',
  '%2F',
  '%20',
  '__proto__',
  'constructor',
  '%24%7B7*7%7D',
  '%3Cscript%3E',
  'NaN',
  '[]',
  '%7B%7D',
]
/** Query strings no route accepts: unknown, out-of-range, repeated, malformed or huge parameters. */
const HOSTILE_QUERIES = [
  'zz_unknown=1',
  'page=0',
  'page=-1',
  'limit=0',
  'limit=1e3',
  'limit=99999999999',
  'page=abc',
  'page=%',
  'page=%ZZ',
  'limit=1&limit=2',
  'page[]=1',
  'page[x]=1',
  '__proto__=1',
  'constructor=x',
  `zz=${'v'.repeat(6000)}`,
  `${'k'.repeat(3000)}=1`,
  'status=%00',
  'order=sideways',
  'after=-1',
  '%ZZ=1',
]
/** Bodies refused before any route reads them (sandbox/http/body.ts): [status, name, body, content-type]. */
const PARSER_REFUSALS: Array<[number, string, string | Uint8Array, string | undefined]> = [
  [400, 'truncated JSON', '{"zz":', undefined],
  [400, 'single quotes', "{'zz': 1}", undefined],
  [400, 'trailing comma', '{"zz":1,}', undefined],
  [400, 'NaN', '{"zz":NaN}', undefined],
  [400, 'BOM', '\ufeff{}', undefined],
  [400, 'two documents', '{}{}', undefined],
  [400, '33 levels', `${'['.repeat(33)}${']'.repeat(33)}`, undefined],
  [400, '20000 levels', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`, undefined],
  [400, 'invalid UTF-8', Uint8Array.from([0x7b, 0x22, 0x7a, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), 'application/json'],
  [415, 'text/plain', '{}', 'text/plain'],
  [415, 'form', 'zz=1', 'application/x-www-form-urlencoded'],
  [415, 'XML', '<zz/>', 'application/xml'],
  [413, 'over 256 KiB', `{"zz":"${'o'.repeat(MAX_BODY_BYTES)}"}`, undefined],
]
/** Well-formed JSON that is no route's body: not an object, or an object with fields no route has. */
const FOREIGN_BODIES = [
  '[]',
  '[{}]',
  '"text"',
  '42',
  'true',
  'null',
  '{"zz_unknown":1}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `{"zz":"${'z'.repeat(100_000)}"}`,
]
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
/**
 * GET routes that answer whatever else the query holds, by design: the probe, the API's own
 * description, and browser pages (links pick up tracking parameters). Every other GET route
 * refuses a parameter it does not know, and so does every other route (docs/api.md).
 */
const QUERY_IGNORED = [
  /^\/health$/,
  /^\/openapi\.json$/,
  /^\/s\//,
  /^\/checkout\//,
  // The dashboard's assets, its start (a redirect to the first view) and its event stream read no query.
  /^\/dashboard\/assets\//,
  /^\/dashboard$/,
  /^\/dashboard\/events$/,
]
/** The dashboard's pages (sandbox/dashboard/), under the body parser of their own forms. */
const isDashboardPath = (path: string) => path === '/dashboard' || path.startsWith('/dashboard/')
/** How many values of each family a route gets before random variants fill up the count. */
const PER_ROUTE = { segments: 6, queries: 5, parserRefusals: 4, foreignBodies: 4 }
/** Over Node's 16 KiB limit on request headers: refused before routing, with 431. */
const OVERSIZED_HEADER: [string, string] = ['x-hostile-padding', 'h'.repeat(17 * 1024)]

/** JSON of random shape: nested, unicode, extreme numbers, keys no schema has. */
function junkValue(rng: Rng, depth: number): unknown {
  switch (rng.int(0, depth >= 4 ? 3 : 5)) {
    case 0:
      return rng.text(0, 40)
    case 1:
      return rng.pick([0, -1, -0, 1.5, 1e308, -1e308, 2 ** 53 + 1, 5e-324, rng.int(-1e9, 1e9)])
    case 2:
      return rng.pick([true, false, null])
    case 3:
      return rng.text(200, 3000, KEY_ALPHABET)
    case 4:
      return Array.from({ length: rng.int(0, 4) }, () => junkValue(rng, depth + 1))
    default:
      return junkObject(rng, depth + 1)
  }
}
function junkObject(rng: Rng, depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  setOwn(object, `zz_${rng.hex(6)}`, junkValue(rng, depth))
  for (let i = rng.int(0, 3); i > 0; i--)
    setOwn(object, rng.pick(['amount', 'description', 'name', 'seconds', 'reason', rng.text(1, 12, KEY_ALPHABET)]), junkValue(rng, depth))
  return object
}

/**
 * `count` cases over every route in `routes`, numbered from `firstIndex`: for each route, its
 * parameters replaced by hostile segments, junk query strings, bodies the parser refuses, bodies
 * of the wrong shape, and headers over Node's limit; for each path, the methods it does not
 * have. Then random variants of these, until there are `count`. Every case is signed as the
 * direct merchant and carries the admin token, so it passes whichever authentication its route
 * has and reaches the route's own checks.
 */
export function generateRouteCases(
  seed: number,
  routes: readonly RouteInfo[],
  creds: HostileCredentials,
  count: number,
  firstIndex = 0,
): HostileCase[] {
  const rng = new Rng(seed ^ 0x7a11_0e5)
  const cases: HostileCase[] = []
  const credentials: Array<[string, string]> = [['x-sandbox-admin-token', creds.adminToken]]
  const add = (route: RouteInfo, family: string, name: string, path: string, expect: Expectation, extra: Partial<HostileCase> = {}) => {
    const method = extra.method ?? route.method
    const session = dashboardSession(route, method)
    cases.push({
      endpoint: EVERY_ROUTE,
      family,
      method,
      path: onTheWire(path),
      name: `#${firstIndex + cases.length} ${method} ${route.path} ${family}: ${name}`,
      headers: [...credentials, ...(session?.headers ?? []), ...(extra.headers ?? [])],
      signAs: 'direct',
      expect,
      ...(session?.body !== undefined ? { body: session.body } : extra.body !== undefined ? { body: extra.body } : {}),
    })
  }
  // The dashboard's pages are attacked signed in, as the API's routes are, so that a case reaches
  // the page's own checks; a POST carries the session's CSRF token as its form.
  const dashboardSession = (route: RouteInfo, method: string): { headers: Array<[string, string]>; body?: string } | undefined => {
    if (!creds.dashboard || !isDashboardPath(route.path)) return undefined
    const headers: Array<[string, string]> = [['cookie', creds.dashboard.cookie]]
    if (method !== 'POST') return { headers }
    headers.push(['content-type', 'application/x-www-form-urlencoded'])
    return { headers, body: new URLSearchParams({ csrf_token: creds.dashboard.csrfToken }).toString() }
  }
  const rejected = (route: RouteInfo, statuses: number[]): Expectation => ({
    kind: 'rejected',
    statuses,
    pageAllowed: route.beforeBodyParser,
  })
  const sample = (route: RouteInfo) => concretePath(route.path, (name) => sampleParam(name, route.path, rng, creds))
  // With a parameter, the lookup may refuse first (404); without one, only the input is wrong (400).
  const refusal = (route: RouteInfo) => rejected(route, paramNames(route.path).length > 0 ? [400, 404] : [400])
  // A dashboard page refuses a filter it cannot read (400) and, as a browser page, renders past a
  // parameter it does not read (links pick up tracking parameters): either way a page, never a 5xx.
  const queryRefusal = (route: RouteInfo) =>
    isDashboardPath(route.path) ? rejected(route, [200, 400, ...(paramNames(route.path).length > 0 ? [404] : [])]) : refusal(route)
  const takesBody = (route: RouteInfo) => route.method !== 'GET' && !route.beforeBodyParser
  // Every JSON route refuses a parameter it does not declare, POSTs included (?amount= on a refund).
  const readsQuery = (route: RouteInfo) =>
    (route.method === 'GET' || !route.beforeBodyParser) && !QUERY_IGNORED.some((pattern) => pattern.test(route.path))

  const systematic: Array<() => void> = []
  for (const route of routes) {
    systematic.push(() =>
      add(route, 'route-header', 'headers over 16 KiB', sample(route), rejected(route, [431]), { headers: [OVERSIZED_HEADER] }),
    )
    for (const param of paramNames(route.path)) {
      for (const segment of rng.sample(HOSTILE_SEGMENTS, PER_ROUTE.segments)) {
        const path = concretePath(route.path, (name) => (name === param ? segment : sampleParam(name, route.path, rng, creds)))
        systematic.push(() =>
          add(
            route,
            'route-param',
            `${param} = ${segment.slice(0, 30)}${segment.length > 30 ? `…(${segment.length})` : ''}`,
            path,
            rejected(route, [400, 404]),
          ),
        )
      }
    }
    if (readsQuery(route)) {
      for (const query of rng.sample(HOSTILE_QUERIES, PER_ROUTE.queries))
        systematic.push(() => add(route, 'route-query', query.slice(0, 40), `${sample(route)}?${query}`, queryRefusal(route)))
    }
    if (takesBody(route)) {
      for (const [status, name, body, type] of rng.sample(PARSER_REFUSALS, PER_ROUTE.parserRefusals)) {
        const headers: Array<[string, string]> = type === undefined ? [] : [['content-type', type]]
        systematic.push(() => add(route, 'route-body-parser', name, sample(route), rejected(route, [status]), { body, headers }))
      }
      for (const body of rng.sample(FOREIGN_BODIES, PER_ROUTE.foreignBodies))
        systematic.push(() => add(route, 'route-body-shape', body.slice(0, 40), sample(route), refusal(route), { body }))
    }
  }
  const byPath = new Map<string, RouteInfo[]>()
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route])
  for (const [path, onPath] of byPath) {
    for (const method of METHODS.filter((m) => !onPath.some((route) => route.method === m))) {
      const route = onPath[0]!
      const extra: Partial<HostileCase> = method === 'GET' ? { method } : { method, body: '{}' }
      systematic.push(() => add(route, 'route-method', `${method} of ${path}`, sample(route), rejected(route, [404, 405]), extra))
    }
  }
  for (const make of systematic) make()

  // Random variants, as many as asked for beyond the systematic ones.
  while (cases.length < count) {
    const route = rng.pick(routes)
    const params = paramNames(route.path)
    const families = [
      ...(params.length > 0 ? ['param'] : []),
      ...(readsQuery(route) ? ['query'] : []),
      ...(takesBody(route) ? ['body', 'bytes'] : []),
    ]
    if (families.length === 0) continue
    switch (rng.pick(families)) {
      case 'param': {
        const param = rng.pick(params)
        const segment = encodeURIComponent(rng.text(1, rng.chance(0.1) ? 4000 : 60))
        const path = concretePath(route.path, (name) => (name === param ? segment : sampleParam(name, route.path, rng, creds)))
        add(route, 'route-param', `random ${param} of ${segment.length} chars`, path, rejected(route, [400, 404]))
        break
      }
      case 'query': {
        const pairs = Array.from(
          { length: rng.int(1, 4) },
          () => [`zz_${rng.text(1, 20, KEY_ALPHABET)}`, rng.text(0, rng.chance(0.1) ? 3000 : 40)] as [string, string],
        )
        add(
          route,
          'route-query',
          `random ${pairs.length} unknown parameters`,
          `${sample(route)}?${encodeQuery(pairs)}`,
          queryRefusal(route),
        )
        break
      }
      case 'body': {
        const text = toJson(junkObject(rng, 0))
        add(route, 'route-body-shape', `random object of ${text.length} bytes`, sample(route), refusal(route), {
          body: rng.chance(0.2) ? text.slice(0, rng.int(1, text.length - 1)) : text,
        })
        break
      }
      default: {
        const bytes = Uint8Array.from([0x7b, 0xff, ...Array.from({ length: rng.int(0, 300) }, () => rng.int(0, 255))])
        add(route, 'route-body-parser', `${bytes.length} random bytes`, sample(route), rejected(route, [400]), {
          body: bytes,
          headers: [['content-type', 'application/json']],
        })
      }
    }
  }
  return cases
}

export type SendCredentials = Pick<HostileCredentials, 'direct' | 'escrow'>

/** A case whose answer takes longer than this failed: a stream opened, or the server hangs. */
export const RESPONSE_TIMEOUT_MS = 5_000

/**
 * Sends a case exactly as written: its bytes, its headers in order (a name may repeat), signed
 * like an outside client by `signAs` unless the case sets x-digest-* itself. In header values,
 * {{now}} is the current Unix time and {{sig}} the correct signature of this request by
 * `signAs` ({{sig:/path}}: signed over another path). Rejects when no answer comes within
 * RESPONSE_TIMEOUT_MS.
 */
export async function sendHostile(baseUrl: string, c: HostileCase, creds: SendCredentials): Promise<RawResponse> {
  const signer = c.signAs ? creds[c.signAs] : undefined
  const names = c.headers.map(([name]) => name.toLowerCase())
  const ownDigest = names.some((name) => name.startsWith('x-digest-k') || name.startsWith('x-digest-t') || name.startsWith('x-digest-s'))
  const now = String(Math.floor(Date.now() / 1000))
  const bodyText = c.signBody ?? (typeof c.body === 'string' ? c.body : c.body === undefined ? '' : Buffer.from(c.body).toString('utf8'))
  const sign = (path: string) => (signer ? signDigest(signer.apiSecret, { path, timestamp: now, method: c.method, body: bodyText }) : '')
  const headers = new Headers()
  for (const [name, value] of c.headers) {
    headers.append(
      name,
      value.replaceAll('{{now}}', now).replace(/\{\{sig(?::([^}]*))?\}\}/g, (_m, path?: string) => sign(path ?? c.path)),
    )
  }
  if (typeof c.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json')
  if (signer && !ownDigest) {
    headers.set('x-digest-key', signer.apiKey)
    headers.set('x-digest-timestamp', now)
    headers.set('x-digest-signature', sign(c.path))
  }
  const response = await fetch(`${baseUrl}${c.path}`, {
    method: c.method,
    headers,
    body: c.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
  })
  return readResponse(response)
}
