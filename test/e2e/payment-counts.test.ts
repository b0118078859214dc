// List totals come from payment_counts, kept by triggers: they must equal counting the rows,
// per merchant, status and store, as payments are created and change status.
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js'

describe('payment list totals', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox()
  })
  afterAll(() => sandbox.stop())

  const counted = (merchantId: string, where = '', ...params: string[]) => {
    const db = new BetterSqlite3(sandbox.dbFile, { readonly: true })
    try {
      return (db.prepare(`select count(*) as n from payments where merchant_id = ? ${where}`).get(merchantId, ...params) as { n: number }).n
    } finally {
      db.close()
    }
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
    expect(await total({})).toBe(counted(merchantId))
    expect(await total({})).toBe(5)
    for (const status of ['open', 'expired', 'failed', 'paid', 'underpaid']) {
      expect(await total({ status })).toBe(counted(merchantId, 'and status = ?', status))
    }
    expect(await total({ status: 'expired' })).toBe(1)
    expect(await total({ storeId: 'north' })).toBe(2)
    expect(await total({ storeId: 'north', status: 'open' })).toBe(1)
    expect(await total({ storeId: 'south', status: 'failed' })).toBe(1)
    expect(await total({ storeId: 'nowhere' })).toBe(0)
  })
})
