// How many statements (round trips) a POST /payments sends to PostgreSQL (issue #25), counted
// at pg's Client.query as the sandbox sends them: once the merchant is known, authentication
// sends none (merchants/merchant-cache.ts), and the payment's own transaction is four: BEGIN
// (with the idempotency claim, if any), the payment (its count deltas by trigger), its event, COMMIT.
import { expect, it } from 'vitest'
import { statementsSentBy } from '../../harness/postgres-statements.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

const sandbox = sandboxForSuite({ dueWorkIntervalMs: 0 })

/** The merchant lookups `work` sends, and the statements of each transaction it opens. */
async function statementsOf(work: () => Promise<unknown>): Promise<{ lookups: string[]; transactions: string[][] }> {
  const { all, transactions } = await statementsSentBy(work)
  // The payment's own: webhook claims and count folds may open transactions meanwhile.
  const own = transactions.filter((statements) => statements.some((text) => /^insert into "payments"/.test(text)))
  return { lookups: all.filter((text) => /"merchants"/.test(text)), transactions: own }
}

const body = { amount: { value: 10, currency: 'USD' }, description: 'Round trips' }

it('creates a payment without looking its merchant up again, in one transaction of four round trips', async () => {
  await sandbox.direct.payments.create(body)
  const { lookups, transactions } = await statementsOf(() => sandbox.direct.payments.create(body))
  expect(lookups).toEqual([])
  expect(transactions).toHaveLength(1)
  expect(transactions[0]!.length, transactions[0]!.join('\n')).toBeLessThanOrEqual(4)
})

it('replays and creates with an Idempotency-Key without a merchant lookup either', async () => {
  await sandbox.direct.payments.create(body, { idempotencyKey: 'round-trips-1' })
  const { lookups, transactions } = await statementsOf(() => sandbox.direct.payments.create(body, { idempotencyKey: 'round-trips-2' }))
  expect(lookups).toEqual([])
  expect(transactions).toHaveLength(1)
})
