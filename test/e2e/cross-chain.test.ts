// Cross-chain quotes (spec 4.5): deposit addresses in each chain's real format, every bad
// input, and the simulated bridge delivering USDC to the payment over the ledger.
import bs58 from 'bs58'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CrossChainQuote, Payment } from '../../src/client/types.js'
import { ManualClock } from '../../sandbox/clock.js'
import { rawRequest, ledgerSupply, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { refusal } from '../../harness/refusal.js'
import { waitFor } from '../../harness/wait.js'
import { startWebhookReceiver } from '../../harness/webhook-receiver.js'

type Quote = CrossChainQuote

const EVM_REFUND = '0x52908400098527886E0F7030069857D2E4169EE7'
const SOLANA_REFUND = bs58.encode(Buffer.alloc(32, 7))

describe('cross-chain quotes', () => {
  let sandbox: TestSandbox
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 12))
  const create = (value = 10_000) => sandbox.direct.payments.create({ amount: { value, currency: 'USD' }, description: 'Cross-chain' })
  /** Unauthenticated, as spec 5 allows. */
  const quote = async (paymentId: string, body: unknown) => {
    const response = await rawRequest(sandbox.url, {
      method: 'POST',
      path: `/payments/${paymentId}/cross-chain/quote`,
      body: JSON.stringify(body),
    })
    return response
  }
  const deposit = (quoteId: string, body: Record<string, unknown> = {}) =>
    sandbox.direct.request<{ quote: Quote; payment: Payment }>('POST', `/sandbox/cross-chain/quotes/${quoteId}/deposit`, { body })

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock, dueWorkIntervalMs: 0 })
  })
  afterAll(() => sandbox.stop())

  it('lists the supported chains and tokens', async () => {
    const chains = await sandbox.direct.request<{
      bridgeFeeBps: number
      items: Array<{ id: string; tokens: Array<{ symbol: string; decimals: number }> }>
    }>('GET', '/cross-chain/chains')
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
      expect(body).toMatchObject({
        paymentId: payment.id,
        originChain: chain,
        amountIn: '100.3',
        amountOut: '100.0000000',
        status: 'PENDING_DEPOSIT',
        refundAddress: EVM_REFUND,
        expiresAt: new Date(clock.now() + 15 * 60_000).toISOString(),
      })
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
    expect((await quote(`pt_${'0'.repeat(32)}`, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).status).toBe(
      404,
    )
    const paid = await sandbox.direct.request<Payment>('POST', `/sandbox/payments/${(await create()).id}/pay`, { body: {} })
    expect((await quote(paid.id, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).status).toBe(409)
    // Credentials are optional, but checked when sent: a bad signature is 401, another merchant's payment 404.
    const badSignature = await rawRequest(sandbox.url, {
      method: 'POST',
      path: `/payments/${payment.id}/cross-chain/quote`,
      body: JSON.stringify({ originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND }),
      headers: {
        'x-digest-key': sandbox.merchants[0]!.apiKey,
        'x-digest-timestamp': String(Math.floor(Date.now() / 1000)),
        'x-digest-signature': 'f'.repeat(64),
      },
    })
    expect(badSignature.status).toBe(401)
    expect(
      (
        await refusal(
          sandbox.escrow.request('POST', `/payments/${payment.id}/cross-chain/quote`, {
            body: { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND },
          }),
        )
      ).statusCode,
    ).toBe(404)
    expect(
      (
        await sandbox.direct.request<Quote>('POST', `/payments/${payment.id}/cross-chain/quote`, {
          body: { originChain: 'base', originToken: 'USDC', refundAddress: EVM_REFUND },
        })
      ).status,
    ).toBe('PENDING_DEPOSIT')
  })

  it('delivers the bridged USDC with the payment memo once the quoted amount is in: SUCCESS, and the payment is paid', async () => {
    const payment = await create()
    const full = (await quote(payment.id, { originChain: 'polygon', originToken: 'USDT', refundAddress: EVM_REFUND })).json as Quote
    const { quote: done, payment: paid } = await deposit(full.quoteId)
    expect(done).toMatchObject({
      status: 'SUCCESS',
      depositTxId: paid.stellarTxId,
      amountDeposited: '100.3',
      amountRefunded: '0',
      usdcDelivered: '100.0000000',
    })
    expect(done.history.map((entry) => entry.status)).toEqual(['PENDING_DEPOSIT', 'KNOWN_DEPOSIT_TX', 'PROCESSING', 'SUCCESS'])
    expect(done.transactions.stellar).toEqual([{ type: 'delivery', hash: paid.stellarTxId }])
    expect(done.transactions.origin).toEqual([
      { type: 'deposit', hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), amount: '100.3', at: expect.any(String) },
    ])
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 10_000 })
    const tx = await sandbox.context.ledger.getTransaction(sandbox.context.db, paid.stellarTxId!)
    expect(tx!.memo).toBe(new URL(payment.qrCode).searchParams.get('memo'))
    expect(tx!.operations.at(-1)).toMatchObject({ to: new URL(payment.qrCode).searchParams.get('destination'), amount: 1_000_000_000n })
    // Sending to the address again pays nothing twice: it goes back to the refund address.
    const { quote: again } = await deposit(full.quoteId)
    expect(again).toMatchObject({ status: 'SUCCESS', amountDeposited: '200.6', amountRefunded: '100.3', usdcDelivered: '100.0000000' })
    expect(again.transactions.origin.map((t) => t.type)).toEqual(['deposit', 'deposit', 'refund'])
    // The merchant reads the order's status.
    expect(await sandbox.direct.crossChain.status(full.quoteId)).toEqual(again)
  })

  it('holds a deposit below the quote as INCOMPLETE_DEPOSIT: not swapped, the payment not paid; a top-up before the deadline completes it', async () => {
    const payment = await create()
    const order = (await quote(payment.id, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).json as Quote
    const supplyBefore = await ledgerSupply(sandbox)
    const { quote: short, payment: still } = await deposit(order.quoteId, { amountIn: '50.15' })
    expect(short).toMatchObject({ status: 'INCOMPLETE_DEPOSIT', amountDeposited: '50.15', amountRefunded: '0', usdcDelivered: '0.0000000' })
    expect(still).toMatchObject({ status: 'open', amount_paid: 0 })
    expect((await ledgerSupply(sandbox)).usdc.issued).toBe(supplyBefore.usdc.issued)
    // Without an amount, the deposit is what the order still lacks.
    clock.advance(60_000)
    const { quote: done, payment: paid } = await deposit(order.quoteId)
    expect(done).toMatchObject({ status: 'SUCCESS', amountDeposited: '100.3', amountRefunded: '0', usdcDelivered: '100.0000000' })
    expect(done.transactions.origin.map((t) => [t.type, t.amount])).toEqual([
      ['deposit', '50.15'],
      ['deposit', '50.15'],
    ])
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 10_000 })
  })

  it("refunds an incomplete deposit when the deadline passes, on the clock's sweep", async () => {
    const payment = await create()
    const order = (await quote(payment.id, { originChain: 'solana', originToken: 'USDC', refundAddress: SOLANA_REFUND })).json as Quote
    await deposit(order.quoteId, { amountIn: '10' })
    const supplyBefore = await ledgerSupply(sandbox)
    const { processed } = await sandbox.admin.sandbox.advanceClock({ seconds: 15 * 60 })
    expect(processed.closedQuotes).toBeGreaterThanOrEqual(1)
    const refunded = await sandbox.direct.crossChain.status(order.quoteId)
    expect(refunded).toMatchObject({ status: 'REFUNDED', amountDeposited: '10', amountRefunded: '10', usdcDelivered: '0.0000000' })
    expect(refunded.transactions.origin.at(-1)).toMatchObject({ type: 'refund', amount: '10' })
    expect(bs58.decode(refunded.transactions.origin.at(-1)!.hash)).toHaveLength(64)
    expect(refunded.history.map((entry) => entry.status)).toEqual(['PENDING_DEPOSIT', 'INCOMPLETE_DEPOSIT', 'REFUNDED'])
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
    expect((await ledgerSupply(sandbox)).usdc.issued).toBe(supplyBefore.usdc.issued)
  })

  it('refunds a deposit that arrives after the deadline; an order with nothing deposited has EXPIRED', async () => {
    const payment = await sandbox.direct.payments.create({
      amount: { value: 100, currency: 'USD' },
      description: 'Long',
      expiresInHours: 2,
    })
    const pending = (await quote(payment.id, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).json as Quote
    clock.advance(15 * 60_000)
    expect((await sandbox.direct.crossChain.status(pending.quoteId)).status).toBe('EXPIRED')
    const { quote: late, payment: unpaid } = await deposit(pending.quoteId)
    expect(late).toMatchObject({ status: 'REFUNDED', amountDeposited: '1.003', amountRefunded: '1.003', usdcDelivered: '0.0000000' })
    expect(unpaid.status).toBe('open')
  })

  it('fails on request (deposit --fail): FAILED, and everything deposited is refunded', async () => {
    const payment = await create()
    const order = (await quote(payment.id, { originChain: 'base', originToken: 'ETH', refundAddress: EVM_REFUND })).json as Quote
    await deposit(order.quoteId, { amountIn: '0.01' })
    const { quote: failed, payment: unpaid } = await deposit(order.quoteId, { fail: true })
    expect(failed).toMatchObject({
      status: 'FAILED',
      amountDeposited: order.amountIn,
      amountRefunded: order.amountIn,
      usdcDelivered: '0.0000000',
    })
    expect(failed.transactions.stellar).toEqual([])
    expect(unpaid.status).toBe('open')
  })

  it('keeps one live quote per payment: a new quote supersedes the old, whose address then refunds (no 34.97 on a 25.00 payment)', async () => {
    const payment = await create(2500)
    const first = (await quote(payment.id, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).json as Quote
    const second = (await quote(payment.id, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).json as Quote
    expect(await sandbox.direct.crossChain.status(first.quoteId)).toMatchObject({ status: 'EXPIRED', supersededBy: second.quoteId })
    const { quote: stale } = await deposit(first.quoteId)
    expect(stale).toMatchObject({ status: 'REFUNDED', amountRefunded: '25.075' })
    const { payment: paid } = await deposit(second.quoteId)
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 2500 })
    // A superseded order holding an incomplete deposit gives it back at once.
    const other = await create(2500)
    const held = (await quote(other.id, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).json as Quote
    await deposit(held.quoteId, { amountIn: '5' })
    const replacement = (await quote(other.id, { originChain: 'base', originToken: 'USDC', refundAddress: EVM_REFUND })).json as Quote
    expect(await sandbox.direct.crossChain.status(held.quoteId)).toMatchObject({
      status: 'REFUNDED',
      amountRefunded: '5',
      supersededBy: replacement.quoteId,
    })
  })

  it('bounds deposits: a huge one swaps only the quoted amount and refunds the rest; past what a transfer can carry is a 400', async () => {
    const merchantAccount = (await sandbox.direct.merchant.get()).account
    const before = (await sandbox.context.ledger.balances(sandbox.context.db, merchantAccount))!.usdc
    for (let i = 0; i < 4; i++) {
      const payment = await create(1000)
      const order = (await quote(payment.id, { originChain: 'ethereum', originToken: 'ETH', refundAddress: EVM_REFUND })).json as Quote
      const { quote: done, payment: paid } = await deposit(order.quoteId, { amountIn: '100000000' })
      expect(done).toMatchObject({ status: 'SUCCESS', usdcDelivered: '10.0000000' })
      expect(BigInt(done.amountRefunded.replace('.', '')) > 0n).toBe(true)
      expect(paid).toMatchObject({ status: 'paid', amount_paid: 1000 })
    }
    const after = (await sandbox.context.ledger.balances(sandbox.context.db, merchantAccount))!.usdc
    // Four $10 payments, less the settlement fees: never billions.
    expect(after - before).toBeLessThanOrEqual(40n * 10_000_000n)
    expect((await sandbox.direct.merchant.feeTier()).tierName).toBe('Starter')

    const payment = await create(1000)
    const solana = (await quote(payment.id, { originChain: 'solana', originToken: 'USDC', refundAddress: SOLANA_REFUND })).json as Quote
    const error = await refusal(deposit(solana.quoteId, { amountIn: '999999999999999999999999' }))
    expect(error.statusCode).toBe(400)
    expect(error.message).toContain('more than one Solana transfer can carry')
    expect((await sandbox.direct.crossChain.status(solana.quoteId)).amountDeposited).toBe('0')
  })

  it('sends webhooks only where the payment itself changes: none for a held deposit, one when the delivery pays it', async () => {
    const receiver = await startWebhookReceiver(sandbox.merchants[0]!.apiSecret)
    try {
      const payment = await sandbox.direct.payments.create({
        amount: { value: 1000, currency: 'USD' },
        description: 'Hooked',
        webhookUrl: receiver.url,
      })
      const order = (await quote(payment.id, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).json as Quote
      await deposit(order.quoteId, { amountIn: '3' })
      await deposit(order.quoteId)
      const events = () =>
        receiver.received.map((r) => JSON.parse(r.raw.toString()) as { data: { type: string; id: string; status: string } })
      await waitFor('the paid event', () => events().some((e) => e.data.status === 'paid'))
      // Created, then paid (settlement updates follow): nothing for the held deposit in between.
      expect(
        events()
          .slice(0, 2)
          .map((e) => [e.data.type, e.data.id, e.data.status]),
      ).toEqual([
        ['transaction_created', payment.id, 'open'],
        ['transaction_updated', payment.id, 'paid'],
      ])
      expect(events().filter((e) => e.data.status !== 'paid')).toHaveLength(1)
    } finally {
      await receiver.close()
    }
  })

  it("answers a quote's status to its merchant only", async () => {
    const payment = await create()
    const order = (await quote(payment.id, { originChain: 'ethereum', originToken: 'USDC', refundAddress: EVM_REFUND })).json as Quote
    expect((await rawRequest(sandbox.url, { method: 'GET', path: `/cross-chain/quotes/${order.quoteId}` })).status).toBe(401)
    expect((await refusal(sandbox.escrow.crossChain.status(order.quoteId))).statusCode).toBe(404)
    expect((await refusal(sandbox.direct.crossChain.status('qt_nope'))).statusCode).toBe(404)
  })

  it('conserves USDC: the bridge mints what it delivers', async () => {
    const report = await ledgerSupply(sandbox)
    expect(report.usdc.circulating).toBe(report.usdc.issued)
  })
})
