// Cross-chain quotes (spec 4.5): deposit addresses in each chain's real format, every bad
// input, and the simulated bridge delivering USDC to the payment over the ledger.
import bs58 from 'bs58'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CrossChainQuote, Payment } from '../../src/client/types.js'
import { ManualClock } from '../../sandbox/clock.js'
import { rawRequest, ledgerSupply, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { refusal } from '../../harness/refusal.js'

type Quote = CrossChainQuote

const EVM_REFUND = '0x52908400098527886E0F7030069857D2E4169EE7'
const SOLANA_REFUND = bs58.encode(Buffer.alloc(32, 7))

describe('cross-chain quotes', () => {
  let sandbox: TestSandbox
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 12))
  const create = (value = 10_000) => sandbox.direct.payments.create({ amount: { value, currency: 'USD' }, description: 'Cross-chain' })
  /** Unauthenticated, as spec 5 allows. */
  const quote = async (paymentId: string, body: unknown) => {
    const response = await rawRequest(sandbox.url, { method: 'POST', path: `/payments/${paymentId}/cross-chain/quote`, body: JSON.stringify(body) })
    return response
  }
  const deposit = (quoteId: string, body: Record<string, unknown> = {}) =>
    sandbox.direct.request<{ quote: Quote; payment: Payment }>('POST', `/sandbox/cross-chain/quotes/${quoteId}/deposit`, { body })

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock, dueWorkIntervalMs: 0 })
  })
  afterAll(() => sandbox.stop())

  it('lists the supported chains and tokens', async () => {
    const chains = await sandbox.direct.request<{ bridgeFeeBps: number; items: Array<{ id: string; tokens: Array<{ symbol: string; decimals: number }> }> }>('GET', '/cross-chain/chains')
    expect(chains.items.map((c) => c.id)).toEqual(['ethereum', 'base', 'arbitrum', 'polygon', 'solana'])
    expect(chains.bridgeFeeBps).toBe(30)
    expect(chains.items[0]!.tokens).toContainEqual({ symbol: 'ETH', decimals: 18, usdRate: '3000' })
  })

  it("gives a deposit address in each chain's format, the amount to send with the bridge fee, and the USDC that arrives", async () => {
    const payment = await create()
    for (const chain of ['ethereum', 'base', 'arbitrum', 'polygon']) {
      const response = await quote(payment.id, { originChain: chain, originToken: 'USDC', refundAddress: EVM_REFUND })
      expect(response.status, chain).toBe(200)
      const body = response.json as Quote
      expect(body.depositAddress).toMatch(/^0x[0-9a-f]{40}$/)
      // 100 USDC out plus 0.30%: 100.3 USDC in.
      expect(body).toMatchObject({ paymentId: payment.id, originChain: chain, amountIn: '100.3', amountOut: '100.0000000', status: 'pending', refundAddress: EVM_REFUND, expiresAt: new Date(clock.now() + 15 * 60_000).toISOString() })
      expect(body.quoteId).toMatch(/^qt_[0-9a-f]{32}$/)
    }
    const solana = (await quote(payment.id, { originChain: 'solana', originToken: 'SOL', refundAddress: SOLANA_REFUND })).json as Quote
    expect(bs58.decode(solana.depositAddress)).toHaveLength(32)
    expect(solana.amountIn).toBe('0.668666667') // 100.3 / 150, rounded up to the lamport
    const eth = (await quote(payment.id, { originChain: 'ethereum', originToken: 'ETH', refundAddress: EVM_REFUND })).json as Quote
    expect(eth.amountIn).toBe('0.033433333333333334') // 100.3 / 3000, rounded up to the wei
  })

  it('refuses every bad input with a clear 4xx, creating nothing', async () => {
    const payment = await create()
    const cases: Array<[unknown, number, string]> = [
      [{ originChain: 'bitcoin', originToken: 'BTC', refundAddress: EVM_REFUND }, 400, 'supported: ethereum (USDC, USDT, ETH)'],
      [{ originChain: 'base', originToken: 'USDT', refundAddress: EVM_REFUND }, 400, 'supported there: USDC, ETH'],
      [{ originChain: 'ethereum', originToken: 'USDC', refundAddress: '0x123' }, 400, 'refundAddress'],
      [{ originChain: 'ethereum', originToken: 'USDC', refundAddress: SOLANA_REFUND }, 400, 'refundAddress'],
      [{ originChain: 'solana', originToken: 'USDC', refundAddress: EVM_REFUND }, 400, 'refundAddress'],
      [{ originChain: 'solana', originToken: 'USDC', refundAddress: '0OIl' + 'a'.repeat(40) }, 400, 'refundAddress'],
      [{ originChain: 'ethereum', originToken: 'USDC' }, 400, 'refundAddress'],
      [{ originChain: 7, originToken: 'USDC', refundAddress: EVM_REFUND }, 400, 'originChain'],
      [{ originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND, amount: 5 }, 400, 'amount'],
    ]
    for (const [body, status, text] of cases) {
      const response = await quote(payment.id, body)
      expect(response.status, JSON.stringify(body)).toBe(status)
      expect((response.json as { message: string }).message).toContain(text)
    }
    expect((await quote(`pt_${'0'.repeat(32)}`, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).status).toBe(404)
    const paid = await sandbox.direct.request<Payment>('POST', `/sandbox/payments/${(await create()).id}/pay`, { body: {} })
    expect((await quote(paid.id, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).status).toBe(409)
    // Credentials are optional, but checked when sent: a bad signature is 401, another merchant's payment 404.
    const badSignature = await rawRequest(sandbox.url, {
      method: 'POST',
      path: `/payments/${payment.id}/cross-chain/quote`,
      body: JSON.stringify({ originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND }),
      headers: { 'x-digest-key': sandbox.merchants[0]!.apiKey, 'x-digest-timestamp': String(Math.floor(Date.now() / 1000)), 'x-digest-signature': 'f'.repeat(64) },
    })
    expect(badSignature.status).toBe(401)
    expect((await refusal(sandbox.escrow.request('POST', `/payments/${payment.id}/cross-chain/quote`, { body: { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND } }))).statusCode).toBe(404)
    expect((await sandbox.direct.request<Quote>('POST', `/payments/${payment.id}/cross-chain/quote`, { body: { originChain: 'base', originToken: 'USDC', refundAddress: EVM_REFUND } })).status).toBe('pending')
  })

  it('delivers the bridged USDC with the payment memo: the quoted amount pays, less underpays', async () => {
    const payment = await create()
    const full = (await quote(payment.id, { originChain: 'polygon', originToken: 'USDT', refundAddress: EVM_REFUND })).json as Quote
    const { quote: done, payment: paid } = await deposit(full.quoteId)
    expect(done).toMatchObject({ status: 'completed', depositTxId: paid.stellarTxId })
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 10_000 })
    const tx = await sandbox.context.ledger.getTransaction(sandbox.context.db, paid.stellarTxId!)
    expect(tx!.memo).toBe(new URL(payment.qrCode).searchParams.get('memo'))
    expect(tx!.operations.at(-1)).toMatchObject({ to: new URL(payment.qrCode).searchParams.get('destination'), amount: 1_000_000_000n })
    expect((await refusal(deposit(full.quoteId))).statusCode).toBe(409)

    const second = await create()
    const short = (await quote(second.id, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).json as Quote
    const { payment: underpaid } = await deposit(short.quoteId, { amountIn: '50.15' })
    // 50.15 USDC in, less 0.30%: 50 USDC out.
    expect(underpaid).toMatchObject({ status: 'underpaid', amount_paid: 5_000 })
  })

  it('refuses a deposit to an expired quote', async () => {
    const payment = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Long', expiresInHours: 2 })
    const pending = (await quote(payment.id, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).json as Quote
    clock.advance(15 * 60_000)
    const error = await refusal(deposit(pending.quoteId))
    expect(error.statusCode).toBe(409)
    expect(error.message).toContain('expired')
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
  })

  it('conserves USDC: the bridge mints what it delivers', async () => {
    const report = await ledgerSupply(sandbox)
    expect(report.usdc.circulating).toBe(report.usdc.issued)
  })
})
