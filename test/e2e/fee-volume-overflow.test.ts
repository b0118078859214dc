// Issue 20.2: a merchant whose settled volume passes int64 stroops (about 922 billion USDC)
// must still get its fee tier and be paid: SQLite's integer sum overflows there ("integer
// overflow"), which made every later pay and GET /merchant/fee-tier answer 500.
import { describe, expect, it } from 'vitest'
import { runTransaction } from '../../sandbox/db/database.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

describe('settled volume past int64', () => {
  const sandbox = sandboxForSuite({ dueWorkIntervalMs: 0 })

  it('sums exactly, so fee-tier and later payments keep working', async () => {
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const payment = await sandbox.direct.payments.create({ amount: { value: 1000, currency: 'USD' }, description: `Settled ${i}` })
      expect((await sandbox.direct.sandbox.pay(payment.id)).settlement_status).toBe('paid')
      ids.push(payment.id)
    }
    // Unreachable through the API since deposits are bounded: written straight into the rows, as
    // the unbounded bridge once left them. 3 × 4e18 stroops is past int64 (9.22e18).
    const huge = 4_000_000_000_000_000_000n
    await runTransaction(sandbox.context.db, (trx) =>
      trx
        .updateTable('payments')
        .set({ settlement_amount: huge as unknown as number, settlement_fee: 1 })
        .where('id', 'in', ids)
        .execute(),
    )
    const tier = await sandbox.direct.merchant.feeTier()
    expect(tier.tierName).toBe('Enterprise')
    // 3 × (4e18 + 1) stroops = 1 200 000 000 000.0000003 USDC, shown as a number of USD.
    expect(tier.volume).toBe(1_200_000_000_000)
    const next = await sandbox.direct.payments.create({ amount: { value: 500, currency: 'USD' }, description: 'After' })
    expect((await sandbox.direct.sandbox.pay(next.id)).status).toBe('paid')
  })
})
