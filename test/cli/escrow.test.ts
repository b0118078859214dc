// `paybox escrow fund|release|fail|status` and `paybox merchants create`, in-process against a
// real sandbox: every test checks what the ledger and the payment became, not just the output.
import { beforeAll, describe, expect, it } from 'vitest'
import type { EscrowFundResult } from '../../commands/escrow/fund.js'
import type { EscrowOrder, Payment, SandboxMerchant } from '../../src/client/types.js'
import { USDC_SCALE, parseDecimal } from '../../src/money.js'
import { expectOneLineFailure, isolatedEnv, linesOf, merchantEnv, runCli, runCliJson, type CliEnv } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

interface Balances {
  custody: bigint
  payee: bigint
  platform: bigint
}

describe('paybox escrow', () => {
  const sandbox = sandboxForSuite()
  const env = () => merchantEnv(sandbox, 'escrow')
  /** The seeded escrow merchant's settlement account: the default payee of its orders. */
  let payee: string

  beforeAll(async () => {
    payee = (await sandbox.admin.sandbox.merchants()).items.find((m) => m.settlement_mode === 'escrow')!.account
  })

  const createOrder = (value: number, currency = 'USD', extra: { escrowPlatformFee?: number } = {}): Promise<Payment> =>
    sandbox.escrow.payments.create({ amount: { value, currency }, description: `Escrow order ${value} ${currency}`, ...extra })
  const stored = (id: string): Promise<Payment> => sandbox.escrow.payments.get(id)
  const fundedOrder = async (value: number, currency = 'USD', extra: { escrowPlatformFee?: number } = {}): Promise<Payment> => {
    const payment = await createOrder(value, currency, extra)
    await sandbox.escrow.sandbox.pay(payment.id)
    return stored(payment.id)
  }

  /** USDC stroops of the custody, the payee and the platform-fee account, as the ledger has them. */
  const balances = async (): Promise<Balances> => {
    const accounts = (await sandbox.admin.ledger.accounts()).items
    const usdcOf = (publicKey: string): bigint => parseDecimal(accounts.find((a) => a.publicKey === publicKey)!.balances.USDC, USDC_SCALE)!
    return { custody: usdcOf(sandbox.identity.escrowCustody), payee: usdcOf(payee), platform: usdcOf(sandbox.identity.platformFeeAccount) }
  }
  const movement = (before: Balances, after: Balances): Balances => ({
    custody: after.custody - before.custody,
    payee: after.payee - before.payee,
    platform: after.platform - before.platform,
  })

  describe('escrow fund', () => {
    it('pays what remains into the custody and the order becomes funded', async () => {
      const payment = await createOrder(1000)
      const before = await balances()
      const { json, stderr, exitCode } = await runCliJson<EscrowFundResult>(['escrow', 'fund', payment.id], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(json.payment).toMatchObject({ id: payment.id, status: 'paid', escrow_status: 'funded', settlement_status: 'open' })
      expect(json.escrow).toMatchObject({
        paymentId: payment.id,
        escrow_status: 'funded',
        held: '10.0000000',
        payee,
        escrow_platform_fee_bps: 250,
      })
      expect(movement(before, await balances())).toEqual({ custody: 100_000_000n, payee: 0n, platform: 0n })
      expect(await stored(payment.id)).toMatchObject({ status: 'paid', escrow_status: 'funded', amount_paid: 1000 })
      // The document is the payment and the order as the server now has them.
      expect(json.payment).toEqual(await stored(payment.id))
      expect(json.escrow).toEqual(await sandbox.escrow.escrow.status(payment.id))
    })

    it('--amount pays part of it: the payment is underpaid and the order not yet funded', async () => {
      const payment = await createOrder(1000)
      const before = await balances()
      const { stdout, exitCode } = await runCli(['escrow', 'fund', payment.id, '--amount', '4.00'], env())
      expect(exitCode).toBe(0)
      const after = await stored(payment.id)
      expect(after).toMatchObject({ status: 'underpaid', escrow_status: 'created', amount_paid: 400 })
      expect(movement(before, await balances()).custody).toBe(40_000_000n)
      expect(stdout).toContain(`Paid 4.00 USD (4.0000000 USDC) from ${after.sender_account}; status underpaid`)
      expect(stdout).toContain(after.escrow_order_id)
      expect(stdout).toMatch(/Escrow status\s*│\s*created\s/)
      expect(stdout).not.toContain('Released')
      expect((await runCliJson<EscrowOrder>(['escrow', 'status', payment.id], env())).json.release).toBeNull()

      // The rest funds it.
      const rest = await runCli(['escrow', 'fund', payment.id], env())
      expect(rest.exitCode).toBe(0)
      expect(rest.stdout).toMatch(/Escrow status\s*│\s*funded/)
      expect(await stored(payment.id)).toMatchObject({ status: 'paid', escrow_status: 'funded', amount_paid: 1000 })
    })

    it('--from pays from the given customer wallet', async () => {
      const customer = (await sandbox.admin.ledger.accounts({ role: 'customer' })).items.at(-1)!
      const payment = await createOrder(300)
      const { json, exitCode } = await runCliJson<EscrowFundResult>(['escrow', 'fund', payment.id, '--from', customer.publicKey], env())
      expect(exitCode).toBe(0)
      expect(json.payment.sender_account).toBe(customer.publicKey)
      expect((await stored(payment.id)).escrow_status).toBe('funded')
    })

    describe('refuses in one line, exit 1, and moves no money', () => {
      const expectUntouched = async (id: string, before: Balances): Promise<void> => {
        expect(await stored(id)).toMatchObject({ status: 'open', amount_paid: 0, escrow_status: 'created' })
        expect(await balances()).toEqual(before)
      }

      it('--amount abc', async () => {
        const payment = await createOrder(1000)
        const before = await balances()
        const result = await runCli(['escrow', 'fund', payment.id, '--amount', 'abc'], env())
        expectOneLineFailure(result, '--amount must be a positive amount with at most 2 decimal places for USD, got "abc"')
        await expectUntouched(payment.id, before)
      })

      it('--from that is not a Stellar account address', async () => {
        const payment = await createOrder(1000)
        const before = await balances()
        const notAnAddress = `G${'A'.repeat(55)}`
        const result = await runCli(['escrow', 'fund', payment.id, '--from', notAnAddress], env())
        expectOneLineFailure(result, `--from must be a Stellar account address (G…), got "${notAnAddress}"`)
        await expectUntouched(payment.id, before)
      })

      it("a direct merchant's payment, which has no escrow order", async () => {
        const direct = await sandbox.direct.payments.create({ amount: { value: 500, currency: 'USD' }, description: 'Direct' })
        const result = await runCli(['escrow', 'fund', direct.id], merchantEnv(sandbox, 'direct'))
        expectOneLineFailure(
          result,
          `Payment ${direct.id} belongs to a direct merchant and has no escrow order (pay it with: paybox payments pay ${direct.id})`,
        )
        expect(await sandbox.direct.payments.get(direct.id)).toMatchObject({ status: 'open', amount_paid: 0 })
      })

      it("a funded order: the server's 409", async () => {
        const payment = await fundedOrder(1000)
        const before = await balances()
        const result = await runCli(['escrow', 'fund', payment.id], env())
        expectOneLineFailure(result, `409 Conflict: Payment ${payment.id} is paid and cannot be paid`)
        expect(await balances()).toEqual(before)
      })
    })
  })

  describe('escrow release', () => {
    it('pays the payee the amount less 250 bps and the platform the fee, and the settlement is paid', async () => {
      const payment = await fundedOrder(1000)
      const before = await balances()
      const { json, stderr, exitCode } = await runCliJson<Payment>(['escrow', 'release', payment.id], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      // 10 USDC × 250 / 10000 = 0.25 USDC to the platform, 9.75 to the payee.
      expect(json).toMatchObject({
        status: 'paid',
        escrow_status: 'funded',
        settlement_status: 'paid',
        settlement_amount: 9.75,
        settlement_fee: 0.25,
      })
      expect(json.settlement_stellarTxId).toMatch(/^[0-9a-f]{64}$/)
      expect(movement(before, await balances())).toEqual({ custody: -100_000_000n, payee: 97_500_000n, platform: 2_500_000n })
      expect(json).toEqual(await stored(payment.id))
      const order = await sandbox.escrow.escrow.status(payment.id)
      expect(order).toMatchObject({ settlement_status: 'paid', held: '0.0000000' })
    })

    it('rounds the fee down to the stroop, and prints the payee amount, the fee and the settlement transaction', async () => {
      // 7 JPY at 0.0067 USD is 0.0469 USDC; at 333 bps the fee is 0.00156177 USDC, rounded down to 0.0015617.
      const payment = await fundedOrder(7, 'JPY', { escrowPlatformFee: 333 })
      const before = await balances()
      const { stdout, exitCode } = await runCli(['escrow', 'release', payment.id], env())
      expect(exitCode).toBe(0)
      expect(movement(before, await balances())).toEqual({ custody: -469_000n, payee: 453_383n, platform: 15_617n })
      const after = await stored(payment.id)
      expect(after).toMatchObject({ settlement_status: 'paid', settlement_amount: 0.0453383, settlement_fee: 0.0015617 })
      expect(stdout).toContain(payment.id)
      expect(stdout).toMatch(/Payee amount\s*│\s*0\.0453383 USDC/)
      expect(stdout).toMatch(/Platform fee\s*│\s*0\.0015617 USDC \(333 bps\)/)
      expect(stdout).toMatch(new RegExp(`Settlement tx\\s*│\\s*${after.settlement_stellarTxId}`))
    })

    it("a second release is the server's 409 in one line, and nothing moves", async () => {
      const payment = await fundedOrder(1000)
      await sandbox.escrow.escrow.release(payment.id)
      const before = { balances: await balances(), payment: await stored(payment.id) }
      const result = await runCli(['escrow', 'release', payment.id], env())
      expectOneLineFailure(result, `409 Conflict: The escrow order of payment ${payment.id} has already been released`)
      expect(await balances()).toEqual(before.balances)
      expect(await stored(payment.id)).toEqual(before.payment)
    })

    it("an unfunded order is the server's 409 in one line, and nothing moves", async () => {
      const payment = await createOrder(1000)
      const before = await balances()
      const result = await runCli(['escrow', 'release', payment.id], env())
      expectOneLineFailure(
        result,
        `409 Conflict: The escrow order of payment ${payment.id} is created: only a funded order can be released`,
      )
      expect(await balances()).toEqual(before)
      expect(await stored(payment.id)).toMatchObject({ status: 'open', settlement_status: 'open', escrow_status: 'created' })
    })
  })

  describe('escrow fail', () => {
    it('fails an unfunded order and its payment, recording the reason', async () => {
      const payment = await createOrder(1000)
      const { json, exitCode, stderr } = await runCliJson<Payment>(
        ['escrow', 'fail', payment.id, '--reason', 'Wallet rejected the transaction'],
        env(),
      )
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(json).toMatchObject({ status: 'failed', escrow_status: 'failed' })
      const after = await stored(payment.id)
      expect(after).toMatchObject({ status: 'failed', escrow_status: 'failed' })
      expect(after.history.map((h) => h.description)).toContain('Escrow funding failed: Wallet rejected the transaction')
    })

    it('prints the failed payment', async () => {
      const payment = await createOrder(1000)
      const { stdout, exitCode } = await runCli(['escrow', 'fail', payment.id], env())
      expect(exitCode).toBe(0)
      expect(stdout).toContain(payment.id)
      expect(stdout).toMatch(/Escrow\s*│\s*failed/)
      expect((await stored(payment.id)).escrow_status).toBe('failed')
    })

    it("refuses a funded order with the server's 409 in one line and leaves it funded", async () => {
      const payment = await fundedOrder(1000)
      const result = await runCli(['escrow', 'fail', payment.id], env())
      expectOneLineFailure(result, `409 Conflict: The escrow order of payment ${payment.id} is funded: only an unfunded order can fail`)
      expect(await stored(payment.id)).toMatchObject({ status: 'paid', escrow_status: 'funded' })
    })
  })

  describe('escrow status', () => {
    it('lists the funding and the release transactions with the order, its custody and its terms', async () => {
      const payment = await fundedOrder(1000)
      const released = await sandbox.escrow.escrow.release(payment.id)
      const funding = released.stellarTxId!
      const release = released.settlement_stellarTxId!

      const { json, exitCode } = await runCliJson<EscrowOrder>(['escrow', 'status', payment.id], env())
      expect(exitCode).toBe(0)
      expect(json).toMatchObject({
        paymentId: payment.id,
        escrow_order_id: payment.escrow_order_id,
        escrow_status: 'funded',
        escrow_contract_address: sandbox.identity.escrowContract,
        custody_account: sandbox.identity.escrowCustody,
        held: '0.0000000',
        payee,
        escrow_platform_fee_bps: 250,
        settlement_status: 'paid',
      })
      // escrow_status keeps the spec's funded; the release says what happened, when and in which transaction.
      const releasedAt = released.history.find((entry) => entry.status === 'settlement_processing')!.time
      expect(json.release).toEqual({ status: 'paid', released_at: new Date(releasedAt).toISOString(), transaction: release })
      expect(json.transactions.map((tx) => tx.hash)).toEqual([funding, release])
      expect(json.transactions[1]!.operations).toEqual([
        { from: sandbox.identity.escrowCustody, to: payee, asset: 'USDC', amount: '9.7500000' },
        { from: sandbox.identity.escrowCustody, to: sandbox.identity.platformFeeAccount, asset: 'USDC', amount: '0.2500000' },
      ])

      const { stdout, stderr } = await runCli(['escrow', 'status', payment.id], env())
      expect(stderr).toBe('')
      for (const text of [
        payment.escrow_order_id!,
        sandbox.identity.escrowContract,
        sandbox.identity.escrowCustody,
        payee,
        '250 bps',
        json.escrow_expires_at!,
      ]) {
        expect(stdout).toContain(text)
      }
      expect(stdout).toMatch(/Contract balance\s*│\s*\d+\.\d{7} USDC/)
      expect(stdout).toMatch(/Settlement\s*│\s*paid/)
      expect(stdout).toMatch(/Escrow status\s*│\s*funded, released\s/)
      expect(stdout).toMatch(new RegExp(`Released\\s*│\\s*${json.release!.released_at}\\s`))
      expect(stdout).toMatch(new RegExp(`Release tx\\s*│\\s*${release}\\s`))
      // One row per transaction, oldest first, hashes shortened as in `ledger transactions`.
      const shortened = (hash: string) => `${hash.slice(0, 8)}…${hash.slice(-4)}`
      const rows = linesOf(stdout).filter((line) => line.includes(shortened(funding)) || line.includes(shortened(release)))
      expect(rows).toHaveLength(2)
      expect(rows[0]).toContain(`${funding.slice(0, 8)}…${funding.slice(-4)}`)
      expect(rows[0]).toContain('→ custody')
      expect(rows[0]).toContain('10.0000000 USDC')
      expect(rows[1]).toContain(`${release.slice(0, 8)}…${release.slice(-4)}`)
      expect(rows[1]).toContain('custody → payee')
      expect(rows[1]).toContain('9.7500000 USDC')
      expect(stdout).toContain(`custody → ${sandbox.identity.platformFeeAccount}`)
      expect(stdout).toContain('0.2500000 USDC')
    })

    it('says so when an order has no transactions yet', async () => {
      const payment = await createOrder(1000)
      const { stdout, exitCode } = await runCli(['escrow', 'status', payment.id], env())
      expect(exitCode).toBe(0)
      expect(stdout).toMatch(/Escrow status\s*│\s*created/)
      expect(stdout).toContain('No ledger transactions yet: the order is unfunded.')
    })

    it("a direct merchant's payment is the server's 409 in one line", async () => {
      const direct = await sandbox.direct.payments.create({ amount: { value: 500, currency: 'USD' }, description: 'Direct' })
      const result = await runCli(['escrow', 'status', direct.id], merchantEnv(sandbox, 'direct'))
      expectOneLineFailure(result, `409 Conflict: Payment ${direct.id} belongs to a direct merchant and has no escrow order`)
    })

    it("another merchant's payment is a 404 in one line", async () => {
      const payment = await createOrder(1000)
      const result = await runCli(['escrow', 'status', payment.id], merchantEnv(sandbox, 'direct'))
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toMatch(/^Error: 404 /)
    })
  })
})

describe('paybox merchants create', () => {
  const sandbox = sandboxForSuite()
  const adminEnv = (): CliEnv => isolatedEnv({ PAYBOX_BASE_URL: sandbox.url, PAYBOX_ADMIN_TOKEN: sandbox.identity.adminToken })
  const merchantCount = async (): Promise<number> => (await sandbox.admin.sandbox.merchants()).items.length

  it('creates a working escrow merchant: a payment made with its keys carries its escrow order and fee', async () => {
    const { json, stderr, exitCode } = await runCliJson<SandboxMerchant>(
      ['merchants', 'create', '--name', 'Corner Market', '--settlement-mode', 'escrow', '--escrow-fee-bps', '400'],
      adminEnv(),
    )
    expect(exitCode).toBe(0)
    expect(stderr).toBe('')
    expect(json).toMatchObject({ name: 'Corner Market', settlement_mode: 'escrow', escrow_fee_bps: 400 })
    expect(json.apiKey).toMatch(/^pk_test_/)
    expect(json.apiSecret).toMatch(/^sk_test_/)
    expect((await sandbox.admin.sandbox.merchants()).items).toContainEqual(json)

    const asMerchant = isolatedEnv({ PAYBOX_BASE_URL: sandbox.url, PAYBOX_API_KEY: json.apiKey, PAYBOX_API_SECRET: json.apiSecret })
    const created = await runCliJson<Payment>(['payments', 'create', '--amount', '20.00', '--description', 'First order'], asMerchant)
    expect(created.exitCode).toBe(0)
    expect(created.json).toMatchObject({
      merchantName: 'Corner Market',
      escrow_status: 'created',
      escrow_platform_fee_bps: 400,
      escrow_contract_address: sandbox.identity.escrowContract,
    })
    expect(created.json.escrow_order_id).toMatch(/^eo_/)

    // Its keys drive the escrow commands too: fund, then release at its own fee (20 × 4% = 0.80).
    expect((await runCli(['escrow', 'fund', created.json.id], asMerchant)).exitCode).toBe(0)
    const released = await runCliJson<Payment>(['escrow', 'release', created.json.id], asMerchant)
    expect(released.json).toMatchObject({ settlement_status: 'paid', settlement_amount: 19.2, settlement_fee: 0.8 })
    const account = (await sandbox.admin.ledger.accounts({ role: 'merchant' })).items.find((a) => a.publicKey === json.account)!
    expect(account.balances.USDC).toBe('19.2000000')
  })

  it('creates a direct merchant and prints its credentials and how to use them', async () => {
    const { stdout, stderr, exitCode } = await runCli(
      ['merchants', 'create', '--name', 'Corner Shop', '--settlement-mode', 'direct'],
      adminEnv(),
    )
    expect(exitCode).toBe(0)
    expect(stderr).toBe('')
    const merchant = (await sandbox.admin.sandbox.merchants()).items.find((m) => m.name === 'Corner Shop')!
    expect(merchant).toMatchObject({ settlement_mode: 'direct', escrow_fee_bps: 0 })
    for (const text of [merchant.id, merchant.apiKey, merchant.apiSecret, merchant.account]) expect(stdout).toContain(text)
    expect(stdout).not.toContain('Escrow fee')
    expect(stdout).toContain(
      `paybox login --base-url ${sandbox.url} --api-key ${merchant.apiKey} --api-secret ${merchant.apiSecret} --profile corner-shop`,
    )
    expect(stdout).toContain(`--api-key ${merchant.apiKey} --api-secret ${merchant.apiSecret}`)

    const payment = await runCliJson<Payment>(
      [
        'payments',
        'create',
        '--amount',
        '5.00',
        '--description',
        'Direct',
        '--api-key',
        merchant.apiKey,
        '--api-secret',
        merchant.apiSecret,
      ],
      isolatedEnv({ PAYBOX_BASE_URL: sandbox.url }),
    )
    expect(payment.exitCode).toBe(0)
    expect(payment.json.merchantName).toBe('Corner Shop')
    expect(payment.json).not.toHaveProperty('escrow_status')
  })

  describe('refuses bad input in one line and creates nothing', () => {
    it('--escrow-fee-bps for a direct merchant', async () => {
      const before = await merchantCount()
      const result = await runCli(
        ['merchants', 'create', '--name', 'X', '--settlement-mode', 'direct', '--escrow-fee-bps', '10'],
        adminEnv(),
      )
      expectOneLineFailure(result, '400 Bad Request: --escrow-fee-bps: only for merchants with settlement_mode escrow')
      expect(await merchantCount()).toBe(before)
    })

    it('--escrow-fee-bps above 10000', async () => {
      const before = await merchantCount()
      const result = await runCli(
        ['merchants', 'create', '--name', 'X', '--settlement-mode', 'escrow', '--escrow-fee-bps', '10001'],
        adminEnv(),
      )
      expectOneLineFailure(
        result,
        'Parsing --escrow-fee-bps: Expected an integer less than or equal to 10000 but received: 10001 (see --help)',
      )
      expect(await merchantCount()).toBe(before)
    })

    it('an unknown --settlement-mode', async () => {
      const before = await merchantCount()
      const result = await runCli(['merchants', 'create', '--name', 'X', '--settlement-mode', 'weekly'], adminEnv())
      expectOneLineFailure(result, 'Expected --settlement-mode=weekly to be one of: direct, escrow (see --help)')
      expect(await merchantCount()).toBe(before)
    })

    it('no --settlement-mode', async () => {
      const result = await runCli(['merchants', 'create', '--name', 'X'], adminEnv())
      expectOneLineFailure(result, 'The following error occurred: Missing required flag settlement-mode (see --help)')
    })

    it('a blank --name', async () => {
      const before = await merchantCount()
      const result = await runCli(['merchants', 'create', '--name', '  ', '--settlement-mode', 'direct'], adminEnv())
      expectOneLineFailure(result, '400 Bad Request: --name: must not be empty')
      expect(await merchantCount()).toBe(before)
    })

    it('no admin token', async () => {
      const before = await merchantCount()
      const result = await runCli(
        ['merchants', 'create', '--name', 'X', '--settlement-mode', 'direct'],
        isolatedEnv({ PAYBOX_BASE_URL: sandbox.url }),
      )
      expectOneLineFailure(
        result,
        `No sandbox admin token for ${sandbox.url} (pass --admin-token, set PAYBOX_ADMIN_TOKEN, or run: paybox login --from-sandbox)`,
      )
      expect(await merchantCount()).toBe(before)
    })

    it('with --json the error is the one JSON document on stdout', async () => {
      const result = await runCliJson<{ error: { message: string } }>(
        ['merchants', 'create', '--name', 'X', '--settlement-mode', 'direct', '--escrow-fee-bps', '1'],
        adminEnv(),
      )
      expect(result.exitCode).toBe(1)
      expect(result.json.error.message).toBe('400 Bad Request: --escrow-fee-bps: only for merchants with settlement_mode escrow')
    })
  })
})
