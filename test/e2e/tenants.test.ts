// Tenants and per-merchant clocks over real HTTP: a tenant's clock moves only its own objects,
// an archived tenant's keys are refused and its rows leave the sweeps, and bad input is a 4xx.
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { listEscrowOrders } from '../../sandbox/escrow/escrow-service.js'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { rawRequest, sandboxForSuite, type TestSandbox } from '../../harness/sandbox.js'

const START = Date.UTC(2026, 10, 21, 12, 0, 0)
const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const iso = (ms: number) => new Date(ms).toISOString()

function tenantClient(sandbox: TestSandbox, merchant: { apiKey: string; apiSecret: string }): PayboxClient {
  return new PayboxClient({ baseUrl: sandbox.url, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret })
}

const newPayment = (client: PayboxClient) => client.payments.create({ amount: { value: 100, currency: 'USD' }, description: 'Tenant test' })

describe('tenants with clocks of their own', () => {
  const sandbox = sandboxForSuite({ clock: new ManualClock(START), dueWorkIntervalMs: 0 })

  it("moves only its own payments to expired: another merchant's with the same expiry stays open", async () => {
    const created = await sandbox.admin.sandbox.createTenant({ name: 'Job 1', frozenAt: iso(START) })
    expect(created.clock).toEqual({ now: iso(START), advancedSeconds: 0, frozenAt: iso(START) })
    const tenant = tenantClient(sandbox, created.merchant)
    const mine = await newPayment(tenant)
    const theirs = await newPayment(sandbox.direct)
    expect(mine.expiresAt).toBe(theirs.expiresAt)

    const advanced = await sandbox.admin.sandbox.advanceMerchantClock(created.merchant.id, { seconds: 31 * 60 })
    expect(advanced).toMatchObject({ now: iso(START + 31 * MINUTE), advancedSeconds: 31 * 60, processed: { expiredPayments: 1 } })
    const expired = await tenant.payments.get(mine.id)
    expect(expired.status).toBe('expired')
    expect(expired.updatedAt).toBe(iso(START + 31 * MINUTE))
    expect((await sandbox.direct.payments.get(theirs.id)).status).toBe('open')
    expect(await sandbox.admin.sandbox.clock()).toMatchObject({ now: iso(START), advancedSeconds: 0 })
  })

  it("stamps the tenant's objects with its own time", async () => {
    const created = await sandbox.admin.sandbox.createTenant({ frozenAt: iso(START + 24 * 60 * MINUTE) })
    const payment = await newPayment(tenantClient(sandbox, created.merchant))
    expect(payment.createdAt).toBe(iso(START + 24 * 60 * MINUTE))
    expect(payment.expiresAt).toBe(iso(START + 24 * 60 * MINUTE + 30 * MINUTE))
  })

  it('archives a tenant: its keys get 401 and its payments leave the sweeps', async () => {
    const created = await sandbox.admin.sandbox.createTenant({ frozenAt: iso(START) })
    const tenant = tenantClient(sandbox, created.merchant)
    const payment = await newPayment(tenant)
    const archived = await sandbox.admin.sandbox.archiveTenant(created.merchant.id)
    expect(archived).toEqual({ id: created.merchant.id, archivedAt: iso(START) })
    expect(await sandbox.admin.sandbox.archiveTenant(created.merchant.id)).toEqual(archived)
    const refused = await rawRequest(sandbox.url, { method: 'GET', path: `/payments/${payment.id}`, as: created.merchant })
    const unknown = await rawRequest(sandbox.url, {
      method: 'GET',
      path: `/payments/${payment.id}`,
      as: { apiKey: 'pk_test_00000000000000000000000000000000', apiSecret: created.merchant.apiSecret },
    })
    expect(refused.status).toBe(401)
    expect(refused.json).toMatchObject({ statusCode: 401, reason: unknown.json && (unknown.json as { reason: string }).reason })
    expect((await sandbox.admin.sandbox.listTenants()).data.map((t) => t.id)).not.toContain(created.merchant.id)
    expect((await sandbox.admin.sandbox.merchants()).items.map((m) => m.id)).not.toContain(created.merchant.id)
    // Its clock moves past the expiry, but the sweep no longer sees its payment.
    const advanced = await sandbox.admin.sandbox.advanceMerchantClock(created.merchant.id, { seconds: 60 * 60 })
    expect(advanced.processed.expiredPayments).toBe(0)
    const row = await sandbox.context.db.selectFrom('payments').select('status').where('id', '=', payment.id).executeTakeFirstOrThrow()
    expect(row.status).toBe('open')
  })

  it("takes an archived tenant's escrow orders out of the operator's list that spans merchants", async () => {
    const created = await sandbox.admin.sandbox.createTenant({ settlementMode: 'escrow', frozenAt: iso(START) })
    const order = await tenantClient(sandbox, created.merchant).payments.create({
      amount: { value: 10_000, currency: 'USD' },
      description: 'Order',
    })
    const listed = async () => (await listEscrowOrders(sandbox.context.db, undefined, { page: 1, limit: 200 })).rows.map((row) => row.id)
    expect(await listed()).toContain(order.id)
    await sandbox.admin.sandbox.archiveTenant(created.merchant.id)
    expect(await listed()).not.toContain(order.id)
  })

  it('lets a merchant key read and move its own clock only, where the sandbox allows it (a local sandbox does)', async () => {
    const created = await sandbox.admin.sandbox.createTenant({ frozenAt: iso(START) })
    const tenant = tenantClient(sandbox, created.merchant)
    expect(await tenant.sandbox.advanceMerchantClock(created.merchant.id, { seconds: 60 })).toMatchObject({ now: iso(START + MINUTE) })
    const other = await rawRequest(sandbox.url, {
      method: 'GET',
      path: `/sandbox/merchants/${sandbox.merchants[0]!.id}/clock`,
      as: created.merchant,
    })
    expect(other.status).toBe(403)
    expect(other.json).toMatchObject({ statusCode: 403, reason: 'Forbidden' })
    const anonymous = await rawRequest(sandbox.url, { method: 'GET', path: `/sandbox/merchants/${created.merchant.id}/clock` })
    expect(anonymous.status).toBe(401)
  })

  it("marks its own invoices overdue and fails its own unfunded escrow orders by its clock, and no one else's", async () => {
    const escrowTenant = await sandbox.admin.sandbox.createTenant({ settlementMode: 'escrow', frozenAt: iso(START) })
    const tenant = tenantClient(sandbox, escrowTenant.merchant)
    const invoice = {
      currency: 'USD',
      line_items: [{ description: 'Consulting', quantity: 1, unit_price: 15_000 }],
      customer: { email: 'ada@example.com', customer_type: 'individual' },
      due_at: iso(START + 2 * DAY),
    }
    const mine = await tenant.request<{ id: string }>('POST', '/invoices', { body: invoice })
    const theirs = await sandbox.direct.request<{ id: string }>('POST', '/invoices', { body: invoice })
    const order = await tenant.payments.create({
      amount: { value: 10_000, currency: 'USD' },
      description: 'Marketplace order',
      expiresInHours: 24 * 30,
      escrowExpiresAt: iso(START + 2 * DAY),
    })
    const advanced = await sandbox.admin.sandbox.advanceMerchantClock(escrowTenant.merchant.id, { seconds: 2 * 24 * 3600 })
    expect(advanced.processed).toMatchObject({ overdueInvoices: 1, failedEscrows: 1 })
    expect(await tenant.request('GET', `/invoices/${mine.id}`)).toMatchObject({ status: 'overdue' })
    expect(await sandbox.direct.request('GET', `/invoices/${theirs.id}`)).toMatchObject({ status: 'sent' })
    expect(await tenant.payments.get(order.id)).toMatchObject({ status: 'expired', escrow_status: 'failed' })
  })

  it('takes an escrow fee for its escrow orders, as a merchant made through /sandbox/merchants does', async () => {
    const created = await sandbox.admin.sandbox.createTenant({ settlementMode: 'escrow', escrowFeeBps: 250 })
    expect(created.merchant.escrow_fee_bps).toBe(250)
  })

  it("takes money for its payment while the sandbox-wide clock is past that payment's expiry", async () => {
    const created = await sandbox.admin.sandbox.createTenant({ frozenAt: iso(START) })
    const tenant = tenantClient(sandbox, created.merchant)
    const payment = await newPayment(tenant)
    // Only the sandbox-wide clock moves past the expiry: the tenant's stays at START.
    await sandbox.admin.sandbox.advanceClock({ seconds: 60 * 60 })
    const paid = await tenant.sandbox.pay(payment.id)
    expect(paid.status).toBe('paid')
    expect(paid.history.map((entry) => entry.time)).toEqual(paid.history.map(() => START))
  })

  it.each([
    ['an unknown tenant', 'DELETE', '/sandbox/tenants/nope', undefined, 404],
    ['an unknown merchant clock', 'POST', '/sandbox/merchants/nope/clock/advance', '{"seconds":60}', 404],
    ['a frozenAt that is not ISO 8601', 'POST', '/sandbox/tenants', '{"frozenAt":"tomorrow"}', 400],
    ['negative seconds', 'POST', `/sandbox/merchants/MERCHANT/clock/advance`, '{"seconds":-5}', 400],
    ['a freeze in the past', 'POST', `/sandbox/merchants/MERCHANT/clock/freeze`, `{"at":"2000-01-01T00:00:00Z"}`, 400],
    ['an unknown field', 'POST', '/sandbox/tenants', '{"clock":"mine"}', 400],
    ['a name too long', 'POST', '/sandbox/tenants', JSON.stringify({ name: 'x'.repeat(101) }), 400],
    ['an escrow fee for a direct tenant', 'POST', '/sandbox/tenants', '{"escrowFeeBps":250}', 400],
    ['an escrow fee over 100%', 'POST', '/sandbox/tenants', '{"settlementMode":"escrow","escrowFeeBps":10001}', 400],
  ])('answers %s with a 4xx JSON error', async (_what, method, path, body, status) => {
    const merchantId = sandbox.merchants[0]!.id
    const answer = await rawRequest(sandbox.url, {
      method,
      path: path.replace('MERCHANT', merchantId),
      body,
      headers: { 'x-sandbox-admin-token': sandbox.identity.adminToken },
    })
    expect(answer.status).toBe(status)
    expect(answer.json).toMatchObject({ statusCode: status })
  })
})

