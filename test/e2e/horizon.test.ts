// The Horizon-compatible face of the sandbox ledger, driven only through @stellar/stellar-sdk's
// public API (Horizon.Server over real HTTP): a wallet pays a checkout as it would on testnet,
// refusals come back with Stellar's result codes, streams see payments land, and every movement
// the sandbox makes itself is there under the hashes the payments API reports.
import { Asset, Horizon, Keypair, Memo, Operation, TransactionBuilder, xdr, type Transaction } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment, SandboxWallet } from '../../src/client/types.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'

/** What a failed request carried: the SDK rejects with its HTTP client's error, whose response holds Horizon's problem. */
interface Problem {
  type: string
  title: string
  status: number
  detail: string
  extras?: {
    result_codes?: { transaction: string; operations?: string[] }
    result_xdr?: string
    envelope_xdr?: string
    invalid_field?: string
  }
  statusCode: number
  reason: string
  message: string
}

async function problemOf(promise: Promise<unknown>): Promise<{ status: number; problem: Problem }> {
  const error = await promise.then(
    () => {
      throw new Error('expected the request to fail')
    },
    (failure: unknown) => failure as { response?: { status?: number; data?: Problem } },
  )
  expect(error.response?.data, 'the error carries the response').toBeDefined()
  return { status: error.response!.status!, problem: error.response!.data! }
}

/** The transaction a wallet script builds from a payment's qrCode URI and nothing else. */
function paymentFromUri(account: Horizon.AccountResponse, qrCode: string, overrides: { amount?: string; memo?: string } = {}): Transaction {
  const uri = new URL(qrCode)
  expect(uri.protocol).toBe('web+stellar:')
  expect(uri.pathname).toBe('pay')
  const params = uri.searchParams
  expect(params.get('memo_type')).toBe('MEMO_TEXT')
  return new TransactionBuilder(account, { fee: '100', networkPassphrase: params.get('network_passphrase')! })
    .addOperation(
      Operation.payment({
        destination: params.get('destination')!,
        asset: new Asset(params.get('asset_code')!, params.get('asset_issuer')!),
        amount: overrides.amount ?? params.get('amount')!,
      }),
    )
    .addMemo(Memo.text(overrides.memo ?? params.get('memo')!))
    .setTimeout(60)
    .build()
}

