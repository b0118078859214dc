// POST /payments bodies that are well-formed JSON but break the rules of its fields (spec 4.1).
import { PAYMENT_FIELDS, raw, setOwn, toJson, type CaseWriter, type PaymentField, type Signer } from './hostile-case.js'
import { KEY_ALPHABET } from './rng.js'
import { paymentPoster, setField, validBody } from './payment-body.js'

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

/** POST /payments, field by field: wrong JSON types, values outside the rules, missing, unknown and duplicate keys, huge strings. */
export function paymentFieldCases({ rng, add }: CaseWriter): void {
  const post = paymentPoster(add)
  for (const field of PAYMENT_FIELDS) {
    for (const value of rng.sample(WRONG_TYPES[field], 4)) {
      const signAs: Signer = ESCROW_FIELDS.includes(field) && rng.chance(0.5) ? 'escrow' : 'direct'
      post('wrong-type', `${field} = ${JSON.stringify(value)} as ${signAs}`, toJson(setField(validBody(rng), field, value)), 400, {
        field,
        signAs,
      })
    }
  }
  // Right type, value outside the rules.
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
  // Missing required fields.
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
  // Unknown fields, top level and inside amount.
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
  // Huge strings.
  for (const field of ['description', 'name', 'redirectUrl', 'partnerId', 'storeId', 'locale', 'amount.currency', 'escrowPayee'] as const) {
    const size = rng.int(5_000, 200_000)
    const filler = field === 'redirectUrl' ? `https://example.com/${'p'.repeat(size)}` : rng.text(size, size, KEY_ALPHABET)
    post('huge-string', `${field} of ${filler.length} chars`, toJson(setField(validBody(rng), field, filler)), 400, { field })
  }
}
