// Escrow end to end: an escrow merchant's payment funds its order in the escrow custody, and
// release pays the payee and the platform in one ledger transaction; supply is conserved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { ManualClock } from '../../sandbox/clock.js'
import { refusal } from '../../harness/refusal.js'
import { ledgerSupply, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { startWebhookReceiver } from '../../harness/webhook-receiver.js'

const DAY = 24 * 3600 * 1000

describe('escrow', () => {
  let sandbox: TestSandbox
  let escrowAccount: string
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 12))
  const create = (extra: Record<string, unknown> = {}) =>
    sandbox.escrow.payments.create({ amount: { value: 10_000, currency: 'USD' }, description: 'Marketplace order', ...extra })
  const post = (path: string, body?: unknown) => sandbox.escrow.request<Payment>('POST', path, { body })
  const usdcOf = async (account: string) => (await sandbox.context.ledger.balances(sandbox.context.db, account))!.usdc

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock, dueWorkIntervalMs: 0 })
    escrowAccount = (await sandbox.admin.sandbox.merchants()).items[1]!.account
  })
  afterAll(() => sandbox.stop())

  it('funds the order when paid in full, holding the money in the escrow custody', async () => {
    const payment = await create()
    expect(payment).toMatchObject({
      escrow_status: 'created',
      escrow_platform_fee_bps: 250,
      escrow_contract_address: sandbox.identity.escrowContract,
    })
    const custodyBefore = await usdcOf(sandbox.identity.escrowCustody)
    const underpaid = await post(`/sandbox/payments/${payment.id}/pay`, { amount: 4_000 })
    expect(underpaid).toMatchObject({ status: 'underpaid', escrow_status: 'created' })
    const paid = await post(`/sandbox/payments/${payment.id}/pay`, {})
    expect(paid).toMatchObject({ status: 'paid', escrow_status: 'funded', settlement_status: 'open' })
    expect((await usdcOf(sandbox.identity.escrowCustody)) - custodyBefore).toBe(1_000_000_000n)
  })

  it('releases to the payee less the platform fee in one transaction, settling the payment', async () => {
    const payment = await create()
    await post(`/sandbox/payments/${payment.id}/pay`, {})
    const before = {
      payee: await usdcOf(escrowAccount),
      platform: await usdcOf(sandbox.identity.platformFeeAccount),
      custody: await usdcOf(sandbox.identity.escrowCustody),
    }
    const released = await post(`/sandbox/payments/${payment.id}/escrow/release`)
    // 100 USDC at 250 bps: 2.5 USDC to the platform, 97.5 to the payee.
    expect(released).toMatchObject({
      status: 'paid',
      escrow_status: 'funded',
      settlement_status: 'paid',
      settlement_amount: 97.5,
      settlement_fee: 2.5,
    })
    const tx = await sandbox.context.ledger.getTransaction(sandbox.context.db, released.settlement_stellarTxId!)
    expect(tx!.operations.map(({ from, to, amount }) => ({ from, to, amount }))).toEqual([
      { from: sandbox.identity.escrowCustody, to: escrowAccount, amount: 975_000_000n },
      { from: sandbox.identity.escrowCustody, to: sandbox.identity.platformFeeAccount, amount: 25_000_000n },
    ])
    expect((await usdcOf(escrowAccount)) - before.payee).toBe(975_000_000n)
    expect((await usdcOf(sandbox.identity.platformFeeAccount)) - before.platform).toBe(25_000_000n)
    expect(before.custody - (await usdcOf(sandbox.identity.escrowCustody))).toBe(1_000_000_000n)
    expect(released.history.map((h) => h.status)).toEqual(['success', 'paid', 'escrow_funded', 'settlement_processing', 'settled'])

    const again = await refusal(post(`/sandbox/payments/${payment.id}/escrow/release`))
    expect(again.statusCode).toBe(409)
    expect(again.message).toBe(`The escrow order of payment ${payment.id} has already been released`)
  })

  it('tells the merchant of the release with a signed transaction_updated webhook', async () => {
    const receiver = await startWebhookReceiver(sandbox.merchants[1]!.apiSecret)
    try {
      const payment = await create({ webhookUrl: receiver.url })
      await post(`/sandbox/payments/${payment.id}/pay`, {})
      await post(`/sandbox/payments/${payment.id}/escrow/release`)
      const settled = await waitFor('the settled webhook', () =>
        receiver.received
          .map((r) => JSON.parse(r.raw.toString('utf8')) as { data: Record<string, unknown> })
          .find((b) => b.data.settlement_status === 'paid'),
      )
      expect(settled.data).toMatchObject({
        type: 'transaction_updated',
        id: payment.id,
        status: 'paid',
        settlement_amount: 97.5,
        settlement_fee: 2.5,
      })
      expect(receiver.received.every((r) => r.verified)).toBe(true)
    } finally {
      await receiver.close()
    }
  })

  it('pays a chosen payee with the fee given at creation, rounding the fee down to the stroop', async () => {
    const [customer] = await sandbox.context.ledger.listAccounts(sandbox.context.db, { role: 'customer' })
    const payee = customer!.publicKey
    const payment = await sandbox.escrow.payments.create({
      amount: { value: 333, currency: 'USD' },
      description: 'Odd fee',
      escrowPayee: payee,
      escrowPlatformFee: 333,
    })
    await post(`/sandbox/payments/${payment.id}/pay`, {})
    const before = await usdcOf(payee)
    const released = await post(`/sandbox/payments/${payment.id}/escrow/release`)
    // 3.33 USDC × 3.33% = 0.110889 USDC exactly; nothing to round here. Payee gets 3.219111.
    expect(released).toMatchObject({ settlement_fee: 0.110889, settlement_amount: 3.219111 })
    expect((await usdcOf(payee)) - before).toBe(32_191_110n)
    const tiny = await sandbox.escrow.payments.create({ amount: { value: 1, currency: 'JPY' }, description: 'Tiny', escrowPlatformFee: 1 })
    await post(`/sandbox/payments/${tiny.id}/pay`, {})
    // 0.0067 USDC × 0.01% = 0.00000067: rounded down to 0.0000006.
    expect(await post(`/sandbox/payments/${tiny.id}/escrow/release`)).toMatchObject({
      settlement_fee: 0.0000006,
      settlement_amount: 0.0066994,
    })
  })

  it('refuses to release an unfunded order, and a direct payment has no escrow', async () => {
    const payment = await create()
    const error = await refusal(post(`/sandbox/payments/${payment.id}/escrow/release`))
    expect(error).toMatchObject({
      statusCode: 409,
      message: `The escrow order of payment ${payment.id} is created: only a funded order can be released`,
    })
    const direct = await sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Direct' })
    expect(direct).not.toHaveProperty('escrow_status')
    expect((await refusal(sandbox.direct.request('POST', `/sandbox/payments/${direct.id}/escrow/release`))).statusCode).toBe(409)
    expect((await refusal(sandbox.direct.request('GET', `/sandbox/payments/${direct.id}/escrow`))).statusCode).toBe(409)
    const escrowFields = await refusal(
      sandbox.direct.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'x', escrowPlatformFee: 10 }),
    )
    expect(escrowFields.message).toContain('only allowed for merchants with settlement_mode escrow')
  })

  it('fails an unfunded order on a simulated funding failure, and not a funded one', async () => {
    const payment = await create()
    const failed = await post(`/sandbox/payments/${payment.id}/escrow/fail`, { reason: 'bridge down' })
    expect(failed).toMatchObject({ status: 'failed', escrow_status: 'failed' })
    expect(failed.history.at(-2)?.description).toBe('Escrow funding failed: bridge down')
    const funded = await create()
    await post(`/sandbox/payments/${funded.id}/pay`, {})
    expect((await refusal(post(`/sandbox/payments/${funded.id}/escrow/fail`))).statusCode).toBe(409)
  })

  it('fails orders not funded by their escrow expiry on the business clock, expiring their payments', async () => {
    const payment = await create({ expiresInHours: 24 * 30, escrowExpiresAt: new Date(clock.now() + 2 * DAY).toISOString() })
    const advanced = await sandbox.admin.sandbox.advanceClock({ seconds: 2 * 24 * 3600 })
    expect(advanced.processed).toMatchObject({ failedEscrows: 1 })
    expect(await sandbox.escrow.payments.get(payment.id)).toMatchObject({ status: 'expired', escrow_status: 'failed' })
  })

  it('counts a partial payment as held while the order waits to be funded', async () => {
    const payment = await create()
    await post(`/sandbox/payments/${payment.id}/pay`, { amount: 2_500 })
    const view = await sandbox.escrow.request<Record<string, unknown>>('GET', `/sandbox/payments/${payment.id}/escrow`)
    expect(view).toMatchObject({ escrow_status: 'created', held: '25.0000000', platform_fee_account: sandbox.identity.platformFeeAccount })
  })

  it('shows the order with the contract balance and its transactions', async () => {
    const payment = await create()
    await post(`/sandbox/payments/${payment.id}/pay`, {})
    const view = await sandbox.escrow.request<Record<string, unknown> & { transactions: Array<{ hash: string }> }>(
      'GET',
      `/sandbox/payments/${payment.id}/escrow`,
    )
    expect(view).toMatchObject({
      paymentId: payment.id,
      escrow_status: 'funded',
      held: '100.0000000',
      custody_account: sandbox.identity.escrowCustody,
      payee: escrowAccount,
      escrow_platform_fee_bps: 250,
    })
    expect(view.contract_balance).toBe(
      `${(await usdcOf(sandbox.identity.escrowCustody)) / 10_000_000n}.${String((await usdcOf(sandbox.identity.escrowCustody)) % 10_000_000n).padStart(7, '0')}`,
    )
    const funded = await sandbox.escrow.payments.get(payment.id)
    expect(view.transactions.map((t) => t.hash)).toEqual([funded.stellarTxId])
  })

  it('creates more merchants, direct or escrow, with working keys and a default fee', async () => {
    const created = await sandbox.admin.request<{
      id: string
      apiKey: string
      apiSecret: string
      settlement_mode: string
      escrow_fee_bps: number
    }>('POST', '/sandbox/merchants', {
      auth: 'admin',
      body: { name: 'Second Market', settlement_mode: 'escrow', escrow_fee_bps: 500 },
    })
    expect(created).toMatchObject({ settlement_mode: 'escrow', escrow_fee_bps: 500 })
    const client = new PayboxClient({ baseUrl: sandbox.url, apiKey: created.apiKey, apiSecret: created.apiSecret })
    const payment = await client.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'From the new merchant' })
    expect(payment).toMatchObject({ escrow_status: 'created', escrow_platform_fee_bps: 500, merchantName: 'Second Market' })
    expect(
      (
        await refusal(
          sandbox.admin.request('POST', '/sandbox/merchants', {
            auth: 'admin',
            body: { name: 'D', settlement_mode: 'direct', escrow_fee_bps: 5 },
          }),
        )
      ).statusCode,
    ).toBe(400)
  })

  it("refuses another merchant's account, or the sandbox's own, as escrowPayee, so no refund can draw on it", async () => {
    const directAccount = (await sandbox.admin.sandbox.merchants()).items[0]!.account
    const directBefore = await usdcOf(directAccount)
    for (const payee of [directAccount, sandbox.identity.escrowCustody, sandbox.identity.platformFeeAccount]) {
      const error = await refusal(create({ escrowPayee: payee }))
      expect(error.statusCode, payee).toBe(400)
      expect(error.message).toContain(`escrowPayee: ${payee} is `)
    }
    expect((await refusal(create({ escrowPayee: directAccount }))).message).toContain("another merchant's account")
    // The merchant's own account is still a payee, named or by default.
    expect((await create({ escrowPayee: escrowAccount })).escrow_status).toBe('created')

    // An order stored with such a payee before the check (an older database) is not released.
    const payment = await create()
    await post(`/sandbox/payments/${payment.id}/pay`, {})
    await sandbox.context.db.updateTable('payments').set({ escrow_payee: directAccount }).where('id', '=', payment.id).execute()
    const error = await refusal(post(`/sandbox/payments/${payment.id}/escrow/release`))
    expect(error.statusCode).toBe(409)
    expect(error.message).toContain("another merchant's account")
    expect(await usdcOf(directAccount)).toBe(directBefore)
  })

  it('conserves USDC through every escrow movement', async () => {
    const report = await ledgerSupply(sandbox)
    expect(report.usdc.circulating).toBe(report.usdc.issued)
  })
})
