// Refunds end to end: one ledger transaction pays the customer back, the fee comes back in
// proportion, partial refunds add up, and every refusal changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page, Payment, Refund } from '../../src/client/types.js'
import { ManualClock } from '../../sandbox/clock.js'
import { ledgerSupply, startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { refusal } from '../../harness/refusal.js'

describe('refunds', () => {
  let sandbox: TestSandbox
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0))
  let merchantAccount: string
  const create = (value: number) =>
    sandbox.direct.payments.create({ amount: { value, currency: 'USD' }, description: `Refundable ${value}` })
  const pay = (id: string, body: Record<string, unknown> = {}) =>
    sandbox.direct.request<Payment>('POST', `/sandbox/payments/${id}/pay`, { body })
  const refund = (id: string, body?: Record<string, unknown>) => sandbox.direct.request<Refund>('POST', `/payments/${id}/refunds`, { body })
  const usdcOf = async (account: string) => (await sandbox.context.ledger.balances(sandbox.context.db, account))!.usdc
  const balances = async (customer: string) => ({
    customer: await usdcOf(customer),
    merchant: await usdcOf(merchantAccount),
    platform: await usdcOf(sandbox.identity.platformFeeAccount),
  })

  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock, dueWorkIntervalMs: 0 })
    merchantAccount = (await sandbox.admin.sandbox.merchants()).items[0]!.account
  })
  afterAll(() => sandbox.stop())

  it('refunds a paid payment in full: the customer gets back exactly what it paid, the fee included', async () => {
    const payment = await create(2500)
    const paid = await pay(payment.id)
    const customer = paid.sender_account!
    const before = await balances(customer)
    clock.advance(1000)
    const made = await refund(payment.id, { description: 'Returned goods', metadata: { rma: 'R-1' } })

    expect(made).toMatchObject({
      amount: { asset_id: `USDC:${sandbox.identity.usdcIssuer}`, value: 25 },
      status: 'refunded',
      description: 'Returned goods',
      metadata: { rma: 'R-1' },
      paymentId: payment.id,
      createdAt: new Date(clock.now()).toISOString(),
    })
    expect(made.refund_id).toMatch(/^rf_[0-9a-f]{32}$/)
    expect(made.payment).toMatchObject({ id: payment.id, status: 'paid', refunded: true })
    for (const omitted of ['checkout_id', 'shortUrl', 'settlement_fee', 'partner_id']) expect(made.payment).not.toHaveProperty(omitted)

    const after = await balances(customer)
    expect(after.customer - before.customer).toBe(250_000_000n)
    expect(before.merchant - after.merchant).toBe(247_500_000n)
    expect(before.platform - after.platform).toBe(2_500_000n)

    // settlement_Id is the hash of the real transaction that paid the customer back.
    const tx = await sandbox.context.ledger.getTransaction(sandbox.context.db, made.settlement_Id)
    expect(tx!.operations.map(({ from, to, amount }) => ({ from, to, amount }))).toEqual([
      { from: merchantAccount, to: customer, amount: 247_500_000n },
      { from: sandbox.identity.platformFeeAccount, to: customer, amount: 2_500_000n },
    ])
    const stored = await sandbox.direct.payments.get(payment.id)
    expect(stored.refunded).toBe(true)
    expect(stored.history.at(-1)).toMatchObject({ status: 'refunded', description: `Refunded 25 USDC to ${customer} (${made.refund_id})` })
  })

  it('adds partial refunds up to what was received, returning the fee exactly once, then refuses more', async () => {
    const payment = await create(1000)
    const customer = (await pay(payment.id)).sender_account!
    const before = await balances(customer)
    const parts = [333, 333, 334]
    for (const amount of parts) await refund(payment.id, { amount })
    const after = await balances(customer)
    expect(after.customer - before.customer).toBe(100_000_000n)
    expect(before.platform - after.platform).toBe(1_000_000n)
    expect(before.merchant - after.merchant).toBe(99_000_000n)

    const error = await refusal(refund(payment.id, { amount: 1 }))
    expect(error.statusCode).toBe(409)
    expect(error.message).toBe(`Payment ${payment.id} has been refunded in full`)
  })

  it('refuses more than is refundable with 400 and changes nothing', async () => {
    const payment = await create(1000)
    const customer = (await pay(payment.id)).sender_account!
    await refund(payment.id, { amount: 400 })
    const before = { balances: await balances(customer), payment: await sandbox.direct.payments.get(payment.id) }
    const error = await refusal(refund(payment.id, { amount: 601 }))
    expect(error.statusCode).toBe(400)
    expect(error.message).toBe('amount: 601 exceeds the 600 (USD smallest units) still refundable')
    expect(await balances(customer)).toEqual(before.balances)
    expect(await sandbox.direct.payments.get(payment.id)).toEqual(before.payment)
  })

  it('refunds an underpaid payment only in full, which cancels it', async () => {
    const payment = await create(1000)
    const customer = (await pay(payment.id, { amount: 300 })).sender_account!
    expect((await refusal(refund(payment.id, { amount: 100 }))).statusCode).toBe(400)
    const before = await balances(customer)
    const made = await refund(payment.id)
    expect(made.amount.value).toBe(3)
    expect(made.payment).toMatchObject({ status: 'canceled', refunded: true })
    const after = await balances(customer)
    // Nothing was settled, so no fee comes back: the merchant returns it all.
    expect(after.customer - before.customer).toBe(30_000_000n)
    expect(before.merchant - after.merchant).toBe(30_000_000n)
    expect(after.platform).toBe(before.platform)
  })

  it('gives back, in full only, what a payment closed after receiving part of it holds', async () => {
    const payment = await create(1000)
    const customer = (await pay(payment.id, { amount: 400 })).sender_account!
    await sandbox.direct.request('POST', `/sandbox/payments/${payment.id}/fail`)
    expect((await refusal(refund(payment.id, { amount: 100 }))).message).toBe('amount: a failed payment is refunded in full (omit amount)')
    const before = await balances(customer)
    const made = await refund(payment.id)
    expect(made.amount.value).toBe(4)
    expect(made.payment).toMatchObject({ status: 'failed', refunded: true })
    expect((await balances(customer)).customer - before.customer).toBe(40_000_000n)
    expect((await refusal(refund(payment.id))).message).toBe(`Payment ${payment.id} has been refunded in full`)
  })

  it('refuses payments that received nothing with 409', async () => {
    const open = await create(1000)
    expect((await refusal(refund(open.id))).statusCode).toBe(409)
    const failed = await sandbox.direct.request<Payment>('POST', `/sandbox/payments/${(await create(100)).id}/fail`)
    expect((await refusal(refund(failed.id))).message).toBe(`Payment ${failed.id} is failed and has received nothing to refund`)
  })

  it('validates the body, naming the field', async () => {
    const payment = await create(1000)
    await pay(payment.id)
    for (const [body, field] of [
      [{ amount: 1.5 }, 'amount'],
      [{ amount: -1 }, 'amount'],
      [{ amount: '100' }, 'amount'],
      [{ description: 7 }, 'description'],
      [{ metadata: [] }, 'metadata'],
      [{ reason: 'x' }, 'reason'],
    ] as const) {
      const error = await refusal(refund(payment.id, body))
      expect(error.statusCode, JSON.stringify(body)).toBe(400)
      expect(error.message).toContain(field)
    }
    expect((await sandbox.direct.payments.get(payment.id)).refunded).toBe(false)
  })

  it('lists refunds newest first with page links, gets one by id, and hides them from other merchants', async () => {
    const page = await sandbox.direct.request<Page<Refund>>('GET', '/refunds', { query: { limit: 2 } })
    expect(page.meta.totalItems).toBeGreaterThanOrEqual(5)
    expect(page.items).toHaveLength(2)
    expect(page.items[0]!.createdAt >= page.items[1]!.createdAt).toBe(true)
    expect(page.links?.next).toBe(`${sandbox.url}/refunds?page=2&limit=2`)

    const one = page.items[0]!
    expect(await sandbox.direct.request<Refund>('GET', `/refunds/${one.refund_id}`)).toEqual(one)
    expect((await refusal(sandbox.escrow.request('GET', `/refunds/${one.refund_id}`))).statusCode).toBe(404)
    expect((await sandbox.escrow.request<Page<Refund>>('GET', '/refunds')).meta.totalItems).toBe(0)
    expect((await refusal(sandbox.escrow.request('POST', `/payments/${one.paymentId}/refunds`))).statusCode).toBe(404)
  })

  it('refunds an escrow payment from the escrow custody before release', async () => {
    const payment = await sandbox.escrow.payments.create({ amount: { value: 800, currency: 'USD' }, description: 'Escrowed' })
    const paid = await sandbox.escrow.request<Payment>('POST', `/sandbox/payments/${payment.id}/pay`, { body: {} })
    const custodyBefore = await usdcOf(sandbox.identity.escrowCustody)
    const made = await sandbox.escrow.request<Refund>('POST', `/payments/${payment.id}/refunds`)
    const tx = await sandbox.context.ledger.getTransaction(sandbox.context.db, made.settlement_Id)
    expect(tx!.operations.map(({ from, to, amount }) => ({ from, to, amount }))).toEqual([
      { from: sandbox.identity.escrowCustody, to: paid.sender_account, amount: 80_000_000n },
    ])
    expect(custodyBefore - (await usdcOf(sandbox.identity.escrowCustody))).toBe(80_000_000n)
  })

  it('conserves USDC through every refund', async () => {
    const report = await ledgerSupply(sandbox)
    expect(report.usdc.circulating).toBe(report.usdc.issued)
  })
})
