// Merchants are cached on every replica of a PostgreSQL sandbox (issue #25), by API key to
// authenticate and by id to sign webhooks, and a change of a merchant through one replica reaches
// the others' caches: a rotated secret stops working on the replica that cached it, and signs what
// it sends from then on, and a clock set through one replica is the merchant's time on the other. Each check first makes replica B cache the merchant, then changes it
// through A: without the notification of the change, B would keep its cached row forever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { adminRequest, signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { startWebhookReceiver, webhookData } from '../../harness/webhook-receiver.js'

describe('the merchant cache of two replicas', () => {
  let database: TestDatabase
  let a: SandboxProcess
  let b: SandboxProcess

  beforeAll(async () => {
    database = await createTestDatabase('paybox_merchant_cache')
    a = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant'])
    b = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant'])
  })
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await database?.drop()
  })

  const merchantOf = (mode: 'direct' | 'escrow'): Merchant => a.banner.merchants.find((m) => m.settlement_mode === mode)!

  it('refuses on replica B a secret rotated through replica A, and takes the new one', async () => {
    const merchant = merchantOf('direct')
    // B reads the merchant and keeps it.
    expect((await signed(b.banner.baseUrl, merchant, 'GET', '/payments?limit=1')).status).toBe(200)
    expect((await signed(b.banner.baseUrl, merchant, 'GET', '/payments?limit=1')).status).toBe(200)

    const rotated = await adminRequest(a, 'POST', `/sandbox/merchants/${merchant.id}/rotate-secret`)
    expect(rotated.status, rotated.text).toBe(200)
    const { apiSecret } = rotated.json as { apiSecret: string }
    // On A at once: the write cleared its own cache.
    expect((await signed(a.banner.baseUrl, merchant, 'GET', '/payments?limit=1')).status).toBe(401)

    // On B once it has heard of the change (the NOTIFY of A's commit): with the cache kept, never.
    await waitFor(
      'replica B to refuse the old secret',
      async () => (await signed(b.banner.baseUrl, merchant, 'GET', '/payments?limit=1')).status === 401,
    )
    const renewed = { ...merchant, apiSecret }
    expect((await signed(b.banner.baseUrl, renewed, 'GET', '/payments?limit=1')).status).toBe(200)
    expect(
      (await signed(b.banner.baseUrl, merchant, 'POST', '/payments', { amount: { value: 5, currency: 'USD' }, description: 'x' })).status,
    ).toBe(401)
  })

  it('signs the deliveries replica B sends with a secret rotated through replica A', async () => {
    const created = await adminRequest(a, 'POST', '/sandbox/merchants', { name: 'Rotated while sending', settlement_mode: 'direct' })
    expect(created.status, created.text).toBe(201)
    const merchant = created.json as Merchant
    const receiver = await startWebhookReceiver(merchant.apiSecret)
    /** Payments made until one's delivery is sent by replica B (either replica claims it); what B's receiver got for it. */
    const sentByB = (as: Merchant) =>
      waitFor('a delivery sent by replica B', async () => {
        const made = await signed(b.banner.baseUrl, as, 'POST', '/payments', {
          amount: { value: 5, currency: 'USD' },
          description: 'signed by B',
          webhookUrl: receiver.url,
        })
        expect(made.status, made.text).toBe(200)
        const id = (made.json as { id: string }).id
        const [delivery] = await waitFor('its delivery logged', async () => {
          const rows = await queryFromOutside<{ claimed_by: string }>(
            database.url,
            "select claimed_by from webhook_deliveries where subject_id = ? and status <> 'pending'",
            [id],
          )
          return rows.length > 0 ? rows : undefined
        })
        if (!delivery!.claimed_by.endsWith(`:${b.process.child.pid}`)) return undefined
        return receiver.received.find((arrival) => webhookData(arrival.raw).id === id)
      })
    try {
      // B signs with the merchant it keeps.
      expect((await sentByB(merchant)).verified).toBe(true)
      const rotated = await adminRequest(a, 'POST', `/sandbox/merchants/${merchant.id}/rotate-secret`)
      expect(rotated.status, rotated.text).toBe(200)
      const renewed = { ...merchant, apiSecret: (rotated.json as { apiSecret: string }).apiSecret }
      receiver.secret = renewed.apiSecret
      // Once B has heard of the change (its API refuses the old secret): with the merchant kept, B would sign with the old one.
      await waitFor(
        'replica B to refuse the old secret',
        async () => (await signed(b.banner.baseUrl, merchant, 'GET', '/payments?limit=1')).status === 401,
      )
      expect((await sentByB(renewed)).verified).toBe(true)
    } finally {
      await receiver.close()
    }
  })

  it('refuses on replica B, at once, the key of a tenant archived through replica A', async () => {
    const created = await adminRequest(a, 'POST', '/sandbox/tenants', { name: 'Archived soon' })
    expect(created.status, created.text).toBe(201)
    const tenant = (created.json as { merchant: Merchant }).merchant
    expect((await signed(b.banner.baseUrl, tenant, 'GET', '/payments?limit=1')).status).toBe(200)
    expect((await adminRequest(a, 'DELETE', `/sandbox/tenants/${tenant.id}`)).status).toBe(200)
    // No wait: a tenant has a clock of its own, so no replica caches it; its row is read on every request.
    expect((await signed(b.banner.baseUrl, tenant, 'GET', '/payments?limit=1')).status).toBe(401)
  })

  it("stamps a payment made on replica B with the merchant's clock frozen through replica A", async () => {
    const merchant = merchantOf('escrow')
    const create = () =>
      signed(b.banner.baseUrl, merchant, 'POST', '/payments', { amount: { value: 7, currency: 'USD' }, description: 'clock' })
    // B keeps the merchant as following the sandbox-wide clock.
    expect((await create()).status).toBe(200)

    const at = '2030-01-02T03:04:05.000Z'
    const frozen = await adminRequest(a, 'POST', `/sandbox/merchants/${merchant.id}/clock/freeze`, { at })
    expect(frozen.status, frozen.text).toBe(200)
    await waitFor('replica B to create payments at the merchant’s frozen time', async () => {
      const created = await create()
      expect(created.status, created.text).toBe(200)
      return (created.json as { createdAt: string }).createdAt === at
    })
  })
})
