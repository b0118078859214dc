// The Horizon API with ledgers closing on a timer (the sandbox's default, like Stellar): a
// submitted transaction is applied at once, into the open ledger, which Horizon serves once closed.
import { Asset, Horizon, Keypair, Memo, Operation, TransactionBuilder } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox({ ledgerClose: 200 })
})
afterAll(() => sandbox?.stop())

it('applies a submitted payment into the open ledger and serves that ledger once it has closed', async () => {
  const server = new Horizon.Server(`${sandbox.url}/horizon`, { allowHttp: true })
  const wallet = await sandbox.admin.sandbox.createWallet()
  const payment = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'On a timer' })
  const uri = new URL(payment.qrCode).searchParams
  const tx = new TransactionBuilder(await server.loadAccount(wallet.publicKey), {
    fee: '100',
    networkPassphrase: uri.get('network_passphrase')!,
    timebounds: await server.fetchTimebounds(60),
  })
    .addOperation(
      Operation.payment({
        destination: uri.get('destination')!,
        asset: new Asset('USDC', uri.get('asset_issuer')!),
        amount: uri.get('amount')!,
      }),
    )
    .addMemo(Memo.text(uri.get('memo')!))
    .build()
  tx.sign(Keypair.fromSecret(wallet.secret))
  const result = await server.submitTransaction(tx)
  expect((await sandbox.direct.payments.get(payment.id)).status).toBe('paid')

  const ledger = await waitFor('the ledger to close', () =>
    server
      .ledgers()
      .ledger(result.ledger)
      .call()
      .then((record) => record as unknown as Horizon.ServerApi.LedgerRecord)
      .catch(() => undefined),
  )
  expect(ledger.sequence).toBe(result.ledger)
  expect(ledger.successful_transaction_count).toBeGreaterThanOrEqual(1)
  // The SDK moves a record's linked fields to `<name>_attr`: the transaction names its ledger.
  expect((await server.transactions().transaction(result.hash).call()).ledger_attr).toBe(result.ledger)
})
