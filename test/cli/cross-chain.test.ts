// `paybox payments quote` and `paybox payments deposit` against a real sandbox.
import { describe, expect, it } from 'vitest'
import type { CrossChainQuote, Payment } from '../../src/client/types.js'
import { expectOneLineFailure, merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

const REFUND = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('paybox payments quote and deposit', () => {
  const sandbox = sandboxForSuite()
  const create = () => sandbox.direct.payments.create({ amount: { value: 2_000, currency: 'USD' }, description: 'From another chain' })

  it('quotes a payment from another chain, printing the deposit address and a QR code', async () => {
    const payment = await create()
    const { stdout, exitCode } = await runCli(['payments', 'quote', payment.id, '--origin-chain', 'base', '--origin-token', 'USDC', '--refund-address', REFUND], merchantEnv(sandbox))
    expect(exitCode).toBe(0)
    expect(stdout).toContain('20.06 USDC on base')
    expect(stdout).toMatch(/0x[0-9a-f]{40}/)
    expect(stdout).toContain('▄') // the QR code
  })

  it('deposits: the bridged USDC pays the payment, and a short deposit leaves it underpaid', async () => {
    const payment = await create()
    const { json: quote } = await runCliJson<CrossChainQuote>(['payments', 'quote', payment.id, '--origin-chain', 'ethereum', '--origin-token', 'USDT', '--refund-address', REFUND], merchantEnv(sandbox))
    expect(quote).toMatchObject({ paymentId: payment.id, amountIn: '20.06', amountOut: '20.0000000', status: 'pending' })
    const { json, exitCode } = await runCliJson<{ quote: CrossChainQuote; payment: Payment }>(['payments', 'deposit', quote.quoteId, '--amount', '10.03'], merchantEnv(sandbox))
    expect(exitCode).toBe(0)
    expect(json.quote.status).toBe('completed')
    expect((await sandbox.direct.payments.get(payment.id))).toMatchObject({ status: 'underpaid', amount_paid: 1_000 })
  })

  it('answers bad input with one line and changes nothing', async () => {
    const payment = await create()
    expectOneLineFailure(
      await runCli(['payments', 'quote', payment.id, '--origin-chain', 'dogechain', '--origin-token', 'DOGE', '--refund-address', REFUND], merchantEnv(sandbox)),
      '400 Bad Request: originChain: dogechain is not supported; supported: ethereum (USDC, USDT, ETH); base (USDC, ETH); arbitrum (USDC, USDT, ETH); polygon (USDC, USDT, POL); solana (USDC, USDT, SOL)',
    )
    const { json: quote } = await runCliJson<CrossChainQuote>(['payments', 'quote', payment.id, '--origin-chain', 'ethereum', '--origin-token', 'USDC', '--refund-address', REFUND], merchantEnv(sandbox))
    expectOneLineFailure(await runCli(['payments', 'deposit', quote.quoteId, '--amount', 'lots'], merchantEnv(sandbox)), '--amount must be a positive decimal amount of the origin token, got "lots"')
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
  })
})
