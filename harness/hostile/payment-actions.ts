// What a merchant does to a payment: refunds, the simulated pay, fail and expire, and the balance it reads.
import { error, MAX_BODY_BYTES, type CaseWriter, type Signer } from './hostile-case.js'
import { oversized } from './payment-body.js'

/** POST /payments/{id}/refunds: bodies are refused before the payment is even looked up. */
export function refundCases({ rng, add }: CaseWriter): void {
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
  refund('oversized', oversized(rng, MAX_BODY_BYTES + 1), 413)
}

/** POST /sandbox/payments/{id}/pay|fail|expire: bad bodies, unknown payments and actions. */
export function simulationCases({ rng, add }: CaseWriter): void {
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
}

/** GET /accounts/balances/{asset_id}: assets that are not USDC, or not an asset at all. */
export function balanceCases({ add }: CaseWriter): void {
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
}