describe('the tenant limit', () => {
  const sandbox = sandboxForSuite({ clock: new ManualClock(START), dueWorkIntervalMs: 0, limits: { maxTenants: 2 } })

  it('answers 409 past it, and archiving one frees its place', async () => {
    const first = await sandbox.admin.sandbox.createTenant({})
    await sandbox.admin.sandbox.createTenant({})
    const over = await rawRequest(sandbox.url, {
      method: 'POST',
      path: '/sandbox/tenants',
      body: '{}',
      headers: { 'x-sandbox-admin-token': sandbox.identity.adminToken },
    })
    expect(over.status).toBe(409)
    expect(over.json).toMatchObject({ statusCode: 409, message: expect.stringContaining('2 active tenants') })
    await sandbox.admin.sandbox.archiveTenant(first.merchant.id)
    expect((await sandbox.admin.sandbox.listTenants()).data).toHaveLength(1)
    await sandbox.admin.sandbox.createTenant({})
  })
})

describe('a shared sandbox', () => {
  const sandbox = sandboxForSuite({
    clock: new ManualClock(START),
    dueWorkIntervalMs: 0,
    shared: true,
    limits: { tenantCreationRate: { burst: 2, perSecond: 0.001 } },
  })

  it('rate-limits creating tenants, answering 429 with Retry-After', async () => {
    const first = await sandbox.admin.sandbox.createTenant({ frozenAt: iso(START) })
    await sandbox.admin.sandbox.createTenant({})
    const over = await rawRequest(sandbox.url, {
      method: 'POST',
      path: '/sandbox/tenants',
      body: '{}',
      headers: { 'x-sandbox-admin-token': sandbox.identity.adminToken },
    })
    expect(over.status).toBe(429)
    expect(over.json).toMatchObject({ statusCode: 429, reason: 'Too Many Requests' })
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    // And by default lets no merchant key move its own clock: the admin token only.
    const own = await rawRequest(sandbox.url, { method: 'GET', path: `/sandbox/merchants/${first.merchant.id}/clock`, as: first.merchant })
    expect(own.status).toBe(403)
    expect(own.json).toMatchObject({ statusCode: 403, message: expect.stringContaining('admin token') })
    expect((await sandbox.admin.sandbox.getMerchantClock(first.merchant.id)).now).toBe(iso(START))
  })
})
