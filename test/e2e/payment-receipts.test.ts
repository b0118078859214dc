import { Keypair, TransactionBuilder } from '@stellar/stellar-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { rawRequest, ledgerSupply, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { refusal } from '../../harness/refusal.js'
import { runTransaction } from '../../sandbox/db/database.js'

const START = Date.UTC(2026, 10, 21, 12, 0, 0)

describe('customers paying over the ledger', () => {
  let sandbox: TestSandbox
  const clock = new ManualClock(START)
  const create = (value: number, currency = 'USD') =>
    sandbox.direct.payments.create({ amount: { value, currency }, description: `Pay ${value} ${currency}` })

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock, dueWorkIntervalMs: 0 })
  })
  afterAll(() => sandbox.stop())

  it('marks a payment paid in full with the real ledger transaction that paid it', async () => {
    const payment = await create(1250, 'EUR')
    const paid = await sandbox.direct.sandbox.pay(payment.id)
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 1250 })
    expect(paid.stellarTxId).toMatch(/^[0-9a-f]{64}$/)

    const tx = await sandbox.context.ledger.getTransaction(sandbox.context.db, paid.stellarTxId!)
    expect(tx).toBeDefined()
    expect(tx!.memo).toBe(new URL(payment.qrCode).searchParams.get('memo'))
    expect(tx!.sourceAccount).toBe(paid.sender_account)
    expect(tx!.operations).toEqual([
      expect.objectContaining({
        asset: 'USDC',
        amount: 135_000_000n,
        from: paid.sender_account,
        to: new URL(payment.qrCode).searchParams.get('destination'),
      }),
    ])
    // The id is the hash of the stored, signed envelope.
    const envelope = TransactionBuilder.fromXDR(tx!.envelopeXdr, sandbox.identity.networkPassphrase)
    expect(envelope.hash().toString('hex')).toBe(paid.stellarTxId)
    expect(Keypair.fromPublicKey(paid.sender_account!).verify(envelope.hash(), envelope.signatures[0]!.signature())).toBe(true)
    expect(paid.history.find((h) => h.status === 'paid')).toEqual({
      time: START,
      status: 'paid',
      description: 'Payment received (13.5 USDC)',
    })
  })

  it('is underpaid after part, and paid exactly after the rest', async () => {
    const payment = await create(1250)
    const partial = await sandbox.direct.sandbox.pay(payment.id, { amount: 500 })
    expect(partial).toMatchObject({ status: 'underpaid', amount_paid: 500 })
    const again = await sandbox.direct.sandbox.pay(payment.id, { amount: 250 })
    expect(again).toMatchObject({ status: 'underpaid', amount_paid: 750 })
    const rest = await sandbox.direct.sandbox.pay(payment.id)
    expect(rest).toMatchObject({ status: 'paid', amount_paid: 1250 })
    expect(rest.history.slice(0, 4).map((h) => `${h.status}: ${h.description}`)).toEqual([
      'success: Payment created',
      'underpaid: Partial payment received (5 USDC)',
      'underpaid: Partial payment received (2.5 USDC)',
      'paid: Payment received (5 USDC)',
    ])
  })

  it('stays paid when overpaid, with amount_paid above amount', async () => {
    const payment = await create(1000)
    const paid = await sandbox.direct.sandbox.pay(payment.id, { amount: 1500 })
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 1500, amount: { value: 1000 } })
  })

  it('counts a payment made any other way with the memo, and ignores unmatched money', async () => {
    const payment = await create(300)
    const params = new URL(payment.qrCode).searchParams
    const { db, ledger } = sandbox.context
    const [customer] = await ledger.listAccounts(db, { role: 'customer' })
    await runTransaction(db, (trx) =>
      ledger.transfer(trx, {
        from: customer!.publicKey,
        to: params.get('destination')!,
        asset: 'USDC',
        amount: 30_000_000n,
        memo: params.get('memo')!,
      }),
    )
    expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'paid', amount_paid: 300 })

    const before = await sandbox.direct.payments.list()
    await runTransaction(db, (trx) =>
      ledger.transfer(trx, {
        from: customer!.publicKey,
        to: params.get('destination')!,
        asset: 'USDC',
        amount: 10_000_000n,
        memo: 'pb-unknown',
      }),
    )
    expect(await sandbox.direct.payments.list()).toEqual(before)
  })

  it('pays escrow payments into the escrow contract custody account', async () => {
    const payment = await sandbox.escrow.payments.create({ amount: { value: 200, currency: 'USD' }, description: 'Escrowed' })
    expect(new URL(payment.qrCode).searchParams.get('destination')).toBe(sandbox.identity.escrowCustody)
    const { db, ledger } = sandbox.context
    const before = (await ledger.balances(db, sandbox.identity.escrowCustody))!.usdc
    expect((await sandbox.escrow.sandbox.pay(payment.id)).status).toBe('paid')
    expect((await ledger.balances(db, sandbox.identity.escrowCustody))!.usdc - before).toBe(20_000_000n)
  })

  it("refuses to pay a closed, unknown or other merchant's payment", async () => {
    const payment = await create(100)
    await sandbox.admin.sandbox.advanceClock({ seconds: 31 * 60 })
    expect((await refusal(sandbox.direct.sandbox.pay(payment.id))).statusCode).toBe(409)
    expect((await refusal(sandbox.direct.sandbox.pay(`pt_${'0'.repeat(32)}`))).statusCode).toBe(404)
    const other = await create(100)
    expect((await refusal(sandbox.escrow.sandbox.pay(other.id))).statusCode).toBe(404)
    expect((await sandbox.direct.payments.get(other.id)).status).toBe('open')
  })

  it.each([
    ['a fractional amount', { amount: 1.5 }],
    ['a negative amount', { amount: -1 }],
    ['a payer that is not an address', { from: 'nobody' }],
    ['an unknown field', { tip: 1 }],
  ])('refuses %s with 400', async (_name, body) => {
    const payment = await create(100)
    const response = await rawRequest(sandbox.url, {
      method: 'POST',
      path: `/sandbox/payments/${payment.id}/pay`,
      body: JSON.stringify(body),
      as: sandbox.merchants[0],
    })
    expect(response.status).toBe(400)
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
  })

  it('refuses a payer that is not a customer wallet', async () => {
    const payment = await create(100)
    const error = await refusal(sandbox.direct.sandbox.pay(payment.id, { from: sandbox.identity.platformFeeAccount }))
    expect(error.statusCode).toBe(400)
    expect(error.message).toContain('not a customer wallet')
  })

  it('conserves USDC across every movement', async () => {
    // checkInvariants throws on any negative balance or unbalanced books.
    const supply = await ledgerSupply(sandbox)
    expect(supply.usdc).toEqual({ issued: 5n * 1_000_000n * 10_000_000n, circulating: 5n * 1_000_000n * 10_000_000n })
    expect(supply.xlm.inAccounts + supply.xlm.feePool).toBe(supply.xlm.totalCoins)
    const accounts = await sandbox.context.ledger.listAccounts(sandbox.context.db)
    const held = accounts.filter((a) => a.role !== 'issuer').reduce((sum, a) => sum + a.balances.usdc, 0n)
    expect(held).toBe(5n * 1_000_000n * 10_000_000n)
  })
})
