// `paybox ledger accounts|transactions|tx`, in-process against a real sandbox: what the CLI
// shows is what the ledger recorded when a customer paid.
import { beforeAll, describe, expect, it } from 'vitest'
import type { LedgerAccount, LedgerTransaction, Payment } from '../../src/client/types.js'
import { expectOneLineFailure, linesOf, merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

describe('paybox ledger', () => {
  const sandbox = sandboxForSuite()
  const env = () => merchantEnv(sandbox)
  /** A payment a customer paid in full; its stellarTxId is on the ledger. */
  let paid: Payment

  beforeAll(async () => {
    const payment = await sandbox.direct.payments.create({ amount: { value: 1250, currency: 'USD' }, description: 'On the ledger' })
    paid = await sandbox.direct.sandbox.pay(payment.id)
  })

  const memoOf = (payment: Payment): string => new URL(payment.qrCode).searchParams.get('memo')!

  describe('ledger accounts', () => {
    it('lists every account, and only customers with --role customer', async () => {
      const all = await runCliJson<{ items: LedgerAccount[] }>(['ledger', 'accounts'], env())
      expect(all.exitCode).toBe(0)
      expect(new Set(all.json.items.map((a) => a.role))).toEqual(new Set(['issuer', 'merchant', 'escrow', 'platform_fee', 'customer']))

      const customers = await runCliJson<{ items: LedgerAccount[] }>(['ledger', 'accounts', '--role', 'customer'], env())
      expect(customers.exitCode).toBe(0)
      expect(customers.json.items.length).toBeGreaterThan(0)
      expect(customers.json.items.every((a) => a.role === 'customer')).toBe(true)
      expect(customers.json).toEqual(await sandbox.admin.ledger.accounts({ role: 'customer' }))
      expect(customers.json.items.map((a) => a.publicKey)).toContain(paid.sender_account)
    })

    it("takes --role bridge, the simulated bridge's account once a cross-chain deposit made it", async () => {
      const payment = await sandbox.direct.payments.create({ amount: { value: 500, currency: 'USD' }, description: 'Across chains' })
      const quote = await sandbox.direct.crossChain.quote(payment.id, {
        originChain: 'ethereum',
        originToken: 'USDC',
        refundAddress: `0x${'ab'.repeat(20)}`,
      })
      await sandbox.direct.crossChain.deposit(quote.quoteId)

      const bridge = await runCliJson<{ items: LedgerAccount[] }>(['ledger', 'accounts', '--role', 'bridge'], env())
      expect(bridge.exitCode).toBe(0)
      expect(bridge.json.items.map((a) => a.role)).toEqual(['bridge'])
      expect(bridge.json).toEqual(await sandbox.admin.ledger.accounts({ role: 'bridge' }))
    })

    it('prints label, role, public key and balances', async () => {
      const { items } = await sandbox.admin.ledger.accounts({ role: 'customer' })
      const { stdout, exitCode } = await runCli(['ledger', 'accounts', '--role', 'customer'], env())
      expect(exitCode).toBe(0)
      for (const account of items) {
        const row = stdout.split('\n').find((line) => line.includes(account.publicKey))
        expect(row).toBeDefined()
        expect(row).toContain(account.label)
        expect(row).toContain(account.balances.USDC)
        expect(row).toContain(account.balances.XLM)
      }
    })

    it('an unknown --role is refused by the flag parser in one line', async () => {
      const result = await runCli(['ledger', 'accounts', '--role', 'banker'], env())
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toContain('--role')
    })
  })

  describe('ledger transactions', () => {
    it("lists the payer's transactions, the payment among them", async () => {
      const { json, exitCode } = await runCliJson<{ items: LedgerTransaction[] }>(
        ['ledger', 'transactions', '--account', paid.sender_account!, '--order', 'desc', '--limit', '200'],
        env(),
      )
      expect(exitCode).toBe(0)
      expect(json.items.map((tx) => tx.hash)).toContain(paid.stellarTxId)
      const positions = json.items.map((tx) => tx.position)
      expect(positions).toEqual([...positions].sort((a, b) => b - a))
      for (const tx of json.items) {
        const involved = [tx.sourceAccount, ...tx.operations.flatMap((op) => [op.from, op.to])]
        expect(involved).toContain(paid.sender_account)
      }
    })

    it('--limit and --after page through the ledger in order', async () => {
      const first = await runCliJson<{ items: LedgerTransaction[] }>(['ledger', 'transactions', '--limit', '2'], env())
      expect(first.exitCode).toBe(0)
      expect(first.json.items).toHaveLength(2)
      const last = first.json.items[1]!.position
      const next = await runCliJson<{ items: LedgerTransaction[] }>(
        ['ledger', 'transactions', '--limit', '2', '--after', String(last)],
        env(),
      )
      expect(next.json.items.length).toBeGreaterThan(0)
      expect(next.json.items.every((tx) => tx.position > last)).toBe(true)
    })

    it('prints ledger, a shortened hash, from → to, amount, memo and time', async () => {
      const tx = await sandbox.admin.ledger.transaction(paid.stellarTxId!)
      const { stdout, exitCode } = await runCli(
        ['ledger', 'transactions', '--account', paid.sender_account!, '--order', 'desc', '--limit', '1'],
        env(),
      )
      expect(exitCode).toBe(0)
      expect(stdout).not.toContain(tx.hash)
      expect(stdout).toContain(tx.hash.slice(0, 8))
      const op = tx.operations[0]!
      expect(stdout).toContain(`${op.from} → ${op.to}`)
      expect(stdout).toContain('12.5000000 USDC')
      expect(stdout).toContain(memoOf(paid))
      expect(stdout).toContain(tx.appliedAt)
    })

    it('refuses an --account that is not a G… address in one line', async () => {
      const result = await runCli(['ledger', 'transactions', '--account', 'GNOTANACCOUNT'], env())
      expectOneLineFailure(result, '--account must be a Stellar account address (G…), got "GNOTANACCOUNT"')
    })

    it('--limit 201 is refused by the flag parser in one line', async () => {
      const result = await runCli(['ledger', 'transactions', '--limit', '201'], env())
      expectOneLineFailure(result, 'Parsing --limit: Expected an integer less than or equal to 200 but received: 201 (see --help)')
    })
  })

  describe('ledger tx', () => {
    it("shows the payment's transaction: its memo, amount, destination and full hash", async () => {
      const { json: tx, exitCode, stderr } = await runCliJson<LedgerTransaction>(['ledger', 'tx', paid.stellarTxId!], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(tx.hash).toBe(paid.stellarTxId)
      expect(tx.memoType).toBe('text')
      expect(tx.memo).toBe(memoOf(paid))
      expect(tx.sourceAccount).toBe(paid.sender_account)
      const destination = new URL(paid.qrCode).searchParams.get('destination')
      expect(tx.operations).toEqual([
        { index: 0, type: 'payment', from: paid.sender_account, to: destination, asset: 'USDC', amount: '12.5000000' },
      ])

      const { stdout } = await runCli(['ledger', 'tx', paid.stellarTxId!], env())
      expect(stdout).toContain(tx.hash)
      expect(stdout).toContain(memoOf(paid))
      expect(stdout).toContain('12.5000000 USDC')
      expect(stdout).toContain(destination!)
      expect(stdout).toContain(tx.envelopeXdr)
      expect(stdout).toContain(`${tx.feeCharged} stroops`)
    })

    it('takes the hash in upper case too', async () => {
      const { json, exitCode } = await runCliJson<LedgerTransaction>(['ledger', 'tx', paid.stellarTxId!.toUpperCase()], env())
      expect(exitCode).toBe(0)
      expect(json.hash).toBe(paid.stellarTxId)
    })

    it('refuses a malformed hash in one line without asking the server', async () => {
      const result = await runCli(['ledger', 'tx', 'abc123'], env())
      expectOneLineFailure(result, 'Invalid transaction hash "abc123" (a transaction hash is 64 hex digits)')
    })

    it("an unknown hash is the server's 404 in one line", async () => {
      const result = await runCli(['ledger', 'tx', '0'.repeat(64)], env())
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toMatch(/^Error: 404 Not Found/)
    })

    it('needs the admin token: without it, one line naming how to pass it', async () => {
      const result = await runCli(['ledger', 'tx', paid.stellarTxId!], merchantEnv(sandbox, 'direct', { PAYBOX_ADMIN_TOKEN: undefined }))
      expectOneLineFailure(
        result,
        `No sandbox admin token for ${sandbox.url} (pass --admin-token, set PAYBOX_ADMIN_TOKEN, or run: paybox login --from-sandbox)`,
      )
    })
  })
})
