// The merchant's balances (spec 4.14) and fee tier (spec 4.12), read from the ledger and the
// settled volume on the business clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import { ManualClock } from '../../sandbox/clock.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { refusal } from '../../harness/refusal.js'

const DAY = 24 * 60 * 60 * 1000

describe('merchant balances and fee tier', () => {
  let sandbox: TestSandbox
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0))
  const payInFull = async (value: number): Promise<Payment> => {
    const payment = await sandbox.direct.payments.create({ amount: { value, currency: 'USD' }, description: `Volume ${value}` })
    return sandbox.direct.request<Payment>('POST', `/sandbox/payments/${payment.id}/pay`, { body: {} })
  }
  const feeTier = () => sandbox.direct.request<Record<string, unknown>>('GET', '/merchant/fee-tier')
  const balance = (asset: string) => sandbox.direct.request<{ balance: string }>('GET', `/accounts/balances/${encodeURIComponent(asset)}`)

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock, dueWorkIntervalMs: 0 })
  })
  afterAll(() => sandbox.stop())

  describe('balances', () => {
    it('gives the merchant account balance as 7-decimal text under every name of USDC and XLM', async () => {
      expect(await balance('USDC')).toEqual({ balance: '0.0000000' })
      await payInFull(1234) // 12.34 USDC received, 1% fee paid out
      const usdc = '12.2166000'
      expect(await balance('USDC')).toEqual({ balance: usdc })
      expect(await balance(`USDC:${sandbox.identity.usdcIssuer}`)).toEqual({ balance: usdc })
      // 10,000 XLM at creation, less the 100-stroop fee of the one transaction it sent.
      expect(await balance('native')).toEqual({ balance: '9999.9999900' })
      expect(await balance('XLM')).toEqual({ balance: '9999.9999900' })
    })

    it('lists every asset of the account', async () => {
      const account = (await sandbox.admin.sandbox.merchants()).items[0]!.account
      expect(await sandbox.direct.request('GET', '/accounts/balances')).toEqual({
        account,
        items: [
          { asset_id: `USDC:${sandbox.identity.usdcIssuer}`, asset_code: 'USDC', balance: '12.2166000' },
          { asset_id: 'native', asset_code: 'XLM', balance: '9999.9999900' },
        ],
      })
    })

    it('keeps each merchant to its own account', async () => {
      expect(await sandbox.escrow.request('GET', '/accounts/balances/USDC')).toEqual({ balance: '0.0000000' })
    })

    it('answers 400 "Asset is not supported" for any other asset', async () => {
      for (const asset of ['EURC', 'usdc', `USDC:${sandbox.identity.platformFeeAccount}`, 'USDC:', 'BTC:native', 'x'.repeat(300)]) {
        const error = await refusal(balance(asset))
        expect(error.statusCode, asset).toBe(400)
        expect(error.reason).toBe('Asset is not supported')
      }
    })

    it('needs authentication', async () => {
      const response = await fetch(`${sandbox.url}/accounts/balances/USDC`)
      expect(response.status).toBe(401)
    })
  })

  describe('fee tier', () => {
    let fresh: TestSandbox
    const clockOfFresh = new ManualClock(Date.UTC(2026, 10, 1))
    const tierOf = () => fresh.direct.request<Record<string, unknown>>('GET', '/merchant/fee-tier')
    const payFresh = async (value: number): Promise<Payment> => {
      const payment = await fresh.direct.payments.create({ amount: { value, currency: 'USD' }, description: `Volume ${value}` })
      return fresh.direct.request<Payment>('POST', `/sandbox/payments/${payment.id}/pay`, { body: {} })
    }

    beforeAll(async () => {
      fresh = await startTestSandbox({ clock: clockOfFresh, dueWorkIntervalMs: 0 })
    })
    afterAll(() => fresh.stop())

    it('starts on the lowest tier with no volume', async () => {
      expect(await tierOf()).toEqual({
        tierId: 'tier_starter',
        tierName: 'Starter',
        ratePercent: 1,
        volume: 0,
        windowDays: 30,
        nextTier: { name: 'Growth', ratePercent: 0.8, minVolume: 10_000, amountToNext: 10_000 },
      })
    })

    it('counts settled volume exactly and says exactly how much more the next tier needs', async () => {
      await payFresh(123_456) // 1,234.56 USD
      expect(await tierOf()).toMatchObject({ volume: 1234.56, nextTier: { name: 'Growth', amountToNext: 8765.44 } })
    })

    it('moves up a tier once the volume reaches it, and charges the new rate from then on', async () => {
      await payFresh(876_544) // the rest of the way to 10,000 USD
      expect(await tierOf()).toMatchObject({
        tierName: 'Growth',
        ratePercent: 0.8,
        volume: 10_000,
        nextTier: { name: 'Scale', amountToNext: 90_000 },
      })
      const next = await payFresh(10_000) // 100 USD at 0.8%
      expect(next).toMatchObject({ settlement_fee: 0.8, settlement_amount: 99.2 })
    })

    it('has no next tier at the top', async () => {
      await payFresh(99_999_000) // 999,990 USD: 1,010,090 in all
      expect(await tierOf()).toMatchObject({
        tierId: 'tier_enterprise',
        tierName: 'Enterprise',
        ratePercent: 0.25,
        volume: 1_010_090,
        nextTier: null,
      })
    })

    it('forgets volume older than the 30-day window on the business clock', async () => {
      clockOfFresh.advance(30 * DAY - 1)
      expect((await tierOf()).volume).toBe(1_010_090)
      clockOfFresh.advance(1)
      expect(await tierOf()).toMatchObject({ tierName: 'Starter', volume: 0 })
    })

    it('needs the signature of the fee-tier family', async () => {
      const response = await fetch(`${fresh.url}/merchant/fee-tier`)
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ reason: 'Signature verification failed' })
    })
  })

  it('tells the authenticated merchant who it is, without secrets', async () => {
    const me = await sandbox.direct.request<Record<string, unknown>>('GET', '/merchant')
    const { items } = await sandbox.admin.sandbox.merchants()
    expect(me).toEqual({
      id: items[0]!.id,
      name: 'Acme Store',
      settlement_mode: 'direct',
      account: items[0]!.account,
      webhooks_paused: false,
    })
    expect((await sandbox.escrow.request<Record<string, unknown>>('GET', '/merchant')).id).toBe(items[1]!.id)
    expect((await fetch(`${sandbox.url}/merchant`)).status).toBe(401)
  })

  it("is one merchant's own volume", async () => {
    expect(await sandbox.escrow.request('GET', '/merchant/fee-tier')).toMatchObject({ volume: 0 })
    expect((await feeTier()).volume).toBe(12.34)
  })
})
