// List totals come from payment_counts, kept by triggers: they must equal counting the rows,
// per merchant, status and store, as payments are created and change status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { startTestSandbox, type TestSandbox } from '../../harness/sandbox.js'

describe('payment list totals', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(() => sandbox.stop())

  const counted = async (merchantId: string, where = '', ...params: string[]) => {
    const [row] = await queryFromOutside<{ n: number }>(
      sandbox.dbFile,
      `select count(*) as n from payments where merchant_id = ? ${where}`,
      [merchantId, ...params],
    )
    return row!.n
  }

  it('equal counting the rows for every status and store filter, after creations and status changes', async () => {
    const create = (storeId?: string) =>
      sandbox.direct.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Counted', ...(storeId ? { storeId } : {}) })
    const payments = [await create('north'), await create('north'), await create('south'), await create(), await create()]
    await sandbox.escrow.payments.create({ amount: { value: 1000, currency: 'USD' }, description: 'Other merchant', storeId: 'north' })
    await sandbox.direct.request('POST', `/sandbox/payments/${payments[0]!.id}/expire`)
    await sandbox.direct.request('POST', `/sandbox/payments/${payments[2]!.id}/fail`)
    await sandbox.direct.request('POST', `/sandbox/payments/${payments[3]!.id}/pay`, { body: {} })

    const merchantId = sandbox.merchants[0]!.id
    const total = async (query: Record<string, string>) => (await sandbox.direct.payments.list(query)).meta.totalItems
    expect(await total({})).toBe(await counted(merchantId))
    expect(await total({})).toBe(5)
    for (const status of ['open', 'expired', 'failed', 'paid', 'underpaid']) {
      expect(await total({ status })).toBe(await counted(merchantId, 'and status = ?', status))
    }
    expect(await total({ status: 'expired' })).toBe(1)
    expect(await total({ storeId: 'north' })).toBe(2)
    expect(await total({ storeId: 'north', status: 'open' })).toBe(1)
    expect(await total({ storeId: 'south', status: 'failed' })).toBe(1)
    expect(await total({ storeId: 'nowhere' })).toBe(0)
  })
})

