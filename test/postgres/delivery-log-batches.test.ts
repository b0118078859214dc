// A replica writes one batch of finished deliveries at a time (delivery-log-writer.ts): those that
// finish while a batch is being written wait for it and go together in the next transaction, so a
// busy replica's batches grow with its load. Here the first batch's transaction is held open (its
// claim step waits on a gate) while five more deliveries finish, each in a turn of its own.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openDatabase, type SandboxDb } from '../../sandbox/db/database.js'
import type { WebhookDeliveryRow } from '../../sandbox/db/schema.js'
import { startSandbox } from '../../sandbox/server.js'
import { DeliveryLogWriter } from '../../sandbox/webhooks/delivery-log-writer.js'
import { WebhookFeed } from '../../sandbox/webhooks/webhook-feed.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { waitFor } from '../../harness/wait.js'

let database: TestDatabase
let db: SandboxDb

beforeAll(async () => {
  database = await createTestDatabase('paybox_log_batches')
  // A sandbox makes the schema, then leaves.
  const sandbox = await startSandbox({ port: 0, db: database.url, log: () => {}, ledgerClose: 'instant' })
  await sandbox.stop()
  db = await openDatabase({ file: database.url })
})
afterAll(async () => {
  await db?.destroy()
  await database?.drop()
})

/** A finished delivery no claim holds: its log transaction runs, and logs nothing. */
const finished = (n: number) => ({ id: `wh_batch_${n}`, claim_token: `token_${n}`, status: 'success' }) as WebhookDeliveryRow

it('logs the deliveries that finish while a batch is written together, in the next transaction', async () => {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const transactions: number[] = []
  const writer = new DeliveryLogWriter(
    db,
    new WebhookFeed(),
    () => {},
    async () => {
      transactions.push(transactions.length)
      if (transactions.length === 1) await gate
      return () => {}
    },
  )
  const first = writer.finished(finished(0))
  await waitFor('the first batch held open', () => transactions.length === 1)
  const later: Array<Promise<boolean>> = []
  for (let n = 1; n <= 5; n++) {
    later.push(writer.finished(finished(n)))
    await new Promise((resolve) => setImmediate(resolve))
  }
  release()
  expect(await Promise.all([first, ...later])).toEqual([false, false, false, false, false, false])
  expect(transactions).toHaveLength(2)
})
