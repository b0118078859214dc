// Due work is swept by every replica (issue 25): each batch claims its due rows (FOR UPDATE SKIP
// LOCKED), so two replicas sweeping at once handle different rows and each due payment expires once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryFromOutside } from '../../harness/outside-db.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { adminRequest, signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'

const PAYMENTS = 240
const AT_ONCE = 20

describe('due work swept by two replicas', () => {
  let database: TestDatabase
  let replicas: SandboxProcess[]
  let merchant: Merchant

  beforeAll(async () => {
    database = await createTestDatabase('paybox_sweep_replicas')
    replicas = [
      await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant']),
      await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant']),
    ]
    merchant = replicas[0]!.banner.merchants.find((m) => m.settlement_mode === 'direct')!
  })
  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.stop()
    await database?.drop()
  })

  it('expires each due payment once when both replicas sweep at the same time', async () => {
    const ids: string[] = []
    for (let at = 0; at < PAYMENTS; at += AT_ONCE) {
      const batch = Array.from({ length: AT_ONCE }, async (_, k) => {
        const created = await signed(replicas[k % 2]!.banner.baseUrl, merchant, 'POST', '/payments', {
          amount: { value: 500 + at + k, currency: 'USD' },
          description: `Due ${at + k}`,
          expiresInHours: 1,
        })
        expect(created.status, created.text).toBe(200)
        return (created.json as { id: string }).id
      })
      ids.push(...(await Promise.all(batch)))
    }
    // Both replicas move business time past the expiry at once, and each sweeps what is due.
    const advanced = await Promise.all(
      replicas.map((replica) => adminRequest(replica, 'POST', '/sandbox/clock/advance', { seconds: 7200 })),
    )
    for (const answer of advanced) expect(answer.status, answer.text).toBe(200)
    await waitFor(
      'every payment expired',
      async () =>
        (
          await queryFromOutside<{ open: number }>(
            database.url,
            "select count(*) as open from payments where id = any(?) and status <> 'expired'",
            [ids],
          )
        )[0]?.open === 0,
      30_000,
    )
    // One event for the creation and one for the expiry: a payment expired twice would have two.
    const events = await queryFromOutside<{ subject_id: string; count: number }>(
      database.url,
      'select subject_id, count(*) as count from payment_events where subject_id = any(?) group by subject_id',
      [ids],
    )
    expect(events).toHaveLength(PAYMENTS)
    expect(events.filter((row) => row.count !== 2)).toEqual([])
  }, 90_000)
})
