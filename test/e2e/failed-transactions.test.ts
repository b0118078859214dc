// Failed transactions as on Stellar: one refused before inclusion (bad sequence, bad signature,
// time bounds, fee) changes nothing, while one whose operations fail as they are applied
// (op_underfunded, op_no_trust, op_src_no_trust, op_line_full) is included in a ledger as failed:
// its source pays the fee and uses the sequence number, nothing else moves. On every path:
// Horizon submissions (through @stellar/stellar-sdk), `payments pay`, escrow funding.
import { Asset, Horizon, Keypair, Memo, Operation, TransactionBuilder, xdr } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LedgerTransaction, SandboxWallet } from '../../src/client/types.js'
import { ledgerSupply, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { refusal } from '../../harness/refusal.js'

interface Problem {
  status: number
  extras: { result_codes: { transaction: string; operations?: string[] }; result_xdr: string }
}

async function problemOf(promise: Promise<unknown>): Promise<Problem> {
  const error = await promise.then(
    () => {
      throw new Error('expected the submission to fail')
    },
    (failure: unknown) => failure as { response?: { data?: Problem } },
  )
  return error.response!.data!
}

const FEE = 100n

describe('failed transactions are included in a ledger as on Stellar', () => {
  let sandbox: TestSandbox
  let server: Horizon.Server
  let usdc: Asset

  const account = async (publicKey: string) => (await sandbox.admin.ledger.accounts()).items.find((a) => a.publicKey === publicKey)!
  const sequence = async (publicKey: string) => BigInt((await server.loadAccount(publicKey)).sequence)
  const stroops = (decimal: string) => BigInt(decimal.replace('.', ''))

  /** A USDC (or XLM) payment signed by the wallet, built and submitted with the SDK. */
  const submitPayment = async (from: SandboxWallet, destination: string, amount: string, asset = usdc, memo?: string) => {
    const builder = new TransactionBuilder(await server.loadAccount(from.publicKey), {
      fee: '100',
      networkPassphrase: sandbox.identity.networkPassphrase,
    })
      .addOperation(Operation.payment({ destination, asset, amount }))
      .setTimeout(60)
    if (memo) builder.addMemo(Memo.text(memo))
    const tx = builder.build()
    tx.sign(Keypair.fromSecret(from.secret))
    return { tx, hash: tx.hash().toString('hex'), submission: server.submitTransaction(tx) }
  }

  /** The wallet's sequence went up by one and its XLM down by the fee; its USDC did not move. */
  const expectChargedOnly = async (wallet: SandboxWallet, before: { sequence: bigint; xlm: string; usdc: string }) => {
    expect(await sequence(wallet.publicKey)).toBe(before.sequence + 1n)
    const after = await account(wallet.publicKey)
    expect(stroops(after.balances.XLM)).toBe(stroops(before.xlm) - FEE)
    expect(after.balances.USDC).toBe(before.usdc)
  }
  const stateOf = async (wallet: SandboxWallet) => {
    const { balances } = await account(wallet.publicKey)
    return { sequence: await sequence(wallet.publicKey), xlm: balances.XLM, usdc: balances.USDC }
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox({ dueWorkIntervalMs: 0 })
    server = new Horizon.Server(`${sandbox.url}/horizon`, { allowHttp: true })
    usdc = new Asset('USDC', sandbox.identity.usdcIssuer)
  })
  afterAll(() => sandbox?.stop())

  it('includes an overdraft submitted to Horizon as failed: fee charged, sequence used, served with successful false', async () => {
    const wallet = await sandbox.admin.sandbox.createWallet({ usdc: '5' })
    const payment = await sandbox.direct.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Overdraft' })
    const destination = new URL(payment.qrCode).searchParams.get('destination')!
    const memo = new URL(payment.qrCode).searchParams.get('memo')!
    const before = await stateOf(wallet)
    const poolBefore = (await ledgerSupply(sandbox)).xlm.feePool

    const { hash, submission } = await submitPayment(wallet, destination, '10', usdc, memo)
    const problem = await problemOf(submission)
    expect(problem.status).toBe(400)
    expect(problem.extras.result_codes).toEqual({ transaction: 'tx_failed', operations: ['op_underfunded'] })
    const result = xdr.TransactionResult.fromXDR(problem.extras.result_xdr, 'base64')
    expect(result.feeCharged().toString()).toBe('100')
    expect(result.result().switch().name).toBe('txFailed')

    await expectChargedOnly(wallet, before)
    const supply = await ledgerSupply(sandbox)
    expect(supply.xlm.feePool).toBe(poolBefore + FEE)
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')

    const record = await server.transactions().transaction(hash).call()
    expect(record).toMatchObject({
      successful: false,
      fee_charged: '100',
      source_account_sequence: String(before.sequence + 1n),
      operation_count: 1,
    })
    const stored = xdr.TransactionResult.fromXDR(record.result_xdr, 'base64')
    expect(
      stored
        .result()
        .results()
        .map((op) => op.tr().paymentResult().switch().name),
    ).toEqual(['paymentUnderfunded'])
    // Lists leave failed transactions out unless asked, as Horizon does.
    const plain = await server.transactions().forAccount(wallet.publicKey).order('desc').limit(5).call()
    expect(plain.records.map((r) => r.hash)).not.toContain(hash)
    const withFailed = await server.transactions().forAccount(wallet.publicKey).includeFailed(true).order('desc').limit(5).call()
    expect(withFailed.records[0]).toMatchObject({ hash, successful: false })
    const failedOps = await server.payments().forAccount(wallet.publicKey).includeFailed(true).order('desc').limit(1).call()
    expect(failedOps.records[0]).toMatchObject({ transaction_hash: hash, transaction_successful: false })
    // The sandbox's own view agrees.
    const view = await sandbox.admin.ledger.transaction(hash)
    expect(view).toMatchObject({ successful: false, operationResults: ['op_underfunded'], feeCharged: '100', unmatched: false })

    // The next transaction must use the next sequence number: the failed one used its own.
    const next = await submitPayment(wallet, destination, '1', usdc, memo)
    await next.submission
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('underpaid')
  })

  it('refuses before inclusion (bad sequence, bad signature, expired time bounds): nothing recorded, nothing charged', async () => {
    const wallet = await sandbox.admin.sandbox.createWallet({ usdc: '5' })
    const before = await stateOf(wallet)
    const source = await server.loadAccount(wallet.publicKey)
    const cases = [
      {
        account: new Horizon.AccountResponse({ ...source, sequence: String(before.sequence + 5n) } as never),
        key: Keypair.fromSecret(wallet.secret),
        timeout: 60,
        code: 'tx_bad_seq',
      },
      { account: source, key: Keypair.random(), timeout: 60, code: 'tx_bad_auth' },
    ]
    for (const c of cases) {
      const tx = new TransactionBuilder(c.account, { fee: '100', networkPassphrase: sandbox.identity.networkPassphrase })
        .addOperation(Operation.payment({ destination: sandbox.identity.usdcIssuer, asset: usdc, amount: '1' }))
        .setTimeout(c.timeout)
        .build()
      tx.sign(c.key)
      const problem = await problemOf(server.submitTransaction(tx))
      expect(problem.extras.result_codes.transaction).toBe(c.code)
      expect(xdr.TransactionResult.fromXDR(problem.extras.result_xdr, 'base64').feeCharged().toString()).toBe('0')
      await expect(server.transactions().transaction(tx.hash().toString('hex')).call()).rejects.toThrow()
    }
    const late = new TransactionBuilder(await server.loadAccount(wallet.publicKey), {
      fee: '100',
      networkPassphrase: sandbox.identity.networkPassphrase,
      timebounds: { minTime: 0, maxTime: 1 },
    })
      .addOperation(Operation.payment({ destination: sandbox.identity.usdcIssuer, asset: usdc, amount: '1' }))
      .build()
    late.sign(Keypair.fromSecret(wallet.secret))
    expect((await problemOf(server.submitTransaction(late))).extras.result_codes.transaction).toBe('tx_too_late')
    expect(await stateOf(wallet)).toEqual(before)
  })

  it('op_no_trust: paying USDC to a wallet without a USDC trustline fails in the ledger, and the payer pays the fee', async () => {
    const untrusting = await sandbox.admin.sandbox.createWallet({ trustline: false })
    expect(untrusting).toMatchObject({ usdcTrustline: null, fundingTxId: null, balances: { USDC: '0.0000000' } })
    // Horizon shows no USDC balance line at all for it.
    expect((await server.loadAccount(untrusting.publicKey)).balances.map((b) => b.asset_type)).toEqual(['native'])
    const payer = await sandbox.admin.sandbox.createWallet({ usdc: '10' })
    const before = await stateOf(payer)
    const { hash, submission } = await submitPayment(payer, untrusting.publicKey, '1')
    expect((await problemOf(submission)).extras.result_codes).toEqual({ transaction: 'tx_failed', operations: ['op_no_trust'] })
    await expectChargedOnly(payer, before)
    expect((await server.transactions().transaction(hash).call()).successful).toBe(false)
    // XLM needs no trustline.
    await (
      await submitPayment(payer, untrusting.publicKey, '1', Asset.native())
    ).submission
  })

  it('op_src_no_trust: a wallet without a USDC trustline that pays USDC fails in the ledger, and pays the fee', async () => {
    const untrusting = await sandbox.admin.sandbox.createWallet({ trustline: false })
    const before = await stateOf(untrusting)
    const { submission } = await submitPayment(untrusting, sandbox.identity.usdcIssuer, '1')
    expect((await problemOf(submission)).extras.result_codes).toEqual({ transaction: 'tx_failed', operations: ['op_src_no_trust'] })
    await expectChargedOnly(untrusting, before)
  })

  it('op_line_full: a payment past the destination trustline limit fails in the ledger', async () => {
    const limited = await sandbox.admin.sandbox.createWallet({ usdc: '100', usdcLimit: '150' })
    expect(limited.usdcTrustline).toEqual({ limit: '150.0000000' })
    const line = (await server.loadAccount(limited.publicKey)).balances.find(
      (b) => b.asset_type === 'credit_alphanum4',
    ) as Horizon.HorizonApi.BalanceLineAsset
    expect(line.limit).toBe('150.0000000')
    const payer = await sandbox.admin.sandbox.createWallet({ usdc: '100' })
    const before = await stateOf(payer)
    const { submission } = await submitPayment(payer, limited.publicKey, '50.0000001')
    expect((await problemOf(submission)).extras.result_codes).toEqual({ transaction: 'tx_failed', operations: ['op_line_full'] })
    await expectChargedOnly(payer, before)
    // Up to the limit exactly is fine.
    await (
      await submitPayment(payer, limited.publicKey, '50')
    ).submission
    expect((await account(limited.publicKey)).balances.USDC).toBe('150.0000000')
  })

  it('refuses wallet options that contradict each other, creating nothing', async () => {
    const before = (await sandbox.admin.ledger.accounts()).items.length
    for (const body of [
      { trustline: false, usdc: '1' },
      { trustline: false, usdcLimit: '5' },
      { usdc: '10', usdcLimit: '5' },
      { usdcLimit: '0' },
      { trustline: 'no' },
    ]) {
      const error = await refusal(sandbox.admin.sandbox.createWallet(body as never))
      expect(error.statusCode, JSON.stringify(body)).toBe(400)
    }
    expect((await sandbox.admin.ledger.accounts()).items).toHaveLength(before)
  })

  it('payments pay from a wallet that cannot pay: 400 naming the result, the failed transaction recorded with its fee', async () => {
    const untrusting = await sandbox.admin.sandbox.createWallet({ trustline: false })
    const poor = await sandbox.admin.sandbox.createWallet({ usdc: '1' })
    const payment = await sandbox.direct.payments.create({ amount: { value: 500, currency: 'USD' }, description: 'Pay fails' })
    for (const [wallet, code] of [
      [untrusting, 'op_src_no_trust'],
      [poor, 'op_underfunded'],
    ] as const) {
      const before = await stateOf(wallet)
      const error = await refusal(sandbox.direct.sandbox.pay(payment.id, { from: wallet.publicKey, failSettlement: true }))
      expect(error.statusCode).toBe(400)
      expect(error.message).toContain(code)
      expect(error.message).toContain('included in a ledger as failed')
      await expectChargedOnly(wallet, before)
      const [latest] = (await sandbox.admin.ledger.transactions({ account: wallet.publicKey, order: 'desc', limit: 1 })).items as [
        LedgerTransaction,
      ]
      expect(latest).toMatchObject({ successful: false, operationResults: [code], payment: payment.id, feeCharged: '100' })
    }
    // Nothing of the refused request stayed: a good payment now settles normally.
    const paid = await sandbox.direct.sandbox.pay(payment.id, {})
    expect(paid.status).toBe('paid')
    expect(paid.settlement_status).not.toBe('failed')
  })

  it('escrow funding from a wallet that cannot pay: the order stays unfunded, the failed funding is in its transactions', async () => {
    const poor = await sandbox.admin.sandbox.createWallet({ usdc: '1' })
    const payment = await sandbox.escrow.payments.create({ amount: { value: 500, currency: 'USD' }, description: 'Escrow fails' })
    const before = await stateOf(poor)
    const error = await refusal(sandbox.escrow.sandbox.pay(payment.id, { from: poor.publicKey }))
    expect(error.statusCode).toBe(400)
    expect(error.message).toContain('op_underfunded')
    await expectChargedOnly(poor, before)
    const order = await sandbox.escrow.escrow.status(payment.id)
    expect(order.escrow_status).toBe('created')
    expect(order.held).toBe('0.0000000')
    expect(order.transactions).toEqual([expect.objectContaining({ successful: false })])
  })

  it('counts a failed transaction in its ledger and in fee_stats, even one whose asset the sandbox does not know', async () => {
    const payer = await sandbox.admin.sandbox.createWallet({ usdc: '10' })
    const foreign = new Asset('EURC', Keypair.random().publicKey())
    const { hash, submission } = await submitPayment(payer, sandbox.identity.usdcIssuer, '1', foreign)
    expect((await problemOf(submission)).extras.result_codes).toEqual({ transaction: 'tx_failed', operations: ['op_no_trust'] })
    const record = await server.transactions().transaction(hash).call()
    expect(record).toMatchObject({ successful: false, operation_count: 1 })
    const ledger = await server.ledgers().ledger(record.ledger_attr).call()
    expect(ledger).toMatchObject({ successful_transaction_count: 0, failed_transaction_count: 1, operation_count: 0 })
    const stats = await server.feeStats()
    expect(stats.fee_charged.max).toBe('100')
  })

  it('keeps the books: USDC issued equals USDC held, XLM in accounts plus fees equals all XLM', async () => {
    const supply = await ledgerSupply(sandbox)
    expect(supply.usdc.circulating).toBe(supply.usdc.issued)
    expect(supply.xlm.inAccounts + supply.xlm.feePool).toBe(supply.xlm.totalCoins)
  })
})
