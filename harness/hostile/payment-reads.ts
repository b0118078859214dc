// Reads of payments: GET /payments with query strings it refuses, GET /payments/{id} with ids
// that are unknown, malformed or undecodable.
import { encodeQuery, error, type CaseWriter, type Signer } from './hostile-case.js'

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

/** GET /payments: bad, repeated and unknown query parameters. */
export function paymentListCases({ rng, add }: CaseWriter): void {
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
}

/** GET /payments/{id}: unknown, malformed and undecodable ids, sub-paths and other methods. */
export function paymentIdCases({ rng, add }: CaseWriter): void {
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
}
