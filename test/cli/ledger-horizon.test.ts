// `paybox ledger wallet create`, and what `ledger transactions|tx` add for the Horizon API: the
// transaction's Horizon URL, and money whose memo matches no payment shown as unmatched.
import { Asset, Horizon, Keypair, Memo, Operation, TransactionBuilder } from '@stellar/stellar-sdk'
import { beforeAll, describe, expect, it } from 'vitest'
import type { LedgerAccount, LedgerTransaction, SandboxWallet } from '../../src/client/types.js'
import { expectOneLineFailure, linesOf, merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

describe('paybox ledger and the Horizon API', () => {
  const sandbox = sandboxForSuite({ dueWorkIntervalMs: 0 })
  const env = () => merchantEnv(sandbox)

  describe('ledger wallet create', () => {
    it('creates a funded customer wallet and prints its keys as JSON', async () => {
      const { json, exitCode, stderr } = await runCliJson<SandboxWallet>(['ledger', 'wallet', 'create'], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(Keypair.fromSecret(json.secret).publicKey()).toBe(json.publicKey)
      expect(json).toMatchObject({
        balances: { USDC: '100.0000000', XLM: '10000.0000000' },
        horizonUrl: `${sandbox.url}/horizon`,
        networkPassphrase: sandbox.identity.networkPassphrase,
      })
      const { items } = await sandbox.admin.ledger.accounts({ role: 'customer' })
      expect(items.find((a: LedgerAccount) => a.publicKey === json.publicKey)).toMatchObject({ balances: json.balances })
    })

    it('takes --usdc and --xlm, and prints the keys and where to use them', async () => {
      const { stdout, exitCode } = await runCli(['ledger', 'wallet', 'create', '--usdc', '2.5', '--xlm', '3'], env())
      expect(exitCode).toBe(0)
      const secret = /S[A-Z2-7]{55}/.exec(stdout)?.[0]
      expect(secret).toBeDefined()
      const publicKey = Keypair.fromSecret(secret!).publicKey()
      expect(stdout).toContain(publicKey)
      expect(stdout).toContain('2.5000000')
      expect(stdout).toContain('3.0000000')
      expect(stdout).toContain(`${sandbox.url}/horizon`)
      const account = await new Horizon.Server(`${sandbox.url}/horizon`, { allowHttp: true }).loadAccount(publicKey)
      expect(account.balances.map((b) => b.balance)).toEqual(['2.5000000', '3.0000000'])
    })

    it('--no-trustline and --usdc-limit shape the USDC trustline', async () => {
      const { json: untrusting } = await runCliJson<SandboxWallet>(['ledger', 'wallet', 'create', '--no-trustline'], env())
      expect(untrusting).toMatchObject({ usdcTrustline: null, balances: { USDC: '0.0000000' }, fundingTxId: null })
      const { json: limited } = await runCliJson<SandboxWallet>(['ledger', 'wallet', 'create', '--usdc', '10', '--usdc-limit', '20'], env())
      expect(limited).toMatchObject({ usdcTrustline: { limit: '20.0000000' }, balances: { USDC: '10.0000000' } })
      const { stdout } = await runCli(['ledger', 'wallet', 'create', '--no-trustline'], env())
      expect(stdout).toContain('USDC trustline')
    })

    it('refuses an amount the sandbox does not take in one line, creating nothing', async () => {
      const before = (await sandbox.admin.ledger.accounts({ role: 'customer' })).items.length
      const result = await runCli(['ledger', 'wallet', 'create', '--usdc', '12.34567891'], env())
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toMatch(/^Error: 400 Bad Request.*usdc/)
      expect((await sandbox.admin.ledger.accounts({ role: 'customer' })).items).toHaveLength(before)
    })

    it('needs the admin token', async () => {
      const result = await runCli(['ledger', 'wallet', 'create'], merchantEnv(sandbox, 'direct', { PAYBOX_ADMIN_TOKEN: undefined }))
      expectOneLineFailure(
        result,
        `No sandbox admin token for ${sandbox.url} (pass --admin-token, set PAYBOX_ADMIN_TOKEN, or run: paybox login --from-sandbox)`,
      )
    })
  })

  describe('ledger transactions and ledger tx', () => {
    let unmatched: string
    let paidHash: string
    let paymentId: string

    beforeAll(async () => {
      // A wallet pays a payment, then sends money with a memo no payment has.
      const wallet = await sandbox.admin.sandbox.createWallet()
      const server = new Horizon.Server(`${sandbox.url}/horizon`, { allowHttp: true })
      const payment = await sandbox.direct.payments.create({ amount: { value: 200, currency: 'USD' }, description: 'CLI' })
      paymentId = payment.id
      const params = new URL(payment.qrCode).searchParams
      const send = async (memo: string) => {
        const tx = new TransactionBuilder(await server.loadAccount(wallet.publicKey), {
          fee: '100',
          networkPassphrase: params.get('network_passphrase')!,
        })
          .addOperation(
            Operation.payment({
              destination: params.get('destination')!,
              asset: new Asset('USDC', params.get('asset_issuer')!),
              amount: '1',
            }),
          )
          .addMemo(Memo.text(memo))
          .setTimeout(60)
          .build()
        tx.sign(Keypair.fromSecret(wallet.secret))
        return (await server.submitTransaction(tx)).hash
      }
      paidHash = await send(params.get('memo')!)
      unmatched = await send('nobody-has-this')
    })

    it('ledger transactions names the payment a memo matches, and shows the others as unmatched', async () => {
      const { json } = await runCliJson<{ items: LedgerTransaction[] }>(
        ['ledger', 'transactions', '--order', 'desc', '--limit', '5'],
        env(),
      )
      const byHash = new Map(json.items.map((tx) => [tx.hash, tx]))
      expect(byHash.get(unmatched)).toMatchObject({ payment: null, unmatched: true })
      expect(byHash.get(paidHash)).toMatchObject({ payment: paymentId, unmatched: false })

      const { stdout } = await runCli(['ledger', 'transactions', '--order', 'desc', '--limit', '5'], env())
      const row = stdout.split('\n').find((line) => line.includes(unmatched.slice(0, 8)))
      expect(row).toContain('unmatched')
      expect(stdout.split('\n').find((line) => line.includes(paidHash.slice(0, 8)))).toContain(paymentId)
    })

    it("ledger tx prints the transaction's Horizon URL, which serves that transaction", async () => {
      const { stdout, exitCode } = await runCli(['ledger', 'tx', unmatched], env())
      expect(exitCode).toBe(0)
      const url = `${sandbox.url}/horizon/transactions/${unmatched}`
      expect(stdout).toContain(url)
      expect(stdout.split('\n').find((line) => line.includes('Payment'))).toContain('unmatched')
      const served = (await (await fetch(url)).json()) as { hash: string; memo: string }
      expect(served).toMatchObject({ hash: unmatched, memo: 'nobody-has-this' })
    })
  })
})
