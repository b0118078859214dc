// Positions of payment events on PostgreSQL (issue 25): transactions on two replicas insert
// events, stay open, and commit or roll back in a random order while a reader pages past its
// cursor; whatever the order, the reader sees every committed event once, in increasing
// position, and nothing that rolled back (sandbox/db/postgres-event-positions.ts).
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, runTransaction, type SandboxDb } from '../../sandbox/db/database.js'
import { CHANGES_CHANNEL } from '../../sandbox/db/postgres-database.js'
import type { PaymentEventRow } from '../../sandbox/db/schema.js'
import { findEventsAfter, insertEvent, lastEventSequence } from '../../sandbox/webhooks/webhook-repository.js'
import { Rng } from '../../harness/hostile/rng.js'
import { queryFromOutside } from '../../harness/outside-db.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { waitFor } from '../../harness/wait.js'

const RUNS = 40
const MERCHANT = 'merchant_positions'
/** Small pages, so that a reader's cursor moves several times within a run. */
const PAGE = 2

interface Writer {
  subject: string
  started: Promise<void>
  finish(commit: boolean): Promise<void>
}

describe('payment event positions on two replicas', () => {
  let database: TestDatabase
  let replicas: SandboxDb[]

  beforeAll(async () => {
    database = await createTestDatabase('paybox_positions')
    replicas = [await openDatabase({ file: database.url }), await openDatabase({ file: database.url })]
    await sql`insert into merchants (id, name, api_key, api_secret, settlement_mode, account_id, created_at)
      values (${MERCHANT}, 'Positions', 'key_positions', 'secret', 'direct', 'G_POSITIONS', 0)`.execute(replicas[0]!)
  })
  afterAll(async () => {
    for (const db of replicas ?? []) await db.destroy()
    await database?.drop()
  })

  const event = (subject: string) => ({
    merchant_id: MERCHANT,
    subject_type: 'payment' as const,
    subject_id: subject,
    event_type: 'transaction_created' as const,
    payload: '{}',
    created_at: 0,
  })

  /**
   * A transaction on `db` that inserts one event and waits, open, to be told how to end. It is
   * held on its own connection (the write switch cannot group it with the others), and its
   * COMMIT notifies the replicas as every write transaction's does.
   */
  const writer = (db: SandboxDb, subject: string): Writer => {
    let inserted!: () => void
    const started = new Promise<void>((resolve) => (inserted = resolve))
    let end!: (commit: boolean) => void
    const decided = new Promise<boolean>((resolve) => (end = resolve))
    const done = db
      .transaction()
      .execute(async (trx) => {
        await insertEvent(trx, event(subject))
        await sql`select pg_notify(${CHANGES_CHANNEL}, 'another writer')`.execute(trx)
        inserted()
        if (!(await decided)) throw new Error('rolled back')
      })
      .catch((error: Error) => {
        if (error.message !== 'rolled back') throw error
      })
    return {
      subject,
      started,
      finish: async (commit) => {
        end(commit)
        await done
      },
    }
  }

  const unplaced = async () =>
    (
      await queryFromOutside<{ count: number }>(database.url, 'select count(*)::int as count from payment_events where sequence is null')
    )[0]!.count

  it('pages every committed event once, in increasing position, whatever order transactions commit in', async () => {
    for (let run = 0; run < RUNS; run++) {
      const rng = new Rng(run)
      const seen: PaymentEventRow[] = []
      let cursor = await lastEventSequence(replicas[0]!)
      const page = async () => {
        for (const row of await findEventsAfter(rng.pick(replicas), cursor, PAGE)) {
          seen.push(row)
          cursor = row.sequence
        }
      }
      const waiting = Array.from({ length: rng.int(3, 8) }, (_, i) => `run${run}_tx${i}`)
      const open: Writer[] = []
      const committed: string[] = []
      // Each step starts a transaction, ends an open one, or reads a page, at random.
      while (waiting.length > 0 || open.length > 0) {
        const step = rng.int(0, 2)
        if (step === 0 && waiting.length > 0) {
          const started = writer(rng.pick(replicas), waiting.shift()!)
          await started.started
          open.push(started)
        } else if (step === 1 && open.length > 0) {
          const [ending] = open.splice(rng.int(0, open.length - 1), 1)
          const commit = rng.chance(0.8)
          await ending!.finish(commit)
          if (commit) committed.push(ending!.subject)
        } else await page()
      }
      await waitFor('every committed event to be placed', async () => (await unplaced()) === 0)
      for (let before = -1; before !== seen.length;) {
        before = seen.length
        await page()
      }
      const label = `run ${run}: ${JSON.stringify(seen.map((row) => [row.subject_id, row.sequence]))}`
      expect(seen.map((row) => row.subject_id).toSorted(), label).toEqual(committed.toSorted())
      const positions = seen.map((row) => row.sequence)
      expect(positions, label).toEqual(positions.toSorted((x, y) => x - y))
      expect(new Set(positions).size, label).toBe(positions.length)
    }
  })

  it('places an event after its own commit, on a database that hears no other replica', async () => {
    // A scratch schema neither listens nor leads: only its own commit listener can place the row.
    const alone = await openDatabase({ file: database.url, postgresSchema: 'positions_alone' })
    try {
      await sql`insert into merchants (id, name, api_key, api_secret, settlement_mode, account_id, created_at)
        values (${MERCHANT}, 'Positions', 'key_positions', 'secret', 'direct', 'G_POSITIONS', 0)`.execute(alone)
      const cursor = await lastEventSequence(alone)
      await runTransaction(alone, (trx) => insertEvent(trx, event('own_commit')))
      const rows = await waitFor('the event to be placed', async () => {
        const found = await findEventsAfter(alone, cursor, 10)
        return found.length > 0 && found
      })
      expect(rows.map((row) => [row.subject_id, row.sequence])).toEqual([['own_commit', cursor + 1]])
    } finally {
      await alone.destroy()
    }
  })
})