describe('Horizon API on the sandbox ledger', () => {
  let sandbox: TestSandbox
  let server: Horizon.Server
  let wallet: SandboxWallet
  let keypair: Keypair

  const createPayment = (value: number, description: string) =>
    sandbox.direct.payments.create({ amount: { value, currency: 'USD' }, description })

  beforeAll(async () => {
    sandbox = await startTestSandbox({ dueWorkIntervalMs: 0 })
    server = new Horizon.Server(`${sandbox.url}/horizon`, { allowHttp: true })
    wallet = await sandbox.admin.sandbox.createWallet()
    keypair = Keypair.fromSecret(wallet.secret)
  })
  afterAll(() => sandbox?.stop())

  describe('a wallet pays a checkout with the real SDK', () => {
    let payment: Payment
    let submitted: Transaction
    let hash: string

    beforeAll(async () => {
      payment = await createPayment(1250, 'Paid from a real wallet')
    })

    it('creates a funded wallet whose keys are a real Stellar keypair', async () => {
      expect(keypair.publicKey()).toBe(wallet.publicKey)
      expect(wallet.balances).toEqual({ USDC: '100.0000000', XLM: '10000.0000000' })
      const account = await server.loadAccount(wallet.publicKey)
      expect(account.accountId()).toBe(wallet.publicKey)
      expect(account.balances).toContainEqual(
        expect.objectContaining({
          asset_type: 'credit_alphanum4',
          asset_code: 'USDC',
          asset_issuer: sandbox.identity.usdcIssuer,
          balance: '100.0000000',
        }),
      )
      expect(account.balances).toContainEqual(expect.objectContaining({ asset_type: 'native', balance: '10000.0000000' }))
      expect(account.data_attr).toEqual({})
      expect(account.signers).toEqual([{ weight: 1, key: wallet.publicKey, type: 'ed25519_public_key' }])
      // The funding came in a real transaction from the issuer, visible like any other.
      const funding = await server.transactions().transaction(wallet.fundingTxId!).call()
      expect(funding.source_account).toBe(sandbox.identity.usdcIssuer)
    })

    it('pays the payment with a transaction built from its qrCode URI alone: the payment becomes paid', async () => {
      const account = await server.loadAccount(wallet.publicKey)
      submitted = paymentFromUri(account, payment.qrCode)
      submitted.sign(keypair)
      const result = await server.submitTransaction(submitted)
      hash = result.hash
      expect(result.successful).toBe(true)
      expect(hash).toBe(submitted.hash().toString('hex'))
      expect(result.envelope_xdr).toBe(submitted.toEnvelope().toXDR('base64'))
      const decoded = xdr.TransactionResult.fromXDR(result.result_xdr, 'base64')
      expect(decoded.result().switch().name).toBe('txSuccess')
      expect(
        decoded
          .result()
          .results()
          .map((op) => op.tr().paymentResult().switch().name),
      ).toEqual(['paymentSuccess'])

      const after = await sandbox.direct.payments.get(payment.id)
      expect(after.status).toBe('paid')
      expect(after.stellarTxId).toBe(hash)
      expect(after.sender_account).toBe(wallet.publicKey)
      const account2 = await server.loadAccount(wallet.publicKey)
      expect(account2.sequenceNumber()).toBe(submitted.sequence)
      expect(account2.balances.find((b) => b.asset_type === 'credit_alphanum4')!.balance).toBe('87.5000000')
    })

    it('shows the submitted transaction with its memo, fee and source sequence', async () => {
      const tx = await server.transactions().transaction(hash).call()
      expect(tx).toMatchObject({
        id: hash,
        hash,
        successful: true,
        source_account: wallet.publicKey,
        source_account_sequence: submitted.sequence,
        fee_charged: '100',
        max_fee: '100',
        operation_count: 1,
        memo_type: 'text',
        memo: new URL(payment.qrCode).searchParams.get('memo'),
        envelope_xdr: submitted.toEnvelope().toXDR('base64'),
      })
      expect(tx.signatures).toEqual(submitted.signatures.map((s) => s.signature().toString('base64')))
      const ops = await server.operations().forTransaction(hash).call()
      expect(ops.records).toHaveLength(1)
      expect(ops.records[0]).toMatchObject({
        type: 'payment',
        transaction_hash: hash,
        from: wallet.publicKey,
        amount: '12.5000000',
        asset_code: 'USDC',
      })
    })

    it("links the payment's transaction from the checkout page to the Horizon API", async () => {
      const page = await (await fetch(payment.hostedUrl)).text()
      const href = /data-testid="stellar-tx-link" href="([^"]+)"/.exec(page)?.[1]
      expect(href).toBe(`${sandbox.url}/horizon/transactions/${hash}`)
      const linked = (await (await fetch(href!)).json()) as { hash: string; source_account: string }
      expect(linked).toMatchObject({ hash, source_account: wallet.publicKey })
    })

    it('refuses the same sequence number again with tx_bad_seq, and changes nothing', async () => {
      const before = await server.loadAccount(wallet.publicKey)
      const { status, problem } = await problemOf(server.submitTransaction(submitted))
      expect(status).toBe(400)
      expect(problem.type).toBe('https://stellar.org/horizon-errors/transaction_failed')
      expect(problem.extras!.result_codes).toEqual({ transaction: 'tx_bad_seq' })
      expect(xdr.TransactionResult.fromXDR(problem.extras!.result_xdr!, 'base64').result().switch().name).toBe('txBadSeq')
      expect(problem).toMatchObject({ status: 400, statusCode: 400, reason: 'Bad Request' })
      const after = await server.loadAccount(wallet.publicKey)
      expect(after.sequence).toBe(before.sequence)
      expect(after.balances).toEqual(before.balances)
    })

    it('refuses a transaction signed by another key with tx_bad_auth', async () => {
      const other = await createPayment(100, 'Wrong key')
      const tx = paymentFromUri(await server.loadAccount(wallet.publicKey), other.qrCode)
      tx.sign(Keypair.random())
      const { status, problem } = await problemOf(server.submitTransaction(tx))
      expect(status).toBe(400)
      expect(problem.extras!.result_codes).toEqual({ transaction: 'tx_bad_auth' })
      expect(xdr.TransactionResult.fromXDR(problem.extras!.result_xdr!, 'base64').result().switch().name).toBe('txBadAuth')
      expect((await sandbox.direct.payments.get(other.id)).status).toBe('open')
    })

    it('includes an overdraft as failed with tx_failed / op_underfunded, and the payment stays open', async () => {
      const big = await createPayment(50_000, 'More than the wallet holds')
      const tx = paymentFromUri(await server.loadAccount(wallet.publicKey), big.qrCode)
      tx.sign(keypair)
      const { status, problem } = await problemOf(server.submitTransaction(tx))
      expect(status).toBe(400)
      expect(problem.extras!.result_codes).toEqual({ transaction: 'tx_failed', operations: ['op_underfunded'] })
      const result = xdr.TransactionResult.fromXDR(problem.extras!.result_xdr!, 'base64').result()
      expect(result.switch().name).toBe('txFailed')
      expect(result.results().map((op) => op.tr().paymentResult().switch().name)).toEqual(['paymentUnderfunded'])
      expect((await sandbox.direct.payments.get(big.id)).status).toBe('open')
      // As on Stellar, a transaction whose operation fails is in the ledger, failed, its fee charged.
      expect(xdr.TransactionResult.fromXDR(problem.extras!.result_xdr!, 'base64').feeCharged().toString()).toBe('100')
      expect(await server.transactions().transaction(tx.hash().toString('hex')).call()).toMatchObject({ successful: false })
    })
  })

  it('a payments stream from cursor=now sees a payment to the destination arrive, and nothing from before', async () => {
    const payment = await createPayment(300, 'Streamed')
    const destination = new URL(payment.qrCode).searchParams.get('destination')!
    const earlier = await server.payments().forAccount(destination).order('desc').limit(1).call()
    expect(earlier.records).toHaveLength(1)
    const seen: Array<{ type: string; transaction_hash: string; from: string; to: string; amount: string; asset_type: string }> = []
    const close = server
      .payments()
      .forAccount(destination)
      .cursor('now')
      .stream({ onmessage: (record) => void seen.push(record as unknown as (typeof seen)[number]) })
    try {
      // The SDK says nothing when a stream has opened: tiny XLM payments are sent until one shows up.
      const probe = async () => {
        const tx = new TransactionBuilder(await server.loadAccount(wallet.publicKey), {
          fee: '100',
          networkPassphrase: sandbox.identity.networkPassphrase,
        })
          .addOperation(Operation.payment({ destination, asset: Asset.native(), amount: '0.0000001' }))
          .setTimeout(60)
          .build()
        tx.sign(keypair)
        return (await server.submitTransaction(tx)).hash
      }
      const probes: string[] = []
      await waitFor('the stream to open', async () => {
        probes.push(await probe())
        return waitFor('a probe', () => seen.some((r) => probes.includes(r.transaction_hash)), 500).catch(() => false)
      })

      const tx = paymentFromUri(await server.loadAccount(wallet.publicKey), payment.qrCode)
      tx.sign(keypair)
      const { hash } = await server.submitTransaction(tx)
      const record = await waitFor('the streamed payment', () => seen.find((r) => r.transaction_hash === hash))
      expect(record).toMatchObject({ type: 'payment', to: destination, amount: '3.0000000', asset_type: 'credit_alphanum4' })
      expect(seen.map((r) => r.transaction_hash)).not.toContain(earlier.records[0]!.transaction_hash)
      // Settling the payment pays out of the destination: the account's payments go both ways.
      expect(seen.every((r) => r.type === 'payment' && (r.to === destination || r.from === destination))).toBe(true)
      expect((await sandbox.direct.payments.get(payment.id)).status).toBe('paid')
    } finally {
      close()
    }
  })
})
