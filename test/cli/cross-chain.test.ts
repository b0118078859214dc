// `paybox payments quote` and `paybox payments deposit` against a real sandbox.
import { describe, expect, it } from 'vitest'
import type { CrossChainQuote, OriginChains, Payment } from '../../src/client/types.js'
import { expectOneLineFailure, merchantEnv, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

const REFUND = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('paybox payments quote and deposit', () => {
  const sandbox = sandboxForSuite()
  const create = () => sandbox.direct.payments.create({ amount: { value: 2_000, currency: 'USD' }, description: 'From another chain' })

  it('paybox chains lists the chains and tokens quotes take, as GET /cross-chain/chains answers', async () => {
    const { json, exitCode } = await runCliJson<OriginChains>(['chains'], merchantEnv(sandbox))
    expect(exitCode).toBe(0)
    expect(json).toEqual(await sandbox.direct.crossChain.chains())
    const { stdout } = await runCli(['chains'], merchantEnv(sandbox))
    const row = (id: string) => stdout.split('\n').find((line) => line.includes(` ${id} `))
    expect(row('base')).toContain('USDC (6, 1), ETH (18, 3000)')
    expect(row('solana')).toContain('Solana (base58)')
    expect(row('solana')).toContain('SOL (9, 150)')
    expect(stdout).toContain('Bridge fee: 0.3% (30 bps)')
  })

  it('quotes a payment from another chain, printing the deposit address and, asked for, a QR code', async () => {
    const payment = await create()
    const { stdout, exitCode } = await runCli(
      ['payments', 'quote', payment.id, '--origin-chain', 'base', '--origin-token', 'USDC', '--refund-address', REFUND, '--qr'],
      merchantEnv(sandbox),
    )
    expect(exitCode).toBe(0)
    expect(stdout).toContain('20.06 USDC on base')
    expect(stdout).toMatch(/0x[0-9a-f]{40}/)
    expect(stdout).toContain('▄') // the QR code
  })

  it('deposits: a short deposit is held, the rest completes the order and pays the payment; quote-status shows it all', async () => {
    const payment = await create()
    const { json: quote } = await runCliJson<CrossChainQuote>(
      ['payments', 'quote', payment.id, '--origin-chain', 'ethereum', '--origin-token', 'USDT', '--refund-address', REFUND],
      merchantEnv(sandbox),
    )
    expect(quote).toMatchObject({ paymentId: payment.id, amountIn: '20.06', amountOut: '20.0000000', status: 'PENDING_DEPOSIT' })
    const { json, exitCode } = await runCliJson<{ quote: CrossChainQuote; payment: Payment }>(
      ['payments', 'deposit', quote.quoteId, '--amount', '10.03'],
      merchantEnv(sandbox),
    )
    expect(exitCode).toBe(0)
    expect(json.quote.status).toBe('INCOMPLETE_DEPOSIT')
    expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'open', amount_paid: 0 })
    const topUp = await runCliJson<{ quote: CrossChainQuote; payment: Payment }>(
      ['payments', 'deposit', quote.quoteId],
      merchantEnv(sandbox),
    )
    expect(topUp.json.quote.status).toBe('SUCCESS')
    expect(await sandbox.direct.payments.get(payment.id)).toMatchObject({ status: 'paid', amount_paid: 2_000 })

    const { stdout, exitCode: statusExit } = await runCli(['payments', 'quote-status', quote.quoteId], merchantEnv(sandbox))
    expect(statusExit).toBe(0)
    expect(stdout).toContain('SUCCESS')
    expect(stdout).toContain('Deposited')
    expect(stdout).toContain('20.06 USDT')
    expect(stdout).toContain(topUp.json.payment.stellarTxId!)
    for (const status of ['PENDING_DEPOSIT', 'INCOMPLETE_DEPOSIT', 'KNOWN_DEPOSIT_TX', 'PROCESSING']) expect(stdout).toContain(status)
    const { json: asJson } = await runCliJson<CrossChainQuote>(['payments', 'quote-status', quote.quoteId], merchantEnv(sandbox))
    expect(asJson).toEqual(await sandbox.direct.crossChain.status(quote.quoteId))
  })

  it('deposit --fail: the bridge fails the order and refunds the deposit; the payment stays open', async () => {
    const payment = await create()
    const { json: quote } = await runCliJson<CrossChainQuote>(
      ['payments', 'quote', payment.id, '--origin-chain', 'base', '--origin-token', 'USDC', '--refund-address', REFUND],
      merchantEnv(sandbox),
    )
    const { json } = await runCliJson<{ quote: CrossChainQuote; payment: Payment }>(
      ['payments', 'deposit', quote.quoteId, '--fail'],
      merchantEnv(sandbox),
    )
    expect(json.quote).toMatchObject({ status: 'FAILED', amountDeposited: '20.06', amountRefunded: '20.06' })
    expect(json.payment.status).toBe('open')
  })

  it('answers bad input with one line and changes nothing', async () => {
    const payment = await create()
    expectOneLineFailure(
      await runCli(
        ['payments', 'quote', payment.id, '--origin-chain', 'dogechain', '--origin-token', 'DOGE', '--refund-address', REFUND],
        merchantEnv(sandbox),
      ),
      '400 Bad Request: --origin-chain: dogechain is not supported; supported: ethereum (USDC, USDT, ETH); base (USDC, ETH); arbitrum (USDC, USDT, ETH); polygon (USDC, USDT, POL); solana (USDC, USDT, SOL)',
    )
    const { json: quote } = await runCliJson<CrossChainQuote>(
      ['payments', 'quote', payment.id, '--origin-chain', 'ethereum', '--origin-token', 'USDC', '--refund-address', REFUND],
      merchantEnv(sandbox),
    )
    expectOneLineFailure(
      await runCli(['payments', 'deposit', quote.quoteId, '--amount', 'lots'], merchantEnv(sandbox)),
      '--amount must be a positive decimal amount of the origin token, got "lots"',
    )
    expect((await sandbox.direct.payments.get(payment.id)).status).toBe('open')
    expectOneLineFailure(await runCli(['payments', 'quote-status', 'qt_nope'], merchantEnv(sandbox)), '404 Not Found: No quote qt_nope')
  })
})
