// Every payment transition over HTTP, the refused ones included: settlement and its fee,
// accepting an underpayment, and the fail and expire simulations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import { ManualClock } from '../../sandbox/clock.js'
import { ledgerSupply, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { refusal } from '../../harness/refusal.js'
import { runTransaction } from '../../sandbox/db/database.js'

const START = Date.UTC(2026, 10, 21, 12, 0, 0)

describe('the payment lifecycle', () => {
  let sandbox: TestSandbox
  const clock = new ManualClock(START)
  const create = (value: number, currency = 'USD') =>
    sandbox.direct.payments.create({ amount: { value, currency }, description: `Lifecycle ${value} ${currency}` })
  const post = (path: string, body?: unknown) => sandbox.direct.request<Payment>('POST', path, { body })
  const pay = (id: string, body: Record<string, unknown> = {}) => post(`/sandbox/payments/${id}/pay`, body)
  const usdcOf = async (account: string) => (await sandbox.context.ledger.balances(sandbox.context.db, account))!.usdc
  let merchantAccount: () => string
  const statuses = (payment: Payment) => payment.history.map((entry) => entry.status)

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock, dueWorkIntervalMs: 0 })
    const account = (await sandbox.admin.sandbox.merchants()).items[0]!.account
    merchantAccount = () => account
  })
  afterAll(() => sandbox.stop())

  describe('settlement', () => {
    it('settles a paid payment: the tier fee goes to the platform in a real transaction, the rest stays with the merchant', async () => {
      const payment = await create(2000)
      const merchantBefore = await usdcOf(merchantAccount())
      const platformBefore = await usdcOf(sandbox.identity.platformFeeAccount)
      const paid = await pay(payment.id)
      // Starter tier: 1% of 20 USDC, in USDC decimal numbers.
      expect(paid).toMatchObject({
        status: 'paid',
        settlement_status: 'paid',
        settlement_amount: 19.8,
        settlement_fee: 0.2,
        settlement_currency: 'USDC',
      })
      expect(statuses(paid)).toEqual(['success', 'paid', 'settlement_processing', 'settled'])
      expect(paid.settlement_stellarTxId).toMatch(/^[0-9a-f]{64}$/)
      expect(paid.settlement_stellarTxId).not.toBe(paid.stellarTxId)

      const settlement = await sandbox.context.ledger.getTransaction(sandbox.context.db, paid.settlement_stellarTxId!)
      expect(settlement!.operations).toEqual([
        expect.objectContaining({ from: merchantAccount(), to: sandbox.identity.platformFeeAccount, asset: 'USDC', amount: 2_000_000n }),
      ])
      expect(await usdcOf(merchantAccount())).toBe(merchantBefore + 198_000_000n)
      expect(await usdcOf(sandbox.identity.platformFeeAccount)).toBe(platformBefore + 2_000_000n)
    })

    it('settles everything received when overpaid', async () => {
      const payment = await create(1000)
      const paid = await pay(payment.id, { amount: 1500 })
      expect(paid).toMatchObject({
        status: 'paid',
        amount_paid: 1500,
        settlement_status: 'paid',
        settlement_amount: 14.85,
        settlement_fee: 0.15,
      })
    })

    it('rounds the fee up to the next stroop, so it is never zero', async () => {
      const payment = await create(1, 'JPY') // 0.0067 USDC: 1% is 0.000067 exactly
      const paid = await pay(payment.id)
      expect(paid).toMatchObject({ settlement_fee: 0.000067, settlement_amount: 0.006633 })
      const yen = await create(3, 'JPY') // 0.0201 USDC: 1% is 0.000201
      expect(await pay(yen.id)).toMatchObject({ settlement_fee: 0.000201 })
      const cents = await create(1) // 0.01 USDC: 1% is 0.0001
      expect(await pay(cents.id)).toMatchObject({ settlement_fee: 0.0001, settlement_amount: 0.0099 })
    })

    it('fails the settlement when the simulation asks: no settlement transaction, no fee taken', async () => {
      const payment = await create(500)
      const platformBefore = await usdcOf(sandbox.identity.platformFeeAccount)
      const paid = await pay(payment.id, { failSettlement: true })
      expect(paid).toMatchObject({ status: 'paid', settlement_status: 'failed' })
      expect(paid.settlement_stellarTxId).toBeUndefined()
      expect(statuses(paid)).toEqual(['success', 'paid', 'settlement_failed'])
      expect(await usdcOf(sandbox.identity.platformFeeAccount)).toBe(platformBefore)
    })

    it('keeps an escrow payment unsettled and funds its escrow order instead', async () => {
      const payment = await sandbox.escrow.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Escrowed' })
      const paid = await sandbox.escrow.request<Payment>('POST', `/sandbox/payments/${payment.id}/pay`, { body: {} })
      expect(paid).toMatchObject({ status: 'paid', settlement_status: 'open', escrow_status: 'funded' })
      expect(paid.settlement_stellarTxId).toBeUndefined()
    })
  })

  describe('settlement while a ledger is open', () => {
    let timed: TestSandbox
    beforeAll(async () => {
      // Ledgers close only when the test closes one, as the 5 s timer would.
      timed = await startTestSandbox({ clock: new ManualClock(START), dueWorkIntervalMs: 0, ledgerClose: 3_600_000 })
    })
    afterAll(() => timed.stop())

    it('is processing until the ledger holding the settlement transaction closes, then paid', async () => {
      const payment = await timed.direct.payments.create({ amount: { value: 700, currency: 'USD' }, description: 'Timed' })
      const paid = await timed.direct.request<Payment>('POST', `/sandbox/payments/${payment.id}/pay`, { body: {} })
      expect(paid).toMatchObject({ status: 'paid', settlement_status: 'processing' })
      expect(paid.settlement_stellarTxId).toMatch(/^[0-9a-f]{64}$/)

      const closed = await runTransaction(timed.context.db, (trx) => timed.context.ledger.closeLedger(trx))
      const settled = await timed.direct.payments.get(payment.id)
      expect(settled.settlement_status).toBe('paid')
      expect(settled.history.at(-1)).toMatchObject({
        status: 'settled',
        description: `Settled to the merchant account in ledger ${closed.sequence}`,
      })
    })

    it('says an event is coming while the settlement is processing, so paybox trigger waits for it', async () => {
      const payment = await timed.direct.payments.create({ amount: { value: 700, currency: 'USD' }, description: 'Timed events' })
      await timed.direct.sandbox.pay(payment.id)
      expect(await timed.direct.sandbox.webhooksState(payment.id)).toEqual({
        checkout_id: payment.id,
        event_coming: true,
        pending_deliveries: 0,
        quiet: false,
      })
      await runTransaction(timed.context.db, (trx) => timed.context.ledger.closeLedger(trx))
      expect(await timed.direct.sandbox.webhooksState(payment.id)).toMatchObject({ event_coming: false, quiet: true })
      expect((await refusal(timed.escrow.sandbox.webhooksState(payment.id))).statusCode).toBe(404)
    })
  })

  describe('accept-underpayment', () => {
    it('makes an underpaid payment paid for what it received and settles that', async () => {
      const payment = await create(1000)
      const partial = await pay(payment.id, { amount: 400 })
      expect(partial.status).toBe('underpaid')
      const accepted = await post(`/payments/${payment.id}/accept-underpayment`)
      expect(accepted).toMatchObject({
        status: 'paid',
        amount_paid: 400,
        settlement_status: 'paid',
        settlement_amount: 3.96,
        settlement_fee: 0.04,
      })
      expect(accepted.history.find((h) => h.status === 'paid')?.description).toBe('Underpayment accepted (4 of 10 USDC received)')
    })

    it('refuses with 400 and a reason for any payment that is not underpaid, changing nothing', async () => {
      const open = await create(1000)
      const error = await refusal(post(`/payments/${open.id}/accept-underpayment`))
      expect(error.statusCode).toBe(400)
      expect(error.message).toBe(`Payment ${open.id} is open; only an underpaid payment can have its underpayment accepted`)
      expect(await sandbox.direct.payments.get(open.id)).toEqual(open)

      const paid = await pay((await create(100)).id)
      expect((await refusal(post(`/payments/${paid.id}/accept-underpayment`))).message).toContain('is paid;')
    })

    it("is 404 for another merchant's payment", async () => {
      const payment = await create(1000)
      await pay(payment.id, { amount: 1 })
      const error = await refusal(sandbox.escrow.request('POST', `/payments/${payment.id}/accept-underpayment`))
      expect(error.statusCode).toBe(404)
      expect((await sandbox.direct.payments.get(payment.id)).status).toBe('underpaid')
    })
  })

  describe('simulated underpayment and overpayment: the sandbox decides the amount', () => {
    it('{"underpay": true} pays half of what remains, rounded down; {"overpay": true} what remains plus a tenth, rounded half up', async () => {
      const under = await create(1255)
      expect(await pay(under.id, { underpay: true })).toMatchObject({ status: 'underpaid', amount_paid: 627 })
      expect(await pay(under.id, { underpay: true })).toMatchObject({ status: 'underpaid', amount_paid: 941 })
      // 125.5 rounds half up to 126.
      expect(await pay((await create(1255)).id, { overpay: true })).toMatchObject({ status: 'paid', amount_paid: 1381 })
      // At least one unit more: a tenth of 3 yen rounds to nothing.
      expect(await pay((await create(3, 'JPY')).id, { overpay: true })).toMatchObject({ status: 'paid', amount_paid: 4 })
    })

    it('refuses an underpayment that could only pay in full with 409, and intents beside an amount or a mistake with 400', async () => {
      const payment = await create(1)
      const left = await refusal(pay(payment.id, { underpay: true }))
      expect(left).toMatchObject({ statusCode: 409, reason: 'Conflict' })
      expect(left.message).toBe(`Payment ${payment.id} has 0.01 USD left to pay, which cannot be underpaid: pay it in full instead`)
      const both = await refusal(pay(payment.id, { amount: 1, overpay: true }))
      expect(both).toMatchObject({ statusCode: 400 })
      expect(both.message).toContain('overpay: cannot be sent with amount')
      const mistaken = await refusal(pay(payment.id, { underpay: true, asset: 'XLM' }))
      expect(mistaken.message).toContain("underpay: applies only to a payment with the payment's own memo, in USDC")
      expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'open', amount_paid: 0 })
    })
  })

  describe('fail and expire simulations', () => {
    it('fails an open payment and an underpaid one, recording the reason', async () => {
      const open = await create(1000)
      const failed = await post(`/sandbox/payments/${open.id}/fail`, { reason: 'card network down' })
      expect(failed.status).toBe('failed')
      expect(failed.history.at(-1)).toEqual({ time: clock.now(), status: 'failed', description: 'Payment failed: card network down' })
      const underpaid = await create(1000)
      await pay(underpaid.id, { amount: 10 })
      expect((await post(`/sandbox/payments/${underpaid.id}/fail`)).status).toBe('failed')
    })

    it('expires an open payment now and moves expiresAt to now', async () => {
      const open = await create(1000)
      clock.advance(60_000)
      const expired = await post(`/sandbox/payments/${open.id}/expire`)
      expect(expired).toMatchObject({ status: 'expired', expiresAt: new Date(clock.now()).toISOString() })
    })

    it('refuses moves out of final states and expiry of underpaid payments with 409, changing nothing', async () => {
      const paid = await pay((await create(100)).id)
      const expired = await post(`/sandbox/payments/${(await create(100)).id}/expire`)
      const underpaid = await pay((await create(100)).id, { amount: 1 })
      const attempts: Array<[Payment, string, string]> = [
        [paid, 'fail', 'is paid and cannot become failed'],
        [paid, 'expire', 'is paid and cannot become expired'],
        [paid, 'pay', 'is paid and cannot be paid'],
        [expired, 'pay', 'is expired and cannot be paid'],
        [expired, 'fail', 'is expired and cannot become failed'],
        [underpaid, 'expire', 'is underpaid: it does not expire'],
      ]
      for (const [payment, action, message] of attempts) {
        const before = await sandbox.direct.payments.get(payment.id)
        const error = await refusal(post(`/sandbox/payments/${payment.id}/${action}`))
        expect(error.statusCode, `${action} ${payment.status}`).toBe(409)
        expect(error.message).toContain(message)
        expect(await sandbox.direct.payments.get(payment.id)).toEqual(before)
      }
    })

    it('refuses to pay an open payment past its expiry even before the sweep expires it', async () => {
      const payment = await create(1000)
      clock.advance(30 * 60 * 1000)
      const error = await refusal(pay(payment.id))
      expect(error.statusCode).toBe(409)
      expect(error.message).toBe(`Payment ${payment.id} expired at ${payment.expiresAt} and cannot be paid`)
      expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
    })

    it('expires, rather than credits, an open payment past its expiry when money arrives any other way', async () => {
      const payment = await create(1000)
      clock.advance(30 * 60 * 1000)
      const params = new URL(payment.qrCode).searchParams
      const [customer] = await sandbox.context.ledger.listAccounts(sandbox.context.db, { role: 'customer' })
      await runTransaction(sandbox.context.db, (trx) =>
        sandbox.context.ledger.transfer(trx, {
          from: customer!.publicKey,
          to: params.get('destination')!,
          asset: 'USDC',
          amount: 100_000_000n,
          memo: params.get('memo')!,
        }),
      )
      const after = await sandbox.direct.payments.get(payment.id)
      expect(after).toMatchObject({ status: 'expired', amount_paid: 0 })
      expect(after.stellarTxId).toBeUndefined()
    })

    it('refuses unknown body fields and non-empty bodies where none is taken', async () => {
      const payment = await create(100)
      expect((await refusal(post(`/sandbox/payments/${payment.id}/fail`, { reason: 'x', extra: 1 }))).statusCode).toBe(400)
      expect((await refusal(post(`/sandbox/payments/${payment.id}/expire`, { now: true }))).statusCode).toBe(400)
      expect((await refusal(pay(payment.id, { failSettlement: 'yes' }))).statusCode).toBe(400)
      expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
    })
  })

  it('conserves USDC across everything above', async () => {
    const report = await ledgerSupply(sandbox)
    expect(report.usdc.circulating).toBe(report.usdc.issued)
  })
})
