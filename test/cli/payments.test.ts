// `paybox payments …` and `paybox currencies` run in-process against a real sandbox over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Currency, Page, Payment } from '../../src/client/types.js'
import { expectOneLineFailure, isolatedEnv, linesOf, runCli, runCliJson, type CliEnv } from '../../harness/cli.js'
import { runOnTerminal } from '../../harness/terminal.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

describe('paybox payments and currencies', () => {
  let sandbox: TestSandbox
  /** Connection of the seeded direct merchant, by environment. */
  let env: () => CliEnv

  beforeAll(async () => {
    sandbox = await startTestSandbox()
    const direct = sandbox.merchants.find((m) => m.settlement_mode === 'direct')!
    env = () => isolatedEnv({ PAYBOX_BASE_URL: sandbox.url, PAYBOX_API_KEY: direct.apiKey, PAYBOX_API_SECRET: direct.apiSecret })
  })
  afterAll(() => sandbox.stop())

  const totalPayments = async (): Promise<number> => (await sandbox.direct.payments.list({ limit: 1 })).meta.totalItems

  describe('payments create', () => {
    it('creates a payment from major units and prints exactly one JSON document', async () => {
      const {
        json: payment,
        stdout,
        stderr,
        exitCode,
      } = await runCliJson<Payment>(
        [
          'payments',
          'create',
          '--amount',
          '12.50',
          '--currency',
          'EUR',
          '--description',
          'Order 1',
          '--metadata',
          'a=1',
          '--metadata',
          'b=2',
          '--store-id',
          's1',
        ],
        env(),
      )
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(stdout.trim().startsWith('{')).toBe(true)
      expect(stdout.trim().endsWith('}')).toBe(true)
      expect(payment.amount).toEqual({ value: 1250, currency: 'EUR' })
      expect(payment.description).toBe('Order 1')
      expect(payment.metadata).toEqual({ a: '1', b: '2' })
      expect(payment.storeId).toBe('s1')
      expect(payment.status).toBe('open')
      expect(payment.hostedUrl.startsWith(`${sandbox.url}/`)).toBe(true)
      expect(payment.shortUrl?.startsWith(`${sandbox.url}/`)).toBe(true)
      expect(payment.qrCode.startsWith('web+stellar:pay?')).toBe(true)
      // It really exists on the server, as created.
      const stored = await sandbox.direct.payments.get(payment.id)
      expect(stored.amount).toEqual({ value: 1250, currency: 'EUR' })
      expect(stored.metadata).toEqual({ a: '1', b: '2' })
    })

    it('takes a zero-decimal currency in whole units: 1500 JPY is 1500', async () => {
      const { json: payment, exitCode } = await runCliJson<Payment>(
        ['payments', 'create', '--amount', '1500', '--currency', 'JPY', '--description', 'Yen'],
        env(),
      )
      expect(exitCode).toBe(0)
      expect(payment.amount).toEqual({ value: 1500, currency: 'JPY' })
    })

    it('rejects more decimals than the currency has, naming --amount, and creates nothing', async () => {
      const before = await totalPayments()
      const { stdout, stderr, exitCode, error } = await runCli(
        ['payments', 'create', '--amount', '12.345', '--currency', 'USD', '--description', 'Too precise'],
        env(),
      )
      expect(error).toBeUndefined()
      expect(exitCode).toBe(1)
      expect(stdout).toBe('')
      expect(linesOf(stderr)).toHaveLength(1)
      expect(stderr).toBe('Error: --amount must be a positive amount with at most 2 decimal places for USD, got "12.345"\n')
      expect(await totalPayments()).toBe(before)
    })

    it('refuses an --amount too large for the API by its size, not its decimals', async () => {
      const before = await totalPayments()
      expectOneLineFailure(
        await runCli(['payments', 'create', '--amount', '99999999999999', '--description', 'Too big'], env()),
        '--amount must be no more than 1000000000.00 USD, got "99999999999999"',
      )
      expectOneLineFailure(
        await runCli(['payments', 'create', '--amount', '100000000001', '--currency', 'JPY', '--description', 'Too big'], env()),
        '--amount must be no more than 100000000000 JPY, got "100000000001"',
      )
      expect(await totalPayments()).toBe(before)
    })

    it('on a terminal, checks the amount at its question before asking the next', async () => {
      const terminal = runOnTerminal(['payments', 'create', '--currency', 'EUR'], env())
      await terminal.waitForText('Amount in EUR')
      terminal.type('abc')
      await terminal.waitForText('Enter a positive amount with at most 2 decimal places for EUR')
      expect(terminal.screen()).not.toContain('Description')
      terminal.type('\x15999999999999')
      await terminal.waitForText('Enter no more than 1000000000.00 EUR')
      terminal.type('\x1512.50')
      await terminal.waitForText('Description shown to the customer')
      terminal.type('Typed at the prompt')
      expect(await terminal.exited).toBe(0)
      const id = /pt_[0-9a-f]+/.exec(terminal.screen())![0]
      expect((await sandbox.direct.payments.get(id)).amount).toEqual({ value: 1250, currency: 'EUR' })
    })

    it('fits its table to a 100-column terminal; --wide and piped output keep the wallet URI whole', async () => {
      const args = ['payments', 'create', '--amount', '12.50', '--description', 'Fits']
      const fitted = runOnTerminal(args, env(), 100)
      expect(await fitted.exited).toBe(0)
      const lines = fitted
        .screen()
        .split(/\r?\n/)
        .filter((line) => line.includes('│') || line.includes('─'))
      expect(lines.length).toBeGreaterThan(10)
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(100)
      expect(fitted.screen()).toMatch(/Wallet URI +│ web\+stellar:pay\?destination=G[^\s]*…/)

      const wide = runOnTerminal([...args, '--wide'], env(), 100)
      expect(await wide.exited).toBe(0)
      const piped = await runCli(args, env())
      for (const output of [wide.screen().replace(/\r?\n/g, ''), piped.stdout])
        expect(output).toMatch(/web\+stellar:pay\?destination=G[A-Z0-9]{55}&[^\s│]*memo=[^\s│]+/)
    })

    it('returns the same payment for a repeated --idempotency-key', async () => {
      const argv = ['payments', 'create', '--amount', '3', '--description', 'Once', '--idempotency-key', 'k1']
      const before = await totalPayments()
      const first = await runCliJson<Payment>(argv, env())
      const second = await runCliJson<Payment>(argv, env())
      expect(first.exitCode).toBe(0)
      expect(second.exitCode).toBe(0)
      expect(second.json.id).toBe(first.json.id)
      expect(first.json.amount).toEqual({ value: 300, currency: 'USD' })
      expect(await totalPayments()).toBe(before + 1)
    })

    it('prints the payment and a block-character QR code with --qr', async () => {
      const { stdout, stderr, exitCode } = await runCli(
        ['payments', 'create', '--amount', '7.25', '--currency', 'USD', '--description', 'QR please', '--qr'],
        env(),
      )
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      const [payment] = (await sandbox.direct.payments.list({ limit: 1 })).items
      expect(payment?.description).toBe('QR please')
      expect(stdout).toContain(payment!.id)
      expect(stdout).toContain(payment!.hostedUrl)
      expect(stdout).toContain('7.25 USD')
      expect(/[▄▀█]/.test(stdout)).toBe(true)
      // The QR code is a block of equally wide rows of block characters.
      const qrRows = stdout.split('\n').filter((line) => /^[▄▀█ ]+$/.test(line) && /[▄▀█]/.test(line))
      expect(qrRows.length).toBeGreaterThan(10)
      expect(new Set(qrRows.map((row) => row.length)).size).toBe(1)
    })
  })

  describe('QR codes', () => {
    const hasQr = (text: string): boolean => /[▄▀█]{4}/.test(text)
    const REFUND = '0x52908400098527886E0F7030069857D2E4169EE7'
    const quoteArgs = (id: string) => [
      'payments',
      'quote',
      id,
      '--origin-chain',
      'base',
      '--origin-token',
      'USDC',
      '--refund-address',
      REFUND,
    ]
    const newPayment = () => sandbox.direct.payments.create({ amount: { value: 500, currency: 'USD' }, description: 'QR rule' })

    it('payments create and payments quote print one on a terminal by default, and --no-qr leaves it out', async () => {
      const create = runOnTerminal(['payments', 'create', '--amount', '5', '--description', 'On a terminal'], env())
      expect(await create.exited).toBe(0)
      expect(hasQr(create.screen())).toBe(true)
      const quote = runOnTerminal(quoteArgs((await newPayment()).id), env())
      expect(await quote.exited).toBe(0)
      expect(hasQr(quote.screen())).toBe(true)
      for (const argv of [
        ['payments', 'create', '--amount', '5', '--description', 'No QR', '--no-qr'],
        [...quoteArgs((await newPayment()).id), '--no-qr'],
      ]) {
        const session = runOnTerminal(argv, env())
        expect(await session.exited).toBe(0)
        expect(session.screen()).toContain('USD')
        expect(hasQr(session.screen())).toBe(false)
      }
    })

    it('both leave it out when piped, unless --qr asks for it; never with --json', async () => {
      const piped = await runCli(['payments', 'create', '--amount', '5', '--description', 'Piped'], env())
      expect(piped.exitCode).toBe(0)
      expect(hasQr(piped.stdout)).toBe(false)
      const quoted = await runCli(quoteArgs((await newPayment()).id), env())
      expect(quoted.exitCode).toBe(0)
      expect(quoted.stdout).toContain('USDC on base')
      expect(hasQr(quoted.stdout)).toBe(false)
      const asked = await runCli([...quoteArgs((await newPayment()).id), '--qr'], env())
      expect(hasQr(asked.stdout)).toBe(true)
      const json = await runCliJson<Payment>(['payments', 'create', '--amount', '5', '--description', 'JSON', '--qr'], env())
      expect(json.exitCode).toBe(0)
      expect(hasQr(json.stdout)).toBe(false)
      // payments get: the same rule, for a payment that can still be paid.
      expect(hasQr((await runCli(['payments', 'get', json.json.id, '--qr'], env())).stdout)).toBe(true)
      expect(hasQr((await runCli(['payments', 'get', json.json.id], env())).stdout)).toBe(false)
    })
  })

  describe('payments get', () => {
    it('round-trips a payment by id', async () => {
      const created = await sandbox.direct.payments.create({ amount: { value: 4200, currency: 'USD' }, description: 'Fetch me' })
      const { json, exitCode, stderr } = await runCliJson<Payment>(['payments', 'get', created.id], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(json).toEqual(created)
    })

    it('labels its amounts by their unit: the price in its currency and in USDC, then the USDC net of the fee once settled', async () => {
      const created = await sandbox.direct.payments.create({ amount: { value: 1000, currency: 'EUR' }, description: 'Units' })
      const before = await runCli(['payments', 'get', created.id], env())
      expect(before.stdout).toMatch(/Price +│ 10\.00 EUR/)
      expect(before.stdout).toMatch(/Price in USDC +│ 10\.8000000 USDC/)
      expect(before.stdout).not.toContain('Net in USDC')
      await sandbox.direct.sandbox.pay(created.id)
      const settled = await sandbox.direct.payments.get(created.id)
      expect(settled.settlement_status).toBe('paid')
      const after = await runCli(['payments', 'get', created.id], env())
      expect(after.stdout).toMatch(/Paid +│ 10\.00 EUR/)
      expect(after.stdout).toMatch(/Net in USDC +│ 10\.6920000 USDC after a 0\.1080000 USDC fee/)
      expect(after.stdout).not.toContain('Price in USDC')
    })

    it('fails with exit code 1 and one line naming the 404 for an unknown id', async () => {
      const { stdout, stderr, exitCode, error } = await runCli(['payments', 'get', 'pt_does_not_exist'], env())
      expect(error).toBeUndefined()
      expect(exitCode).toBe(1)
      expect(stdout).toBe('')
      expect(linesOf(stderr)).toHaveLength(1)
      expect(stderr).toBe('Error: 404 Not Found: No payment pt_does_not_exist\n')
    })
  })

  describe('payments list', () => {
    // A sandbox of its own, so that the total counts only this test's payments.
    let own: TestSandbox
    beforeAll(async () => {
      own = await startTestSandbox()
    })
    afterAll(() => own.stop())

    it('pages with --status and --limit and reports the total', async () => {
      const ownEnv = isolatedEnv({
        PAYBOX_BASE_URL: own.url,
        PAYBOX_API_KEY: own.merchants[0]!.apiKey,
        PAYBOX_API_SECRET: own.merchants[0]!.apiSecret,
      })
      const ids: string[] = []
      for (const description of ['one', 'two', 'three']) {
        ids.push((await own.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description })).id)
      }
      const { json: page, exitCode } = await runCliJson<Page<Payment>>(['payments', 'list', '--status', 'open', '--limit', '1'], ownEnv)
      expect(exitCode).toBe(0)
      expect(page.items).toHaveLength(1)
      expect(ids).toContain(page.items[0]!.id)
      expect(page.items[0]!.status).toBe('open')
      expect(page.meta.totalItems).toBe(3)
      expect(page.meta.itemsPerPage).toBe(1)
      expect(page.meta.totalPages).toBe(3)
    })

    it('rejects --limit 500 with one line and a non-zero exit', async () => {
      const { stdout, stderr, exitCode, error } = await runCli(['payments', 'list', '--limit', '500'], env())
      expect(error).toBeUndefined()
      expect(exitCode).toBe(1)
      expect(stdout).toBe('')
      expect(linesOf(stderr)).toHaveLength(1)
      expect(stderr).toBe('Error: Parsing --limit: Expected an integer less than or equal to 100 but received: 500 (see --help)\n')
    })
  })

  describe('currencies', () => {
    it('lists USD with precision 2 and JPY with precision 0', async () => {
      const { json, exitCode, stderr } = await runCliJson<{ items: Currency[] }>(['currencies'], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      const byCode = new Map(json.items.map((c) => [c.code, c]))
      expect(byCode.get('USD')?.precision).toBe(2)
      expect(byCode.get('JPY')?.precision).toBe(0)
      expect(byCode.get('EUR')?.precision).toBe(2)
    })
  })

  describe('bad flags', () => {
    it('an unknown flag fails with one non-empty stderr line', async () => {
      const { stdout, stderr, exitCode, error } = await runCli(['payments', 'list', '--bogus'], env())
      expect(error).toBeUndefined()
      expect(exitCode).toBe(1)
      expect(stdout).toBe('')
      expect(linesOf(stderr)).toHaveLength(1)
      expect(stderr).toBe('Error: Nonexistent flag: --bogus (see --help)\n')
    })

    it('a non-integer --limit fails with one non-empty stderr line', async () => {
      const { stdout, stderr, exitCode, error } = await runCli(['payments', 'list', '--limit', 'abc'], env())
      expect(error).toBeUndefined()
      expect(exitCode).toBe(1)
      expect(stdout).toBe('')
      expect(linesOf(stderr)).toHaveLength(1)
      expect(stderr).toBe('Error: Parsing --limit: Expected an integer but received: abc (see --help)\n')
    })
  })
})
