// Snapshots and reset of a sandbox shared by two replicas on one PostgreSQL database (issue 17):
// a restore or reset made through one replica is what the other answers next (payments and
// business time, as soon as the restore has answered: the other replica paused at its gate and
// rebuilt on the restored rows before opening it), and requests to the other replica meanwhile
// never get a 5xx. restore-barrier.test.ts looks inside that pause.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { adminRequest, signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'
import { snapshotSchema } from '../../sandbox/snapshots/postgres-snapshot-store.js'

describe('snapshots and reset across two replicas on one PostgreSQL database', () => {
  let database: TestDatabase
  let a: SandboxProcess
  let b: SandboxProcess
  let merchant: Merchant
  const create = async (via: SandboxProcess, description: string) => {
    const created = await signed(via.banner.baseUrl, merchant, 'POST', '/payments', {
      amount: { value: 1250, currency: 'USD' },
      description,
    })
    expect(created.status, created.text).toBe(200)
    return (created.json as { id: string }).id
  }
  const paymentIds = async (via: SandboxProcess) => {
    const listed = await signed(via.banner.baseUrl, merchant, 'GET', '/payments?limit=100')
    expect(listed.status, listed.text).toBe(200)
    return (listed.json as { items: Array<{ id: string }> }).items.map((p) => p.id).sort()
  }
  const clockOf = async (via: SandboxProcess) =>
    (await adminRequest(via, 'GET', '/sandbox/clock')).json as { now: string; advancedSeconds: number }

  /** Reads `via` over and over until stopped; the statuses it got (599: no answer at all). */
  /**
   * Reads through `via` one after another until stopped; the statuses of the reads in flight at
   * some time during `swap` (each read's span overlaps it).
   */
  const keepReading = (via: SandboxProcess) => {
    const reads: Array<{ from: number; to: number; status: number }> = []
    let reading = true
    const timed = async (request: () => Promise<{ status: number }>) => {
      const from = performance.now()
      const status = await request().then(
        (answer) => answer.status,
        () => 599,
      )
      reads.push({ from, to: performance.now(), status })
    }
    const done = (async () => {
      while (reading) {
        await timed(() => signed(via.banner.baseUrl, merchant, 'GET', '/payments?limit=5'))
        await timed(() => adminRequest(via, 'GET', '/sandbox/clock'))
      }
    })()
    return async <T>(swap: () => Promise<T>): Promise<{ swapped: T; statuses: number[] }> => {
      const from = performance.now()
      const swapped = await swap()
      const to = performance.now()
      reading = false
      await done
      return { swapped, statuses: reads.filter((read) => read.from < to && read.to > from).map((read) => read.status) }
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase('paybox_snapshot_replicas')
    // Seeded, so that a reset's genesis has the same merchant keys again.
    const args = ['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--seed', 'snapshot-replicas']
    a = await spawnSandbox(args)
    b = await spawnSandbox(args)
    merchant = a.banner.merchants.find((m) => m.settlement_mode === 'direct')!
  })
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await database?.drop()
  })

  it('restores through one replica what the other then answers: its payments and business time', async () => {
    const kept = await create(a, 'Before the snapshot')
    const frozenAt = '2030-01-02T03:04:05.000Z'
    expect((await adminRequest(a, 'POST', '/sandbox/clock/freeze', { at: frozenAt })).status).toBe(200)
    const saved = await adminRequest(a, 'POST', '/sandbox/snapshots', { name: 'Before.restore-1' })
    expect(saved.status, saved.text).toBe(201)
    expect(saved.json).toMatchObject({ name: 'Before.restore-1', size: expect.any(Number), createdAt: expect.any(String) })
    // Both replicas list it: it lives in the database, not in a replica.
    expect(((await adminRequest(b, 'GET', '/sandbox/snapshots')).json as { items: unknown[] }).items).toEqual([saved.json])

    // Changed through B: a payment, and business time moved on.
    const dropped = await create(b, 'After the snapshot')
    expect((await adminRequest(b, 'POST', '/sandbox/clock/advance', { seconds: 3600 })).status).toBe(200)
    await waitFor('replica B to see its advance', async () => (await clockOf(b)).now === '2030-01-02T04:04:05.000Z')
    expect(await paymentIds(b)).toEqual([kept, dropped].sort())

    const { swapped: restored, statuses } = await keepReading(b)(() =>
      adminRequest(a, 'POST', '/sandbox/snapshots/Before.restore-1/restore'),
    )
    expect(restored.status, restored.text).toBe(200)
    expect(restored.json).toMatchObject({ snapshot: { name: 'Before.restore-1' }, clock: { now: frozenAt, frozenAt } })
    // B's rows and business time are the restored ones at once: it rebuilt before its gate opened.
    expect(await paymentIds(b)).toEqual([kept])
    expect((await clockOf(b)).now).toBe(frozenAt)
    // Some of B's reads were in flight during the restore, and none of them failed.
    expect(statuses.length).toBeGreaterThan(0)
    expect(statuses.filter((status) => status >= 500)).toEqual([])

    // Both replicas take new work on the restored state, and see each other's.
    const next = await create(b, 'After the restore')
    expect(await paymentIds(a)).toEqual([kept, next].sort())
    const paid = await signed(a.banner.baseUrl, merchant, 'POST', `/sandbox/payments/${next}/pay`, {})
    expect(paid.status, paid.text).toBe(200)
    const health = await adminRequest(b, 'GET', '/health')
    expect((health.json as { checks: { ledger: { status: string } } }).checks.ledger.status).toBe('ok')
  })

  it('resets through one replica to the genesis both then answer, with the same keys and admin token', async () => {
    const { swapped: reset, statuses } = await keepReading(a)(() => adminRequest(b, 'POST', '/sandbox/reset'))
    expect(reset.status, reset.text).toBe(200)
    expect(await paymentIds(a)).toEqual([])
    expect(await paymentIds(b)).toEqual([])
    const merchants = (reset.json as { merchants: Array<{ apiKey: string }> }).merchants
    expect(merchants.map((m) => m.apiKey)).toEqual(a.banner.merchants.map((m) => m.apiKey))
    // The clock is no longer frozen: genesis starts on wall time, on A as soon as the reset answered.
    expect((await clockOf(a)).advancedSeconds).toBe(0)
    expect(statuses.length).toBeGreaterThan(0)
    expect(statuses.filter((status) => status >= 500)).toEqual([])
    // The snapshot outlives the reset: it is kept beside the sandbox's tables.
    expect(
      ((await adminRequest(a, 'GET', '/sandbox/snapshots')).json as { items: Array<{ name: string }> }).items.map((s) => s.name),
    ).toEqual(['Before.restore-1'])
  })

  it('takes writes through one replica while the other restores, without a 5xx, and stays consistent', async () => {
    expect((await adminRequest(a, 'POST', '/sandbox/snapshots', { name: 'under-load' })).status).toBe(201)
    const created: number[] = []
    const paid: number[] = []
    let writing = true
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const payment = await signed(b.banner.baseUrl, merchant, 'POST', '/payments', {
          amount: { value: 500 + i, currency: 'USD' },
          description: `Under load ${i}`,
        }).catch(() => ({ status: 599, json: undefined }))
        created.push(payment.status)
        if (payment.status !== 200 || i % 2 === 1) continue
        const { id } = payment.json as { id: string }
        const pay = await signed(b.banner.baseUrl, merchant, 'POST', `/sandbox/payments/${id}/pay`, {}).catch(() => ({ status: 599 }))
        paid.push(pay.status)
      }
    })()
    for (let round = 0; round < 3; round++) {
      await waitFor('a few writes through B', () => created.length >= 3 * (round + 1))
      const restored = await adminRequest(a, 'POST', '/sandbox/snapshots/under-load/restore')
      expect(restored.status, restored.text).toBe(200)
    }
    writing = false
    await writer
    expect(
      created.filter((status) => status !== 200),
      b.process.stderr(),
    ).toEqual([])
    // A payment made just before a restore is gone after it: paying it then is a 404, never a 5xx.
    expect(
      paid.filter((status) => status !== 200 && status !== 404),
      b.process.stderr(),
    ).toEqual([])
    for (const replica of [a, b]) {
      const health = (await adminRequest(replica, 'GET', '/health')).json as { checks: { ledger: { status: string } } }
      expect(health.checks.ledger.status).toBe('ok')
    }
    expect(await paymentIds(a)).toEqual(await paymentIds(b))
  })

  it('refuses a damaged snapshot before anything is touched', async () => {
    await create(a, 'Kept through a refused restore')
    const before = await paymentIds(a)
    expect((await adminRequest(a, 'POST', '/sandbox/snapshots', { name: 'damaged' })).status).toBe(201)
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      await client.query(`drop table ${client.escapeIdentifier(snapshotSchema('damaged'))}.payments`)
    } finally {
      await client.end()
    }
    const refused = await adminRequest(b, 'POST', '/sandbox/snapshots/damaged/restore')
    expect(refused.status, refused.text).toBe(422)
    expect(await paymentIds(a)).toEqual(before)
    expect((await adminRequest(b, 'POST', '/sandbox/snapshots/missing/restore')).status).toBe(404)
    expect((await adminRequest(b, 'DELETE', '/sandbox/snapshots/damaged')).status).toBe(204)
  })
})
