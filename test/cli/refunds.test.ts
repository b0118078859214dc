// `paybox payments refund` and `paybox refunds list|get`, in-process against a real sandbox:
// a refund is real money going back over the ledger, so the tests look at the ledger too.
import { describe, expect, it } from 'vitest'
import type { Page, Payment, Refund } from '../../src/client/types.js'
import { USDC_SCALE, parseDecimal } from '../../src/money.js'
import { expectOneLineFailure, linesOf, merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

describe('paybox refunds', () => {
  const sandbox = sandboxForSuite()
  const env = () => merchantEnv(sandbox)

  /** A payment of `value` cents a customer has paid in full. */
  const paidPayment = async (value: number, currency = 'USD'): Promise<Payment> => {
    const payment = await sandbox.direct.payments.create({ amount: { value, currency }, description: `Refundable ${value}` })
    return sandbox.direct.sandbox.pay(payment.id)
  }
  const totalRefunds = async (): Promise<number> => (await sandbox.direct.refunds.list({ limit: 1 })).meta.totalItems

  describe('payments refund', () => {
    it('refunds part of a payment in major units, paying the customer back over the ledger', async () => {
      const payment = await paidPayment(1000)
      const {
        json: refund,
        exitCode,
        stderr,
      } = await runCliJson<Refund>(
        ['payments', 'refund', payment.id, '--amount', '4.00', '--description', 'Damaged item', '--metadata', 'ticket=T-17'],
        env(),
      )
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(refund.refund_id).toMatch(/^rf_/)
      expect(refund.amount.value).toBe(4)
      expect(refund.amount.asset_id).toBe(payment.asset_id)
      expect(refund.status).toBe('refunded')
      expect(refund.paymentId).toBe(payment.id)
      expect(refund.description).toBe('Damaged item')
      expect(refund.metadata).toEqual({ ticket: 'T-17' })

      // The settlement transaction sent 4 USDC back to the wallet that paid (the merchant and
      // the platform each return their share).
      const tx = await sandbox.admin.ledger.transaction(refund.settlement_Id)
      const returned = tx.operations
        .filter((op) => op.to === payment.sender_account && op.asset === 'USDC')
        .reduce((sum, op) => sum + parseDecimal(op.amount, USDC_SCALE)!, 0n)
      expect(returned).toBe(parseDecimal('4', USDC_SCALE))
      expect(await sandbox.direct.refunds.get(refund.refund_id)).toEqual(refund)
    })

    it('with --idempotency-key, a retried refund answers the first one and moves money once', async () => {
      const payment = await paidPayment(1000)
      const args = ['payments', 'refund', payment.id, '--amount', '1.00', '--idempotency-key', 'cli-refund-1']
      const first = await runCliJson<Refund>(args, env())
      const retry = await runCliJson<Refund>(args, env())
      expect(first.exitCode).toBe(0)
      expect(retry.json).toEqual(first.json)
      const refunds = (await sandbox.direct.refunds.list({ limit: 100 })).items.filter((refund) => refund.paymentId === payment.id)
      expect(refunds).toHaveLength(1)
    })

    it('without --amount refunds everything still refundable, after which nothing is', async () => {
      const payment = await paidPayment(1000)
      await sandbox.direct.payments.refund(payment.id, { amount: 300 })
      const { json: refund, exitCode } = await runCliJson<Refund>(['payments', 'refund', payment.id], env())
      expect(exitCode).toBe(0)
      expect(refund.amount.value).toBe(7)
      expect((await sandbox.direct.payments.get(payment.id)).refunded).toBe(true)

      const before = await totalRefunds()
      const again = await runCli(['payments', 'refund', payment.id], env())
      expect(again.exitCode).toBe(1)
      expect(again.stdout).toBe('')
      expect(linesOf(again.stderr)).toHaveLength(1)
      expect(again.stderr).toMatch(/^Error: (400|409) /)
      expect(await totalRefunds()).toBe(before)
    })

    it('prints the refund: id, USDC amount, status, settlement transaction and payment', async () => {
      const payment = await paidPayment(250)
      const { stdout, stderr, exitCode } = await runCli(['payments', 'refund', payment.id, '--amount', '1.25'], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      const [refund] = (await sandbox.direct.refunds.list({ limit: 1 })).items
      expect(refund?.paymentId).toBe(payment.id)
      expect(stdout).toContain(refund!.refund_id)
      expect(stdout).toContain('1.2500000 USDC')
      expect(stdout).toContain('refunded')
      expect(stdout).toContain(refund!.settlement_Id)
      expect(stdout).toContain(payment.id)
    })

    describe('refuses bad flags in one line, exit 1, and refunds nothing', () => {
      it('--amount abc', async () => {
        const payment = await paidPayment(1000)
        const before = await totalRefunds()
        const result = await runCli(['payments', 'refund', payment.id, '--amount', 'abc'], env())
        expectOneLineFailure(result, '--amount must be a positive amount with at most 2 decimal places for USD, got "abc"')
        expect(await totalRefunds()).toBe(before)
      })

      it('--amount 0', async () => {
        const payment = await paidPayment(1000)
        const before = await totalRefunds()
        const result = await runCli(['payments', 'refund', payment.id, '--amount', '0'], env())
        expectOneLineFailure(result, '--amount must be a positive amount with at most 2 decimal places for USD, got "0"')
        expect(await totalRefunds()).toBe(before)
      })

      it('--metadata without =', async () => {
        const payment = await paidPayment(1000)
        const before = await totalRefunds()
        const result = await runCli(['payments', 'refund', payment.id, '--metadata', 'ticket'], env())
        expectOneLineFailure(result, '--metadata must be key=value, got "ticket"')
        expect(await totalRefunds()).toBe(before)
        expect((await sandbox.direct.payments.get(payment.id)).refunded).toBe(false)
      })
    })
  })

  describe('refunds list and get', () => {
    // A sandbox of its own, so that the list holds only this test's refunds.
    const own = sandboxForSuite()

    it('lists refunds newest first, pages, and gets one by id', async () => {
      const ownEnv = merchantEnv(own)
      const refunds: Refund[] = []
      for (const value of [100, 200, 300]) {
        const payment = await own.direct.payments.create({ amount: { value, currency: 'USD' }, description: `r${value}` })
        await own.direct.sandbox.pay(payment.id)
        refunds.push(await own.direct.payments.refund(payment.id))
      }

      const { json: page, exitCode } = await runCliJson<Page<Refund>>(['refunds', 'list', '--limit', '2'], ownEnv)
      expect(exitCode).toBe(0)
      expect(page.items.map((r) => r.refund_id)).toEqual([refunds[2]!.refund_id, refunds[1]!.refund_id])
      expect(page.meta.totalItems).toBe(3)
      expect(page.meta.totalPages).toBe(2)
      const second = await runCliJson<Page<Refund>>(['refunds', 'list', '--limit', '2', '--page', '2'], ownEnv)
      expect(second.json.items.map((r) => r.refund_id)).toEqual([refunds[0]!.refund_id])

      const table = await runCli(['refunds', 'list'], ownEnv)
      expect(table.exitCode).toBe(0)
      for (const refund of refunds) expect(table.stdout).toContain(refund.refund_id)
      expect(linesOf(table.stdout).at(-1)).toBe('Page 1 of 1 (3 refunds)')

      const got = await runCliJson<Refund>(['refunds', 'get', refunds[1]!.refund_id], ownEnv)
      expect(got.exitCode).toBe(0)
      expect(got.json).toEqual(refunds[1])
    })

    it('an unknown refund id is a 404 in one line', async () => {
      const result = await runCli(['refunds', 'get', 'rf_does_not_exist'], merchantEnv(own))
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toMatch(/^Error: 404 Not Found/)
    })

    it('--limit 0 is refused by the flag parser in one line', async () => {
      const result = await runCli(['refunds', 'list', '--limit', '0'], merchantEnv(own))
      expectOneLineFailure(result, 'Parsing --limit: Expected an integer greater than or equal to 1 but received: 0 (see --help)')
    })
  })
})
