// /horizon: no credentials, like Horizon; problem documents that carry the error fields too.
import { error, MAX_BODY_BYTES, type CaseWriter } from './hostile-case.js'

/** GET /horizon/…: malformed ids, hashes and ledgers, bad paging, unknown resources and methods. */
export function horizonReadCases({ rng, add }: CaseWriter): void {
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
}

/** POST /horizon/transactions: forms that hold no envelope, and bodies that are not forms. */
export function horizonSubmitCases({ rng, add }: CaseWriter): void {
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
}
