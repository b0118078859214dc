// `paybox balances` and `paybox fee-tier`, in-process against a real sandbox. Balances are
// checked against the ledger itself, the fee tier against the server's own answer.
import { beforeAll, describe, expect, it } from 'vitest'
import type { AccountBalances, FeeTier } from '../../src/client/types.js'
import { expectOneLineFailure, merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

describe('paybox balances and fee-tier', () => {
  const sandbox = sandboxForSuite()
  const env = () => merchantEnv(sandbox)

  beforeAll(async () => {
    // Some money in the merchant's account, so that balances are not all genesis values.
    const payment = await sandbox.direct.payments.create({ amount: { value: 1234, currency: 'USD' }, description: 'Balance' })
    await sandbox.direct.sandbox.pay(payment.id)
  })

  /** The direct merchant's settlement account as the ledger has it. */
  const ledgerAccount = async () => {
    const { items: merchants } = await sandbox.admin.sandbox.merchants()
    const account = merchants.find((m) => m.settlement_mode === 'direct')!.account
    const { items } = await sandbox.admin.ledger.accounts({ role: 'merchant' })
    return items.find((a) => a.publicKey === account)!
  }

  describe('balances', () => {
    it('lists USDC and XLM of the settlement account, as the ledger holds them', async () => {
      const { json, exitCode, stderr } = await runCliJson<AccountBalances>(['balances'], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      const account = await ledgerAccount()
      expect(json.account).toBe(account.publicKey)
      const byCode = new Map(json.items.map((b) => [b.asset_code, b]))
      expect(byCode.get('USDC')).toEqual({
        asset_id: `USDC:${sandbox.identity.usdcIssuer}`,
        asset_code: 'USDC',
        balance: account.balances.USDC,
      })
      expect(byCode.get('XLM')?.asset_id).toBe('native')
      expect(byCode.get('XLM')?.balance).toBe(account.balances.XLM)
      expect(account.balances.USDC).not.toBe('0.0000000')
    })

    it('prints a table of every asset under the account', async () => {
      const { stdout, exitCode } = await runCli(['balances'], env())
      expect(exitCode).toBe(0)
      const account = await ledgerAccount()
      expect(stdout.split('\n')[0]).toBe(`Account ${account.publicKey}`)
      expect(stdout).toContain(account.balances.USDC)
      expect(stdout).toContain(account.balances.XLM)
      expect(stdout).toContain(`USDC:${sandbox.identity.usdcIssuer}`)
    })

    it('shows one asset by code, by asset id, or as native', async () => {
      const account = await ledgerAccount()
      for (const [asset, balance] of [
        ['USDC', account.balances.USDC],
        [`USDC:${sandbox.identity.usdcIssuer}`, account.balances.USDC],
        ['native', account.balances.XLM],
        ['XLM', account.balances.XLM],
      ] as const) {
        const { json, exitCode } = await runCliJson<{ balance: string }>(['balances', asset], env())
        expect(exitCode).toBe(0)
        expect(json).toEqual({ balance })
      }
      const { stdout } = await runCli(['balances', 'USDC'], env())
      expect(stdout).toContain(account.balances.USDC)
    })

    it("an unsupported asset is the server's 400 in one line", async () => {
      const result = await runCli(['balances', 'BTC'], env())
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr).toMatch(/^Error: 400 Bad Request: Asset BTC is not supported.*\n$/)
    })
  })

  describe('fee-tier', () => {
    it('prints the tier the server reports, with --json exactly its answer', async () => {
      const expected = await sandbox.direct.merchant.feeTier()
      const { json, stdout, exitCode, stderr } = await runCliJson<FeeTier>(['fee-tier'], env())
      expect(exitCode).toBe(0)
      expect(stderr).toBe('')
      expect(stdout.trim().startsWith('{')).toBe(true)
      expect(json).toEqual(expected)
      expect(json.windowDays).toBe(30)
    })

    it('shows the rate, the 30-day volume and how far the next tier is', async () => {
      const tier = await sandbox.direct.merchant.feeTier()
      expect(tier.nextTier).not.toBeNull()
      const { stdout, exitCode } = await runCli(['fee-tier'], env())
      expect(exitCode).toBe(0)
      expect(stdout).toContain(tier.tierName)
      expect(stdout).toContain(`${tier.ratePercent}%`)
      expect(stdout).toContain('30-day volume')
      expect(stdout).toContain(tier.nextTier!.name)
      expect(stdout).toContain(`${tier.nextTier!.amountToNext} USD`)
    })
  })

  it('needs merchant keys: without them, one line naming the flags', async () => {
    const result = await runCli(['balances'], merchantEnv(sandbox, 'direct', { PAYBOX_API_KEY: undefined, PAYBOX_API_SECRET: undefined }))
    expectOneLineFailure(
      result,
      `No API key and secret for ${sandbox.url} (pass --api-key and --api-secret, set PAYBOX_API_KEY and PAYBOX_API_SECRET, or run: paybox login)`,
    )
  })
})
