// How many statements (round trips) a POST /payments sends to PostgreSQL (issue #25), counted
// at pg's Client.query as the sandbox sends them: once the merchant is known, authentication
// sends none (merchants/merchant-cache.ts), and the payment's own transaction is BEGIN, the
// commit note, the payment (its count deltas by trigger), its event, and COMMIT.
import pg from 'pg'
import { expect, it } from 'vitest'
import { sandboxForSuite } from '../../harness/sandbox.js'

const sandbox = sandboxForSuite({ dueWorkIntervalMs: 0 })

/** The statements `work` makes the sandbox send, but those of readers woken by its commit (webhook dispatch, event streams). */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = []
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first] = args
    const text = typeof first === 'object' && first !== null ? (first as pg.QueryConfig).text : first
    sent.push(String(text).replace(/\s+/g, ' '))
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  try {
    await work()
  } finally {
    pg.Client.prototype.query = query
  }
  return sent.filter((text) => !/^select .* from "?(webhook_deliveries|payment_events)"?( |$)/i.test(text))
}

const body = { amount: { value: 10, currency: 'USD' }, description: 'Round trips' }

it('creates a payment without looking its merchant up again, in at most five round trips', async () => {
  await sandbox.direct.payments.create(body)
  const sent = await statementsOf(() => sandbox.direct.payments.create(body))
  expect(sent.filter((text) => /"merchants"/.test(text))).toEqual([])
  expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(5)
})

it('replays and creates with an Idempotency-Key without a merchant lookup either', async () => {
  await sandbox.direct.payments.create(body, { idempotencyKey: 'round-trips-1' })
  const sent = await statementsOf(() => sandbox.direct.payments.create(body, { idempotencyKey: 'round-trips-2' }))
  expect(sent.filter((text) => /"merchants"/.test(text))).toEqual([])
})
