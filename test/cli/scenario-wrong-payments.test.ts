// The customer mistakes scenarios simulate, through the API and `paybox payments pay`: a wrong
// memo or a wrong asset is a real ledger payment to the destination that pays nothing, and
// bad input is refused with a 400 that changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import { USDC_SCALE, parseDecimal } from '../../src/money.js'
import { expectOneLineFailure, linesOf, merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { refusal } from '../../harness/refusal.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

describe('paying with a wrong memo or a wrong asset', () => {
  let sandbox: TestSandbox
  let account: string
  beforeAll(async () => {
    sandbox = await startTestSandbox()
    account = (await sandbox.direct.merchant.get()).account
  })
  afterAll(() => sandbox.stop())

  const create = (): Promise<Payment> =>
    sandbox.direct.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Mistakes' })
  /** The merchant account's balances, in stroops. */
  const balances = async () => {
    const accounts = (await sandbox.admin.ledger.accounts({ role: 'merchant' })).items
    const mine = accounts.find((a) => a.publicKey === account)!
    return { usdc: parseDecimal(mine.balances.USDC, USDC_SCALE)!, xlm: parseDecimal(mine.balances.XLM, USDC_SCALE)! }
  }
  const lastTransactionTo = async () => (await sandbox.admin.ledger.transactions({ account, order: 'desc', limit: 1 })).items[0]!

  it('--memo sends the USDC with that memo: it lands on the account and the payment stays open', async () => {
    const payment = await create()
    const before = await balances()
    const { stdout, exitCode } = await runCli(['payments', 'pay', payment.id, '--memo', 'wrong-memo'], merchantEnv(sandbox))
    expect(exitCode).toBe(0)
    expect(linesOf(stdout).at(-1)).toBe('Sent 10.0000000 USDC (10.00 USD worth) with memo "wrong-memo"; status open')
    expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'open', amount_paid: 0 })
    expect((await balances()).usdc - before.usdc).toBe(100_000_000n)
    const tx = await lastTransactionTo()
    expect(tx).toMatchObject({ memoType: 'text', memo: 'wrong-memo' })
    expect(tx.operations).toEqual([expect.objectContaining({ to: account, asset: 'USDC', amount: '10.0000000' })])
  })

  it("--asset XLM sends that many XLM with the payment's own memo: it lands and pays nothing", async () => {
    const payment = await create()
    const before = await balances()
    const { json, exitCode } = await runCliJson<Payment>(
      ['payments', 'pay', payment.id, '--asset', 'XLM', '--amount', '2.50'],
      merchantEnv(sandbox),
    )
    expect(exitCode).toBe(0)
    expect(json).toMatchObject({ id: payment.id, status: 'open', amount_paid: 0 })
    expect((await balances()).xlm - before.xlm).toBe(25_000_000n)
    expect((await lastTransactionTo()).operations).toEqual([expect.objectContaining({ to: account, asset: 'XLM', amount: '2.5000000' })])
    // The payment is untouched: paying it properly still works in full.
    expect((await sandbox.direct.sandbox.pay(payment.id)).status).toBe('paid')
  })

  it("a memo that is another payment's pays that payment, as on the real network", async () => {
    const [target, other] = [await create(), await create()]
    const memo = new URL(other.qrCode).searchParams.get('memo')!
    await sandbox.direct.sandbox.pay(target.id, { memo, amount: 400 })
    expect(await sandbox.direct.payments.get(other.id)).toMatchObject({ status: 'underpaid', amount_paid: 400 })
    expect((await sandbox.direct.payments.get(target.id)).status).toBe('open')
  })

  it('refuses a memo over 28 bytes, an unknown asset, and failSettlement with a mistake, changing nothing', async () => {
    const payment = await create()
    const before = await balances()
    const refuse = (body: object) => sandbox.direct.request('POST', `/sandbox/payments/${payment.id}/pay`, { body })
    const refused = async (body: object) => {
      const error = await refusal(refuse(body))
      return { statusCode: error.statusCode, message: error.message }
    }
    expect(await refused({ memo: 'x'.repeat(29) })).toEqual({ statusCode: 400, message: 'memo: must be at most 28 bytes' })
    expect(await refused({ memo: 'é'.repeat(15) })).toEqual({ statusCode: 400, message: 'memo: must be at most 28 bytes' })
    expect(await refused({ asset: 'EURC' })).toEqual({ statusCode: 400, message: 'asset: must be USDC or XLM' })
    expect(await refused({ memo: 'x', failSettlement: true })).toEqual({
      statusCode: 400,
      message: "failSettlement: applies only to a payment with the payment's own memo, in USDC",
    })
    expect(await balances()).toEqual(before)
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
    expectOneLineFailure(
      await runCli(['payments', 'pay', payment.id, '--asset', 'BTC'], merchantEnv(sandbox)),
      'Expected --asset=BTC to be one of: USDC, XLM (see --help)',
    )
  })
})