// Date-filtered totals add whole UTC days from payment_day_counts to the partial boundary days
// counted through the index: they must equal counting the rows for any range, wherever it starts
// and ends, in whatever time zone its ISO dates are written.
describe('date-filtered payment list totals', () => {
  const DAY = 86_400_000
  const MIDNIGHT = Date.UTC(2026, 2, 10)
  // Creation instants on and around day boundaries and within days, over five days.
  const INSTANTS = [
    MIDNIGHT - 1,
    MIDNIGHT,
    MIDNIGHT + 1,
    MIDNIGHT + 3 * 3_600_000,
    MIDNIGHT + DAY / 2,
    MIDNIGHT + DAY - 1,
    MIDNIGHT + DAY,
    MIDNIGHT + DAY + 20 * 3_600_000,
    MIDNIGHT + 2 * DAY + 7 * 3_600_000,
    MIDNIGHT + 2 * DAY + 7 * 3_600_000,
    MIDNIGHT + 3 * DAY - 1,
    MIDNIGHT + 4 * DAY + 1,
  ]
  const clock = new ManualClock(MIDNIGHT - 2 * DAY)
  let sandbox: TestSandbox
  const ids: string[] = []
  beforeAll(async () => {
    sandbox = await startTestSandbox({ clock, dueWorkIntervalMs: 0 })
    for (const [i, instant] of INSTANTS.entries()) {
      clock.set(instant)
      const storeId = ['north', 'south', undefined][i % 3]
      const payment = await sandbox.direct.payments.create({
        amount: { value: 1000, currency: 'USD' },
        description: 'Dated',
        expiresInHours: 24 * 365,
        ...(storeId ? { storeId } : {}),
      })
      ids.push(payment.id)
      // Another merchant's payments at the same instants must never count.
      await sandbox.escrow.payments.create({
        amount: { value: 1000, currency: 'USD' },
        description: 'Other merchant',
        ...(storeId ? { storeId } : {}),
      })
    }
    clock.set(MIDNIGHT + 10 * DAY)
  })
  afterAll(() => sandbox.stop())

  const counted = async (merchantId: string, filter: { status?: string; storeId?: string }, from?: number, to?: number) => {
    const where = ['merchant_id = ?']
    const params: Array<string | number> = [merchantId]
    if (filter.status !== undefined) {
      where.push('status = ?')
      params.push(filter.status)
    }
    if (filter.storeId !== undefined) {
      where.push('store_id = ?')
      params.push(filter.storeId)
    }
    if (from !== undefined) {
      where.push('created_at >= ?')
      params.push(from)
    }
    if (to !== undefined) {
      where.push('created_at <= ?')
      params.push(to)
    }
    const [row] = await queryFromOutside<{ n: number }>(
      sandbox.dbFile,
      `select count(*) as n from payments where ${where.join(' and ')}`,
      params,
    )
    return row!.n
  }

  /** `ms` as an ISO date-time in a zone `offsetMinutes` east of UTC (e.g. 2026-03-10T05:30:00.000+05:30). */
  const isoIn = (ms: number, offsetMinutes: number) => {
    const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1)
    const sign = offsetMinutes < 0 ? '-' : '+'
    const abs = Math.abs(offsetMinutes)
    return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
  }

  const checkRanges = async (filters: Array<{ status?: string; storeId?: string }>) => {
    const merchantId = sandbox.merchants[0]!.id
    const edges = [
      ...new Set(INSTANTS.flatMap((t) => [t - 1, t, t + 1]).concat([MIDNIGHT - 5 * DAY, MIDNIGHT + 2 * DAY, MIDNIGHT + 9 * DAY])),
    ].sort((a, b) => a - b)
    const zones = [0, 330, -480, 840, -720]
    let checked = 0
    for (const filter of filters) {
      for (const [i, from] of edges.entries()) {
        // Every start edge with a spread of end edges, plus open-ended ranges either side.
        for (const to of [undefined, ...edges.filter((_, j) => j >= i - 1 && (j - i) % 4 === 0)]) {
          const zone = zones[checked % zones.length]!
          const query: Record<string, string> = { ...filter, startDate: isoIn(from, zone), limit: '1' }
          if (to !== undefined) query.endDate = isoIn(to, zones[(checked + 1) % zones.length]!)
          const total = (await sandbox.direct.payments.list(query)).meta.totalItems
          expect(total, JSON.stringify(query)).toBe(await counted(merchantId, filter, from, to))
          checked++
        }
        const untilOnly = (await sandbox.direct.payments.list({ ...filter, endDate: isoIn(from, zones[i % zones.length]!), limit: 1 })).meta
          .totalItems
        expect(untilOnly).toBe(await counted(merchantId, filter, undefined, from))
      }
    }
    return checked
  }

  it('equal counting the rows for ranges starting and ending anywhere, in any time zone', async () => {
    expect(await checkRanges([{}, { storeId: 'north' }, { status: 'open' }])).toBeGreaterThan(200)
  })

  it('count a bare date from midnight UTC, and an empty or inverted range as nothing', async () => {
    const merchantId = sandbox.merchants[0]!.id
    const total = async (query: Record<string, string>) => (await sandbox.direct.payments.list(query)).meta.totalItems
    expect(await total({ startDate: '2026-03-11', endDate: '2026-03-12' })).toBe(
      await counted(merchantId, {}, MIDNIGHT + DAY, MIDNIGHT + 2 * DAY),
    )
    expect(await total({ startDate: '2026-03-11', endDate: '2026-03-12' })).toBe(2)
    expect(await total({ startDate: '2026-03-10T00:00:00+01:00', endDate: '2026-03-10T01:00:00+01:00' })).toBe(2)
    expect(await total({ startDate: '2026-03-12', endDate: '2026-03-11' })).toBe(0)
    expect(await total({ startDate: '2030-01-01' })).toBe(0)
    expect(await total({ endDate: '2020-01-01' })).toBe(0)
    expect(await total({ startDate: '2020-01-01', endDate: '2030-01-01' })).toBe(INSTANTS.length)
  })

  it('follow payments that change status, in every range', async () => {
    await sandbox.direct.request('POST', `/sandbox/payments/${ids[0]!}/expire`)
    await sandbox.direct.request('POST', `/sandbox/payments/${ids[4]!}/fail`)
    await sandbox.direct.request('POST', `/sandbox/payments/${ids[5]!}/pay`, { body: {} })
    await sandbox.direct.request('POST', `/sandbox/payments/${ids[9]!}/pay`, { body: {} })
    await checkRanges([{ status: 'open' }, { status: 'paid', storeId: 'south' }, { status: 'expired' }, { status: 'failed' }])
  })
})
