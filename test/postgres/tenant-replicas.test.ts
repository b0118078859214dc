// A tenant's clock lives in the database: a change made through one replica is the time of every
// replica at once, with nothing to wait for (no cache to refresh), and the sweep that follows it
// runs by that clock whichever replica leads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'
import { PayboxClient } from '../../src/client/paybox-client.js'

const START = Date.UTC(2030, 0, 1, 12, 0, 0)
const iso = (ms: number) => new Date(ms).toISOString()

describe("a tenant's clock on two replicas of one PostgreSQL database", () => {
  let database: TestDatabase
  let a: TestSandbox
  let b: TestSandbox

  beforeAll(async () => {
    database = await createTestDatabase('paybox_tenant_clocks')
    a = await startTestSandbox({ db: database.url, dueWorkIntervalMs: 0 })
    b = await startTestSandbox({ db: database.url, dueWorkIntervalMs: 0 })
  })
  afterAll(async () => {
    await b?.stop()
    await a?.stop()
    await database?.drop()
  })

  it('is seen by both replicas at once: frozen, advanced and unfrozen through one, read through the other', async () => {
    const { merchant, clock } = await a.admin.sandbox.createTenant({ frozenAt: iso(START) })
    expect(await b.admin.sandbox.getMerchantClock(merchant.id)).toEqual(clock)
    await b.admin.sandbox.advanceMerchantClock(merchant.id, { seconds: 3600 })
    expect(await a.admin.sandbox.getMerchantClock(merchant.id)).toEqual({
      now: iso(START + 3_600_000),
      advancedSeconds: 3600,
      frozenAt: iso(START + 3_600_000),
    })
    await a.admin.sandbox.freezeMerchantClock(merchant.id, { at: iso(START + 7_200_000) })
    expect((await b.admin.sandbox.getMerchantClock(merchant.id)).frozenAt).toBe(iso(START + 7_200_000))
    // A payment created through B right after the change made through A is stamped with the new time.
    const tenantOnB = new PayboxClient({ baseUrl: b.url, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret })
    const payment = await tenantOnB.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'After the change' })
    expect(payment.createdAt).toBe(iso(START + 7_200_000))
  })

  it("expires the tenant's payment when its clock is advanced through the other replica, and no one else's", async () => {
    const { merchant } = await a.admin.sandbox.createTenant({ frozenAt: iso(START) })
    const other = await a.admin.sandbox.createTenant({ frozenAt: iso(START) })
    const onA = (m: { apiKey: string; apiSecret: string }) => new PayboxClient({ baseUrl: a.url, apiKey: m.apiKey, apiSecret: m.apiSecret })
    const mine = await onA(merchant).payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Mine' })
    const theirs = await onA(other.merchant).payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Theirs' })
    const advanced = await b.admin.sandbox.advanceMerchantClock(merchant.id, { seconds: 31 * 60 })
    expect(advanced.processed.expiredPayments).toBe(1)
    expect((await onA(merchant).payments.get(mine.id)).status).toBe('expired')
    expect((await onA(other.merchant).payments.get(theirs.id)).status).toBe('open')
  })
})
