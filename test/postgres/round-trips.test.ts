// How many round trips a POST /payments makes to PostgreSQL (issue #25), counted at pg's
// Client.query as the sandbox sends them: once the merchant is known, authentication sends none
// (merchants/merchant-cache.ts). The payment (its count deltas by trigger) and its event are
// deferred writes (db/postgres-deferred-writes.ts) that go with the COMMIT: without an
// Idempotency-Key the whole transaction is one simple query `begin; …; commit`; with one too, the
// key's claim taken in it before the writes (its record too), a stored answer caught at the COMMIT.
import { expect, it } from 'vitest'
import { statementsSentBy } from '../../harness/postgres-statements.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

const sandbox = sandboxForSuite({ dueWorkIntervalMs: 0 })

/** The merchant lookups `work` sends, and the statements of each transaction it opens. */
async function statementsOf(work: () => Promise<unknown>): Promise<{ lookups: string[]; transactions: string[][] }> {
  const { all, transactions } = await statementsSentBy(work)
  // The payment's own: webhook claims and count folds may open transactions meanwhile.
  // Its insert goes as an EXECUTE of a statement the connection prepared (db/postgres-deferred-writes.ts).
  const own = transactions.filter((statements) => statements.some((text) => /\bexecute paybox_deferred_\w+_payments\(/.test(text)))
  return { lookups: all.filter((text) => /"merchants"/.test(text)), transactions: own }
}

const body = { amount: { value: 10, currency: 'USD' }, description: 'Round trips' }

it('creates a payment without looking its merchant up again, in one transaction of one round trip', async () => {
  await sandbox.direct.payments.create(body)
  const { lookups, transactions } = await statementsOf(() => sandbox.direct.payments.create(body))
  expect(lookups).toEqual([])
  expect(transactions).toHaveLength(1)
  expect(transactions[0]!.length, transactions[0]!.join('\n')).toBe(1)
})

it('creates with an Idempotency-Key in one round trip too, its claim before the writes, without a merchant lookup either', async () => {
  await sandbox.direct.payments.create(body, { idempotencyKey: 'round-trips-1' })
  const { lookups, transactions } = await statementsOf(() => sandbox.direct.payments.create(body, { idempotencyKey: 'round-trips-2' }))
  expect(lookups).toEqual([])
  expect(transactions).toHaveLength(1)
  expect(transactions[0]!.length, transactions[0]!.join('\n')).toBe(1)
  expect(transactions[0]![0]).toMatch(
    /^begin; .*select paybox_take_claim\(.*; execute paybox_deferred_\w+_payments\(.*execute paybox_deferred_\w+_idempotency_keys\(.*; commit$/,
  )
})
