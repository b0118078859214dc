// What answers without credentials: /health, short links and the hosted checkout page.
import { encodeQuery, error, MAX_BODY_BYTES, page, type CaseWriter, type Expectation, type HostileCase } from './hostile-case.js'
import { digest } from './headers-and-auth.js'
import { oversized } from './payment-body.js'

/** GET /health: junk around the probe, and every method it does not have. */
export function healthCases({ rng, add }: CaseWriter): void {
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
  health('POST oversized', '/health', error(413), { body: oversized(rng, MAX_BODY_BYTES + 1) }, 'POST')
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
}

/** GET /s/{code}: unknown, odd and undecodable codes. */
export function shortLinkCases({ rng, add }: CaseWriter): void {
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
}

/** GET /checkout/{id}: unknown and odd payments, odd query strings; a page, not JSON. */
export function checkoutCases({ rng, add }: CaseWriter): void {
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
}
