// Headers and authentication: POST /payments with wrong idempotency keys, digest headers,
// junk headers and encodings; GET /currencies, a signed read, with every flaw of its signature.
import {
  error,
  MAX_BODY_BYTES,
  toJson,
  type CaseWriter,
  type Expectation,
  type HostileCase,
  type HostileCredentials,
} from './hostile-case.js'
import { oversized, paymentPoster, setField, validBody } from './payment-body.js'

export const digest = (key: string, timestamp: string, signature: string): Array<[string, string]> => [
  ['x-digest-key', key],
  ['x-digest-timestamp', timestamp],
  ['x-digest-signature', signature],
]

/** Digest headers of every wrong shape, each with what is wrong. */
export const garbageDigest = (creds: HostileCredentials): Array<[string, Array<[string, string]>]> => [
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

/** POST /payments: idempotency keys, digest headers of every wrong shape, junk headers, content encodings, signatures over other bytes. */
export function paymentHeaderCases({ rng, creds, add }: CaseWriter): void {
  const post = paymentPoster(add)
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
  for (const [what, headers] of garbageDigest(creds)) {
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
}

/** GET /currencies: a signed read refused for every flaw of its signature, and every method it does not have. */
export function currencyCases({ rng, creds, add }: CaseWriter): void {
  const cur = (name: string, extra: Partial<HostileCase> & { expect: Expectation }, path = '/currencies', method = 'GET') =>
    add({ endpoint: 'GET /currencies', family: 'currencies', method, path, name: `${path} ${name}`, ...extra })
  cur('unsigned', { expect: error(401) })
  cur('unsigned with a query', { expect: error(401) }, '/currencies?code=USD')
  for (const [what, headers] of rng.sample(garbageDigest(creds), 10))
    cur(`digest ${what}`, { headers, signAs: 'direct', expect: error(401) })
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
  cur('signed POST, oversized', { signAs: 'direct', body: oversized(rng, MAX_BODY_BYTES + 1), expect: error(413) }, '/currencies', 'POST')
  cur('signed, sub-path', { signAs: 'direct', expect: error(404) }, '/currencies/USD')
  cur('signed, undecodable sub-path', { signAs: 'escrow', expect: error(404) }, '/currencies/%ZZ')
}
