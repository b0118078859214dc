// The sandbox's admin controls, behind the admin token: merchants, the ledger's records, wallets.
import { error, MAX_BODY_BYTES, type CaseWriter, type Signer } from './hostile-case.js'
import { oversized } from './payment-body.js'

/** GET and POST /sandbox/merchants: every wrong token, and bodies a merchant cannot be made from. */
export function merchantAdminCases({ rng, creds, add }: CaseWriter): void {
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
  admin('without the token, oversized', [], 413, '/sandbox/merchants', 'POST', oversized(rng, MAX_BODY_BYTES + 1))
  // Only named controls take the admin token; an unknown /sandbox path is simply not found.
  admin('without the token, undecodable path', [], 404, '/sandbox/%ZZ')
  admin('without the token, undecodable clock sub-path', [], 401, '/sandbox/clock/%ZZ')
}

/** GET /sandbox/ledger/…: the token, bad queries and unknown hashes. */
export function ledgerCases({ rng, creds, add }: CaseWriter): void {
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
}

/** POST /sandbox/wallets: the token, and balances no wallet can start with. */
export function walletCases({ rng, creds, add }: CaseWriter): void {
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
}
