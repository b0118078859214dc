// The serving barrier of a sandbox shared on PostgreSQL (issue 17): while a restore through one
// replica swaps the state, every other replica holds its requests at its gate and answers them
// from the restored state once it is over, never from the old one. A replica that does not pause
// makes the restore fail with nothing changed, a dead one does not hold it up, and a replica
// starting meanwhile waits for it.
// Each restore here is held open by an outside client reading a table the restore's copy empties:
// the tests wait on what PostgreSQL and the replicas report, never on time.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { rawRequest, startTestSandbox, type RawResponse, type TestSandbox } from '../../harness/sandbox.js'
import { signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'
import { LOCK_KEYS } from '../../sandbox/db/postgres-lock-keys.js'

/** What a replica logs when it holds a request at its gate for another replica's restore. */
const HOLDING = 'Holding requests while another replica replaces the state'

describe('the serving barrier: replicas pause while another one restores', () => {
  let database: TestDatabase
  /** In this process, with a short pause deadline (the refusal test waits for it). */
  let a: TestSandbox
  let b: SandboxProcess
  let outside: pg.Client
  let merchant: Merchant
  const seed = 'restore-barrier'

  const urlOf = (via: TestSandbox | SandboxProcess) => ('banner' in via ? via.banner.baseUrl : via.url)
  const admin = (via: TestSandbox | SandboxProcess, method: string, path: string, body?: unknown) =>
    rawRequest(urlOf(via), {
      method,
      path,
      headers: { 'x-sandbox-admin-token': 'banner' in via ? via.banner.adminToken : via.identity.adminToken },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const create = async (via: TestSandbox | SandboxProcess, description: string) => {
    const created = await signed(urlOf(via), merchant, 'POST', '/payments', { amount: { value: 990, currency: 'USD' }, description })
    expect(created.status, created.text).toBe(200)
    return (created.json as { id: string }).id
  }
  const paymentIdsIn = (answer: RawResponse) => {
    expect(answer.status, answer.text).toBe(200)
    return (answer.json as { items: Array<{ id: string }> }).items.map((p) => p.id).sort()
  }
  const listPayments = (via: TestSandbox | SandboxProcess) => signed(urlOf(via), merchant, 'GET', '/payments?limit=100')
  const clockIn = (answer: RawResponse) => {
    expect(answer.status, answer.text).toBe(200)
    return answer.json as { now: string; frozenAt?: string }
  }
  const readClock = (via: TestSandbox | SandboxProcess) => admin(via, 'GET', '/sandbox/clock')

  /** The serving lock as PostgreSQL holds it: one row per session holding or waiting for it. */
  const servingLocks = async () =>
    (
      await outside.query<{ pid: number; mode: string; granted: boolean }>(
        `select pid, mode, granted from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())
           and classid = 0 and objid = $1 and objsubid = 1`,
        [LOCK_KEYS.serving],
      )
    ).rows
  /** Whether a transaction waits to empty the payments table the outside client reads: a restore's copy, held open. */
  const restoreWaitsForPayments = async () =>
    (
      await outside.query(
        `select 1 from pg_locks where locktype = 'relation' and relation = 'payments'::regclass and mode = 'AccessExclusiveLock' and not granted`,
      )
    ).rows.length > 0

  /**
   * Keeps the payments table open for reading in a transaction of the outside client: nothing
   * but a restore's TRUNCATE waits for that (reads and writes go on); returns its end.
   */
  const holdPaymentsOpen = async () => {
    await outside.query('begin')
    await outside.query('lock table payments in access share mode')
    return () => outside.query('commit')
  }
  /** Starts a restore through A and waits until it holds the barrier (every replica paused) and its copy waits for the outside client. */
  const restoreHeldOpen = async (name: string) => {
    const restoring = admin(a, 'POST', `/sandbox/snapshots/${name}/restore`)
    await waitFor('the restore to hold the serving lock exclusive', async () =>
      (await servingLocks()).some((lock) => lock.mode === 'ExclusiveLock' && lock.granted),
    )
    await waitFor('the restore to wait for the payments table', restoreWaitsForPayments)
    // Wrapped: an async function returning the promise itself would wait for it.
    return { restoring }
  }

  beforeAll(async () => {
    database = await createTestDatabase('paybox_restore_barrier')
    a = await startTestSandbox({ db: database.url, seed, restorePauseTimeoutMs: 2_000 })
    b = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--seed', seed])
    merchant = b.banner.merchants.find((m) => m.settlement_mode === 'direct')!
    outside = new pg.Client({ connectionString: database.url })
    await outside.connect()
  })
  afterAll(async () => {
    await outside?.end()
    await a?.stop()
    await b?.stop()
    await database?.drop()
  })

  it('holds a request that reaches another replica during the restore, and answers it from the restored state', async () => {
    // Both replicas serve: each holds the serving lock shared.
    expect((await servingLocks()).filter((lock) => lock.mode === 'ShareLock' && lock.granted)).toHaveLength(2)
    const kept = await create(a, 'In the snapshot')
    const frozenAt = '2031-05-06T07:08:09.000Z'
    expect((await admin(a, 'POST', '/sandbox/clock/freeze', { at: frozenAt })).status).toBe(200)
    expect((await admin(a, 'POST', '/sandbox/snapshots', { name: 'barrier' })).status).toBe(201)
    // The state B answers before the restore: one more payment, and business time an hour on.
    const dropped = await create(b, 'After the snapshot')
    expect((await admin(b, 'POST', '/sandbox/clock/advance', { seconds: 3600 })).status).toBe(200)
    await waitFor('B to answer its advance', async () => clockIn(await readClock(b)).now === '2031-05-06T08:08:09.000Z')
    expect(paymentIdsIn(await listPayments(b))).toEqual([kept, dropped].sort())

    const release = await holdPaymentsOpen()
    let released = false
    const { restoring } = await restoreHeldOpen('barrier')
    // B let go of the serving lock (PostgreSQL granted A's exclusive hold): its gate is closed.
    const answeredEarly: string[] = []
    const atB = (what: string, request: Promise<RawResponse>) =>
      request.then((answer) => {
        if (!released) answeredEarly.push(what)
        return answer
      })
    const payments = atB('payments', listPayments(b))
    const clock = atB('clock', readClock(b))
    await waitFor('B to hold a request at its gate', () => b.process.stderr().includes(HOLDING))
    expect(answeredEarly).toEqual([])

    released = true
    await release()
    const restored = await restoring
    expect(restored.status, restored.text).toBe(200)
    // Answered once the restore was over, from the restored rows and B's core rebuilt on them.
    expect(paymentIdsIn(await payments)).toEqual([kept])
    expect(clockIn(await clock)).toMatchObject({ now: frozenAt, frozenAt })
    expect(answeredEarly).toEqual([])
    // Both serve again, holding the lock shared.
    await waitFor('both replicas to hold the serving lock shared again', async () => {
      const locks = await servingLocks()
      return locks.length === 2 && locks.every((lock) => lock.mode === 'ShareLock' && lock.granted)
    })
    expect(paymentIdsIn(await listPayments(a))).toEqual([kept])
  })

  it("refuses a second restore sent at the same moment, without letting go of the first one's barrier", async () => {
    // The state of the 'barrier' snapshot, which the first test restored.
    const before = paymentIdsIn(await listPayments(b))
    const holdsBefore = b.process.stderr().split(HOLDING).length
    const release = await holdPaymentsOpen()
    let released = false
    try {
      // Both reach A before either has paused the other replicas.
      const twins = [admin(a, 'POST', '/sandbox/snapshots/barrier/restore'), admin(a, 'POST', '/sandbox/snapshots/barrier/restore')]
      await waitFor('the restore to wait for the payments table', restoreWaitsForPayments)
      const refused = await Promise.race(twins)
      expect(refused.status, refused.text).toBe(409)
      expect(refused.text).toMatch(/Another restore or reset is in progress/)
      // The one going on still holds the barrier: no replica serves, and B holds its requests.
      expect((await servingLocks()).filter((lock) => lock.granted).map((lock) => lock.mode)).toEqual(['ExclusiveLock'])
      const held = listPayments(b).then((answer) => {
        if (!released) throw new Error(`B answered during the restore: ${answer.status}`)
        return answer
      })
      await waitFor('B to hold a request at its gate', () => b.process.stderr().split(HOLDING).length > holdsBefore)
      expect((await servingLocks()).filter((lock) => lock.granted).map((lock) => lock.mode)).toEqual(['ExclusiveLock'])
      released = true
      await release()
      const statuses = (await Promise.all(twins)).map((answer) => answer.status).sort()
      expect(statuses).toEqual([200, 409])
      expect((await held).status).toBe(200)
    } finally {
      if (!released) await release()
    }
    await waitFor('both replicas to hold the serving lock shared again', async () => {
      const locks = await servingLocks()
      return locks.length === 2 && locks.every((lock) => lock.mode === 'ShareLock' && lock.granted)
    })
    for (const replica of [a, b]) expect(paymentIdsIn(await listPayments(replica))).toEqual(before)
  })

  it('fails a restore cleanly when a replica does not pause, and every replica serves the state as it was', async () => {
    const before = paymentIdsIn(await listPayments(b))
    const extra = await create(b, 'Kept through a refused restore')
    expect((await admin(b, 'POST', '/sandbox/clock/advance', { seconds: 60 })).status).toBe(200)
    await waitFor('B to answer its advance', async () => clockIn(await readClock(b)).now === '2031-05-06T07:09:09.000Z')
    const state = { payments: [...before, extra].sort(), now: '2031-05-06T07:09:09.000Z' }

    // The outside client holds the lock shared as a replica that never pauses would.
    await outside.query('select pg_advisory_lock_shared($1)', [LOCK_KEYS.serving])
    try {
      const refused = await admin(a, 'POST', '/sandbox/snapshots/barrier/restore')
      expect(refused.status, refused.text).toBe(409)
      expect(refused.text).toMatch(/did not pause within 2 s/)
    } finally {
      await outside.query('select pg_advisory_unlock_shared($1)', [LOCK_KEYS.serving])
    }
    for (const replica of [a, b]) {
      expect(paymentIdsIn(await listPayments(replica))).toEqual(state.payments)
      await waitFor('the old business time', async () => clockIn(await readClock(replica)).now === state.now)
    }
    // Nothing is left held: the next restore goes through.
    const restored = await admin(a, 'POST', '/sandbox/snapshots/barrier/restore')
    expect(restored.status, restored.text).toBe(200)
    expect(paymentIdsIn(await listPayments(b))).toEqual(before)
  })

  it('is not held up by a replica that died: its hold ended with its session', async () => {
    const holders = new Set((await servingLocks()).map((lock) => lock.pid))
    const d = await spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--seed', seed])
    const joined = await waitFor('the new replica to hold the serving lock shared', async () =>
      (await servingLocks()).find((lock) => !holders.has(lock.pid) && lock.mode === 'ShareLock' && lock.granted),
    )
    await d.stop('SIGKILL')
    await waitFor(
      'its session to end',
      async () => (await outside.query('select 1 from pg_stat_activity where pid = $1', [joined.pid])).rows.length === 0,
    )
    const restored = await admin(a, 'POST', '/sandbox/snapshots/barrier/restore')
    expect(restored.status, restored.text).toBe(200)
  })

  it('starts a new replica only once a restore under way is over, on the restored state', async () => {
    const before = paymentIdsIn(await listPayments(a))
    await create(a, 'Gone with the restore')
    const holders = new Set((await servingLocks()).map((lock) => lock.pid))

    const release = await holdPaymentsOpen()
    let c: SandboxProcess | undefined
    try {
      const { restoring } = await restoreHeldOpen('barrier')
      let started = false
      const starting = spawnSandbox(['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--seed', seed]).then((spawned) => {
        started = true
        return spawned
      })
      await waitFor('the new replica to wait for the serving lock', async () =>
        (await servingLocks()).some((lock) => !holders.has(lock.pid) && lock.mode === 'ShareLock' && !lock.granted),
      )
      expect(started).toBe(false)
      await release()
      expect((await restoring).status).toBe(200)
      c = await starting
      expect(paymentIdsIn(await listPayments(c))).toEqual(before)
    } finally {
      await outside.query('rollback').catch(() => {})
      await c?.stop()
    }
  })
})
