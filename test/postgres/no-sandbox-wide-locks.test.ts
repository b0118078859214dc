// Under POST /payments load across two replicas, nothing sandbox-wide is held or awaited by a
// request: a sampler on a connection of its own reads pg_locks back to back and finds only
// row-level locks (tuples, transaction ids), the relation locks every reader and writer takes,
// idempotency claims, the webhook dispatcher's ANALYZE of the outbox, and the replicas' session
// locks (leader, serving, migrate); never the write lock, and the lock PostgreSQL orders
// notifying commits by only in the channel's session, which notes commits after them.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANNEL_APPLICATION_NAME, NUMBERS_AS_NUMBERS } from '../../sandbox/db/postgres-database.js'
import { LOCK_KEYS } from '../../sandbox/db/postgres-lock-keys.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import type { RawResponse } from '../../harness/sandbox.js'
import { signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'

const REQUESTS = 240
const CONCURRENCY = 8

interface Lock {
  locktype: string
  mode: string
  granted: boolean
  classid: number | null
  objid: number | null
  objsubid: number | null
  relation: string | null
  session: string
}

/** Every lock of the replicas' sessions on the database (not autovacuum's, nor the sampler's). */
const SAMPLE = `select l.locktype, l.mode, l.granted, l.classid::int8 as classid, l.objid::int8 as objid, l.objsubid::int8 as objsubid,
    c.relname as relation, a.application_name as session
  from pg_locks l join pg_stat_activity a on a.pid = l.pid left join pg_class c on c.oid = l.relation
  where a.datname = current_database() and a.application_name in ('paybox', '${CHANNEL_APPLICATION_NAME}')`

/** pg_database's oid: the class of the one lock PostgreSQL orders the commits that NOTIFY by. */
const DATABASE_CLASS = 1262

const SESSION_KEYS = new Set<number>([LOCK_KEYS.leader, LOCK_KEYS.serving, LOCK_KEYS.migrate])
const RELATION_MODES = new Set(['RowExclusiveLock', 'AccessShareLock', 'RowShareLock'])
/** Locks of work after commits, never taken by a request: event-position passes. */
const BACKGROUND_KEYS = new Set<number>([LOCK_KEYS.eventPositions])

/** The tables the dispatcher analyzes or vacuums as it sends, and why. */
const UPKEPT: Record<string, string> = {
  webhook_deliveries: "the outbox's ANALYZE",
  webhook_live_claims: "the live claims' VACUUM",
}

/** Why `lock` is one a replica may hold or await under load; undefined if it is not. */
function allowedAs(lock: Lock): string | undefined {
  // spectoken: an INSERT … ON CONFLICT's own token, which only a conflicting insert of the same key waits on.
  if (['tuple', 'transactionid', 'virtualxid', 'spectoken'].includes(lock.locktype)) return 'row-level'
  if (lock.locktype === 'relation' && RELATION_MODES.has(lock.mode)) return 'relation, as every statement takes'
  // The dispatcher's `analyze (skip_locked)` of a stale outbox, and its `vacuum (skip_locked)` of
  // the live claims: they block no read or write, and never queue.
  if (lock.locktype === 'relation' && lock.mode === 'ShareUpdateExclusiveLock' && lock.granted && lock.relation !== null)
    return UPKEPT[lock.relation]
  // Two-key: a webhook claim's lock of one merchant's or origin's share, or an idempotency claim.
  if (lock.locktype === 'advisory' && lock.objsubid === 2 && lock.classid === LOCK_KEYS.deliveryClaims) return 'webhook share claim'
  if (lock.locktype === 'advisory' && lock.objsubid === 2) return 'idempotency claim'
  if (lock.locktype === 'advisory' && lock.classid === 0 && lock.objsubid === 1 && SESSION_KEYS.has(lock.objid!)) return 'session lock'
  if (lock.locktype === 'advisory' && lock.classid === 0 && lock.objsubid === 1 && BACKGROUND_KEYS.has(lock.objid!))
    return 'a background pass after commits'
  // A connection of the pool starting: PostgreSQL guards its database against DROP DATABASE meanwhile (objid: the database's oid).
  if (lock.locktype === 'object' && lock.classid === DATABASE_CLASS && lock.objid !== 0 && lock.mode === 'RowExclusiveLock')
    return 'a connection starting'
  // PostgreSQL's own, held while a table grows by a page, not until a transaction ends.
  if (lock.locktype === 'extend') return 'a page added to a table'
  if (lock.session === CHANNEL_APPLICATION_NAME && lock.locktype === 'object' && lock.classid === DATABASE_CLASS && lock.objid === 0)
    return 'a commit note, sent after the commit'
  return undefined
}

const describeLock = (lock: Lock) =>
  `${lock.session}: ${lock.locktype} ${lock.mode} ${lock.granted ? 'held' : 'awaited'}` +
  (lock.relation === null ? ` (${lock.classid}, ${lock.objid}, ${lock.objsubid})` : ` on ${lock.relation}`)

describe('POST /payments load across two replicas', () => {
  let database: TestDatabase
  let replicas: SandboxProcess[]
  let merchant: Merchant

  beforeAll(async () => {
    database = await createTestDatabase('paybox_no_wide_locks')
    replicas = [
      await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--quiet']),
      await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--quiet']),
    ]
    merchant = replicas[0]!.banner.merchants.find((m) => m.settlement_mode === 'direct')!
  }, 60_000)
  afterAll(async () => {
    for (const replica of replicas ?? []) await replica.stop()
    await database?.drop()
  })

  it('holds and awaits no sandbox-wide lock: only row-level ones, relation locks of reads and writes, claims and session locks', async () => {
    const sampler = new pg.Client({ connectionString: database.url, types: NUMBERS_AS_NUMBERS })
    await sampler.connect()
    const seen = new Map<string, string | undefined>()
    let samples = 0
    let loaded = false
    const sampling = (async () => {
      while (!loaded) {
        for (const lock of (await sampler.query<Lock>(SAMPLE)).rows) seen.set(describeLock(lock), allowedAs(lock))
        samples++
      }
    })()
    const answers: RawResponse[] = []
    const refusals: RawResponse[] = []
    // A create holds its key's claim only through its one round trip's COMMIT; an accept-underpayment
    // of an open payment (a 400) holds its own from its opening, through its read of the payment.
    const open = await signed(replicas[0]!.banner.baseUrl, merchant, 'POST', '/payments', {
      amount: { value: 99, currency: 'USD' },
      description: 'Never underpaid',
    })
    const openId = (open.json as { id: string }).id
    let next = 0
    const worker = async () => {
      for (let i = next++; i < REQUESTS; i = next++) {
        if (i % 4 === 2) {
          const path = `/payments/${openId}/accept-underpayment`
          refusals.push(
            await signed(replicas[i % 2]!.banner.baseUrl, merchant, 'POST', path, undefined, { 'idempotency-key': `accept-${i}` }),
          )
          continue
        }
        // Spread over both replicas; every other request with an Idempotency-Key, so claims are taken too.
        const headers: Record<string, string> = i % 2 === 0 ? { 'idempotency-key': `load-${i}` } : {}
        answers.push(
          await signed(
            replicas[i % 2]!.banner.baseUrl,
            merchant,
            'POST',
            '/payments',
            { amount: { value: 100 + i, currency: 'USD' }, description: `Load ${i}` },
            headers,
          ),
        )
      }
    }
    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, worker))
    } finally {
      loaded = true
      await sampling
      await sampler.end()
    }

    expect(answers.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${answer.text}`)).toEqual([])
    expect(refusals.filter((answer) => answer.status !== 400).map((answer) => `${answer.status} ${answer.text}`)).toEqual([])
    const forbidden = [...seen].filter(([, allowed]) => allowed === undefined).map(([lock]) => lock)
    expect(forbidden).toEqual([])
    // The sampler saw the load: the inserts' relation locks and the claims.
    expect(samples).toBeGreaterThan(20)
    expect([...seen].filter(([lock]) => lock.startsWith('paybox: relation RowExclusiveLock held')).length).toBeGreaterThan(0)
    expect([...seen.values()]).toContain('idempotency claim')
  }, 120_000)

  it("allows the lock the webhook dispatcher's ANALYZE of the outbox and VACUUM of the live claims hold, and on no other table", async () => {
    // A session named as a replica's, in a transaction so that the locks stay to be read (the dispatcher's end with its statement).
    const session = new pg.Client({ connectionString: database.url, types: NUMBERS_AS_NUMBERS, application_name: 'paybox' })
    await session.connect()
    const forbiddenOf = async (table: string) => {
      await session.query('begin')
      try {
        await session.query(`analyze (skip_locked) ${table}`)
        const locks = (await session.query<Lock>(`${SAMPLE} and l.pid = pg_backend_pid()`)).rows
        expect(locks.map(describeLock)).toContain(`paybox: relation ShareUpdateExclusiveLock held on ${table}`)
        return locks.filter((lock) => allowedAs(lock) === undefined).map(describeLock)
      } finally {
        await session.query('rollback')
      }
    }
    try {
      expect(await forbiddenOf('webhook_deliveries')).toEqual([])
      // VACUUM runs in no transaction, so its lock cannot be held to be read; ANALYZE takes the same one.
      expect(await forbiddenOf('webhook_live_claims')).toEqual([])
      expect(await forbiddenOf('payments')).toEqual(['paybox: relation ShareUpdateExclusiveLock held on payments'])
    } finally {
      await session.end()
    }
  })
})
