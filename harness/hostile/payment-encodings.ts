// POST /payments bodies as bytes: JSON nested too deep or malformed, not an object, invalid
// UTF-8, over the size limit, or sent under a content type that is not JSON.
import { MAX_BODY_BYTES, toJson, type CaseWriter } from './hostile-case.js'
import { oversized, paymentPoster, validBody } from './payment-body.js'
import type { Rng } from './rng.js'

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

/** POST /payments: deep nesting, malformed JSON, bodies that are not objects, invalid UTF-8, oversized bodies, content types. */
export function paymentEncodingCases({ rng, add }: CaseWriter): void {
  const post = paymentPoster(add)
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
  // POST /payments: malformed JSON.
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
  // POST /payments: a whole body that is not an object.
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
  // POST /payments: invalid UTF-8.
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
  // POST /payments and others: bodies over the 256 KiB limit.
  post('oversized', `${MAX_BODY_BYTES} bytes (exactly the limit)`, oversized(rng, MAX_BODY_BYTES), 400)
  for (const bytes of [MAX_BODY_BYTES + 1, 300 * 1024, 1024 * 1024, 3 * 1024 * 1024]) {
    post('oversized', `${bytes} bytes`, oversized(rng, bytes), 413)
  }
  post('oversized', 'over the limit, unsigned', oversized(rng, MAX_BODY_BYTES + 1000), 413, { signAs: undefined })
  post('oversized', 'over the limit, malformed', `${oversized(rng, MAX_BODY_BYTES + 10)}}}`, 413)
  post('oversized', 'over the limit, text/plain', oversized(rng, MAX_BODY_BYTES + 10), 413, { headers: [['content-type', 'text/plain']] })
  post('oversized', 'over the limit, 140000 levels deep', `${'['.repeat(140_000)}${']'.repeat(140_000)}`, 413)
  // POST /payments: content types.
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
}
