// List totals on PostgreSQL with replicas writing in parallel (issue #25): a payment's change
// inserts count deltas instead of moving a merchant's count rows, so no insert waits on another's
// counter row, and the totals stay exact while the leader folds the deltas in.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'

const CREATES = 500
const IN_FLIGHT = 50

describe('payment counts of two replicas writing at once', () => {
  let database: TestDatabase
  let a: SandboxProcess
  let b: SandboxProcess
  let merchant: Merchant
  let client: pg.Client

  beforeAll(async () => {
    database = await createTestDatabase('paybox_count_deltas')
    a = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant'])
    b = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant'])
    merchant = a.banner.merchants.find((m) => m.settlement_mode === 'direct')!
    client = new pg.Client({ connectionString: database.url })
    await client.connect()
  })
  afterAll(async () => {
    await client?.end()
    await a?.stop()
    await b?.stop()
    await database?.drop()
  })

  const create = (i: number) =>
    signed([a, b][i % 2]!.banner.baseUrl, merchant, 'POST', '/payments', {
      amount: { value: 100 + i, currency: 'USD' },
      description: `Count ${i}`,
      storeId: i % 3 === 0 ? 'north' : 'south',
    })
  const total = async (via: SandboxProcess, query = '') => {
    const listed = await signed(via.banner.baseUrl, merchant, 'GET', `/payments?limit=1${query}`)
    expect(listed.status, listed.text).toBe(200)
    return (listed.json as { meta: { totalItems: number } }).meta.totalItems
  }
  const counted = async (where = '') =>
    Number((await client.query(`select count(*) from payments where merchant_id = $1 ${where}`, [merchant.id])).rows[0].count)

  it('creates payments while every count row of the merchant is locked elsewhere', async () => {
    expect((await create(0)).status).toBe(200)
    // The leader folds the first payment's deltas in: from then on the merchant has count rows.
    await waitFor(
      'the deltas to be folded',
      async () => Number((await client.query('select count(*) from payment_count_deltas')).rows[0].count) === 0,
    )
    await client.query('begin')
    try {
      const locked = await client.query(`select 1 from payment_counts where merchant_id = $1 for update`, [merchant.id])
      expect(locked.rowCount).toBeGreaterThan(0)
      await client.query(`select 1 from payment_day_counts where merchant_id = $1 for update`, [merchant.id])
      // Each insert would wait on those rows (and answer 503 when its lock wait ran out): none does.
      const created = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i + 1)))
      expect(created.map((response) => response.status)).toEqual(created.map(() => 200))
    } finally {
      await client.query('rollback')
    }
  })

  it("creates payments without locking the merchant's own row: they go on while it is locked FOR UPDATE elsewhere", async () => {
    await client.query('begin')
    try {
      await client.query(`select 1 from merchants where id = $1 for update`, [merchant.id])
      // A foreign key to merchants would share-lock that row at each insert (FOR KEY SHARE), and wait: none does.
      const created = await Promise.all(Array.from({ length: 10 }, (_, i) => create(i)))
      expect(created.map((response) => response.status)).toEqual(created.map(() => 200))
    } finally {
      await client.query('rollback')
    }
  })

  it(`keeps list totals exact over ${CREATES} creates spread across both replicas`, async () => {
    const before = await counted()
    const statuses: number[] = []
    for (let next = 0; next < CREATES; next += IN_FLIGHT) {
      const batch = await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, CREATES - next) }, (_, i) => create(next + i)))
      statuses.push(...batch.map((response) => response.status))
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([])
    expect(await counted()).toBe(before + CREATES)
    // Exact on both replicas, with deltas still unfolded or folded meanwhile, whole and filtered.
    for (const via of [a, b]) {
      expect(await total(via)).toBe(before + CREATES)
      expect(await total(via, '&storeId=north')).toBe(await counted(`and store_id = 'north'`))
      expect(await total(via, '&status=open&storeId=south')).toBe(await counted(`and status = 'open' and store_id = 'south'`))
      expect(await total(via, '&startDate=2000-01-01T00:00:00.000Z')).toBe(before + CREATES)
    }
    await waitFor(
      'the deltas to be folded',
      async () => Number((await client.query('select count(*) from payment_count_deltas')).rows[0].count) === 0,
    )
    expect(await total(a)).toBe(before + CREATES)
    const kept = await client.query('select sum(count) as sum from payment_counts where merchant_id = $1', [merchant.id])
    expect(Number(kept.rows[0].sum)).toBe(before + CREATES)
  })
})
