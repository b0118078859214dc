// `paybox payments pay|fail|expire|accept-underpayment` run in-process against a real sandbox:
// every test checks what the payment became on the server, not just what the CLI printed.
import { describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import { expectOneLineFailure, linesOf, merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

describe('paybox payments: simulating customers and outcomes', () => {
  const sandbox = sandboxForSuite()
  const env = () => merchantEnv(sandbox)

  const createPayment = (value: number, currency = 'USD'): Promise<Payment> =>
    sandbox.direct.payments.create({ amount: { value, currency }, description: `Simulated ${value} ${currency}` })
  const stored = (id: string): Promise<Payment> => sandbox.direct.payments.get(id)

  describe('payments pay', () => {
    it('--underpay pays half of what remains and leaves the payment underpaid', async () => {
      const payment = await createPayment(1000)
      const { json, exitCode, stderr } = await runCliJson<Payment>(['payments', 'pay', payment.id, '--underpay'], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(json.status).toBe('underpaid')
      expect(json.amount_paid).toBe(500)
      const after = await stored(payment.id)
      expect(after.status).toBe('underpaid')
      expect(after.amount_paid).toBe(500)
      expect(after.stellarTxId).toMatch(/^[0-9a-f]{64}$/)

      // Half of what remains the second time: 2.50 of the 5.00 left.
      const again = await runCliJson<Payment>(['payments', 'pay', payment.id, '--underpay'], env())
      expect(again.exitCode).toBe(0)
      expect((await stored(payment.id)).amount_paid).toBe(750)
    })

    it('--idempotency-key: a retried pay answers the first one and pays once', async () => {
      const payment = await createPayment(1000)
      const args = ['payments', 'pay', payment.id, '--amount', '1.00', '--idempotency-key', 'cli-pay-1']
      const first = await runCliJson<Payment>(args, env())
      const retry = await runCliJson<Payment>(args, env())
      expect(first.exitCode).toBe(0)
      expect(retry.json).toEqual(first.json)
      expect((await stored(payment.id)).amount_paid).toBe(100)
    })

    it('--overpay pays what remains plus a tenth of the amount, and the payment is paid', async () => {
      const payment = await createPayment(1000)
      await sandbox.direct.sandbox.pay(payment.id, { amount: 400 })
      const { json, exitCode } = await runCliJson<Payment>(['payments', 'pay', payment.id, '--overpay'], env())
      expect(exitCode).toBe(0)
      expect(json.status).toBe('paid')
      const after = await stored(payment.id)
      expect(after.status).toBe('paid')
      expect(after.amount_paid).toBe(1100)
    })

    it('--amount in major units pays exactly that and prints the payment and a summary line', async () => {
      const payment = await createPayment(1000)
      const { stdout, stderr, exitCode } = await runCli(['payments', 'pay', payment.id, '--amount', '2.50'], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      const after = await stored(payment.id)
      expect(after.status).toBe('underpaid')
      expect(after.amount_paid).toBe(250)
      expect(after.sender_account).toMatch(/^G[A-Z2-7]{55}$/)
      expect(stdout).toContain(payment.id)
      expect(linesOf(stdout).at(-1)).toBe(`Paid 2.50 USD (2.5000000 USDC) from ${after.sender_account}; status underpaid`)
    })

    it("without an amount pays exactly what remains, in the payment's own currency", async () => {
      const payment = await createPayment(1250, 'EUR')
      await sandbox.direct.sandbox.pay(payment.id, { amount: 250 })
      const { stdout, exitCode } = await runCli(['payments', 'pay', payment.id], env())
      expect(exitCode).toBe(0)
      const after = await stored(payment.id)
      expect(after.status).toBe('paid')
      expect(after.amount_paid).toBe(1250)
      // 10.00 EUR at the sandbox rate of 1.08 USD.
      expect(linesOf(stdout).at(-1)).toBe(`Paid 10.00 EUR (10.8000000 USDC) from ${after.sender_account}; status paid`)
    })

    it('takes whole units for a zero-decimal currency', async () => {
      const payment = await createPayment(1500, 'JPY')
      const { json, exitCode } = await runCliJson<Payment>(['payments', 'pay', payment.id, '--amount', '500'], env())
      expect(exitCode).toBe(0)
      expect(json.amount_paid).toBe(500)
      expect((await stored(payment.id)).amount_paid).toBe(500)
    })

    it('--from pays from the given customer wallet', async () => {
      const customers = (await sandbox.admin.ledger.accounts({ role: 'customer' })).items
      const customer = customers.at(-1)!
      const payment = await createPayment(300)
      const { json, exitCode } = await runCliJson<Payment>(['payments', 'pay', payment.id, '--from', customer.publicKey], env())
      expect(exitCode).toBe(0)
      expect(json.sender_account).toBe(customer.publicKey)
      expect((await stored(payment.id)).sender_account).toBe(customer.publicKey)
    })

    it('--fail-settlement pays the payment and makes its settlement fail', async () => {
      const payment = await createPayment(800)
      const { json, exitCode } = await runCliJson<Payment>(['payments', 'pay', payment.id, '--fail-settlement'], env())
      expect(exitCode).toBe(0)
      expect(json.status).toBe('paid')
      const after = await stored(payment.id)
      expect(after.status).toBe('paid')
      expect(after.settlement_status).toBe('failed')
    })

    it('--json prints exactly one JSON document: the payment as the server now has it', async () => {
      const payment = await createPayment(600)
      const { stdout, json, exitCode } = await runCliJson<Payment>(['payments', 'pay', payment.id, '--amount', '1'], env())
      expect(exitCode).toBe(0)
      expect(stdout.trim().startsWith('{')).toBe(true)
      expect(stdout.trim().endsWith('}')).toBe(true)
      expect(json).toEqual(await stored(payment.id))
    })

    describe('refuses bad flags in one line, exit 1, and pays nothing', () => {
      const expectUnpaid = async (id: string): Promise<void> => {
        const after = await stored(id)
        expect(after.status).toBe('open')
        expect(after.amount_paid).toBe(0)
        expect(after.stellarTxId).toBeUndefined()
      }

      it('--amount abc', async () => {
        const payment = await createPayment(1000)
        const result = await runCli(['payments', 'pay', payment.id, '--amount', 'abc'], env())
        expectOneLineFailure(result, '--amount must be a positive amount with at most 2 decimal places for USD, got "abc"')
        await expectUnpaid(payment.id)
      })

      it('--amount with more decimals than the currency has', async () => {
        const payment = await createPayment(1500, 'JPY')
        const result = await runCli(['payments', 'pay', payment.id, '--amount', '1.5'], env())
        expectOneLineFailure(result, '--amount must be a positive amount with at most 0 decimal places for JPY, got "1.5"')
        await expectUnpaid(payment.id)
      })

      it('--underpay with --overpay', async () => {
        const payment = await createPayment(1000)
        const result = await runCli(['payments', 'pay', payment.id, '--underpay', '--overpay'], env())
        expectOneLineFailure(result, '--underpay and --overpay cannot be used together (pass one of --amount, --underpay, --overpay)')
        await expectUnpaid(payment.id)
      })

      it('--amount with --underpay', async () => {
        const payment = await createPayment(1000)
        const result = await runCli(['payments', 'pay', payment.id, '--amount', '1', '--underpay'], env())
        expectOneLineFailure(result, '--amount and --underpay cannot be used together (pass one of --amount, --underpay, --overpay)')
        await expectUnpaid(payment.id)
      })

      it('--from that is not a Stellar account address', async () => {
        const payment = await createPayment(1000)
        const notAnAddress = `G${'A'.repeat(55)}`
        const result = await runCli(['payments', 'pay', payment.id, '--from', notAnAddress], env())
        expectOneLineFailure(result, `--from must be a Stellar account address (G…), got "${notAnAddress}"`)
        await expectUnpaid(payment.id)
      })

      it("--underpay when one smallest unit remains: the sandbox's 409", async () => {
        const payment = await createPayment(1)
        const result = await runCli(['payments', 'pay', payment.id, '--underpay'], env())
        expectOneLineFailure(
          result,
          `409 Conflict: Payment ${payment.id} has 0.01 USD left to pay, which cannot be underpaid: pay it in full instead`,
        )
        await expectUnpaid(payment.id)
      })
    })

    it("--underpay and --overpay on a paid payment show the sandbox's 409 and change nothing", async () => {
      const payment = await createPayment(400)
      await sandbox.direct.sandbox.pay(payment.id)
      const before = await stored(payment.id)
      for (const flag of ['--underpay', '--overpay']) {
        const result = await runCli(['payments', 'pay', payment.id, flag], env())
        expectOneLineFailure(result, `409 Conflict: Payment ${payment.id} is paid and cannot be paid`)
      }
      expect(await stored(payment.id)).toEqual(before)
    })

    it("--underpay and --overpay pay what the checkout's buttons pay: the sandbox decides the amounts", async () => {
      // 12.55 USD: a tenth is 1.255, which the sandbox rounds half up.
      const press = async (payment: Payment, action: string) => {
        const body = new URLSearchParams({ auth_token: new URL(payment.hostedUrl).searchParams.get('auth_token')!, lang: 'en' })
        const response = await fetch(`${sandbox.url}/checkout/${payment.id}/actions/${action}`, {
          method: 'POST',
          body,
          redirect: 'manual',
        })
        expect(response.status).toBe(303)
        return stored(payment.id)
      }
      const [cli, checkout] = [await createPayment(1255), await createPayment(1255)]
      expect((await runCliJson<Payment>(['payments', 'pay', cli.id, '--overpay'], env())).json.amount_paid).toBe(1381)
      expect((await press(checkout, 'overpay')).amount_paid).toBe(1381)

      const [cliPart, checkoutPart] = [await createPayment(1255), await createPayment(1255)]
      expect((await runCliJson<Payment>(['payments', 'pay', cliPart.id, '--underpay'], env())).json.amount_paid).toBe(627)
      expect((await press(checkoutPart, 'pay-part')).amount_paid).toBe(627)
    })

    it("paying a paid payment is the server's 409, in one line", async () => {
      const payment = await createPayment(400)
      await sandbox.direct.sandbox.pay(payment.id)
      const before = await stored(payment.id)
      const result = await runCli(['payments', 'pay', payment.id], env())
      expectOneLineFailure(result, `409 Conflict: Payment ${payment.id} is paid and cannot be paid`)
      expect(await stored(payment.id)).toEqual(before)
    })
  })

  describe('payments fail', () => {
    it('moves an open payment to failed, recording the reason', async () => {
      const payment = await createPayment(1000)
      const { json, exitCode, stderr } = await runCliJson<Payment>(
        ['payments', 'fail', payment.id, '--reason', 'Card network timeout'],
        env(),
      )
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(json.status).toBe('failed')
      const after = await stored(payment.id)
      expect(after.status).toBe('failed')
      expect(after.history.at(-1)).toMatchObject({ status: 'failed' })
      expect(after.history.at(-1)?.description).toContain('Card network timeout')
    })

    it('prints the failed payment', async () => {
      const payment = await createPayment(1000)
      const { stdout, exitCode } = await runCli(['payments', 'fail', payment.id], env())
      expect(exitCode).toBe(0)
      expect(stdout).toContain(payment.id)
      expect(stdout).toContain('failed')
      expect((await stored(payment.id)).status).toBe('failed')
    })
  })

  describe('payments expire', () => {
    it('moves an open payment to expired at once', async () => {
      const payment = await createPayment(1000)
      const { json, exitCode } = await runCliJson<Payment>(['payments', 'expire', payment.id], env())
      expect(exitCode).toBe(0)
      expect(json.status).toBe('expired')
      expect((await stored(payment.id)).status).toBe('expired')
    })

    it("refuses a paid payment with the server's 409 and leaves it paid", async () => {
      const payment = await createPayment(1000)
      await sandbox.direct.sandbox.pay(payment.id)
      const result = await runCli(['payments', 'expire', payment.id], env())
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toMatch(/^Error: 409 /)
      expect((await stored(payment.id)).status).toBe('paid')
    })
  })

  describe('payments accept-underpayment', () => {
    it('makes an underpaid payment paid with what it received', async () => {
      const payment = await createPayment(1000)
      await sandbox.direct.sandbox.pay(payment.id, { amount: 300 })
      const { json, exitCode } = await runCliJson<Payment>(['payments', 'accept-underpayment', payment.id], env())
      expect(exitCode).toBe(0)
      expect(json.status).toBe('paid')
      const after = await stored(payment.id)
      expect(after.status).toBe('paid')
      expect(after.amount_paid).toBe(300)
    })

    it("refuses an open payment with the server's 400 and leaves it open", async () => {
      const payment = await createPayment(1000)
      const result = await runCli(['payments', 'accept-underpayment', payment.id], env())
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toMatch(new RegExp(`^Error: 400 Bad Request: Payment ${payment.id} is open; only an underpaid payment`))
      expect((await stored(payment.id)).status).toBe('open')
    })
  })
})
