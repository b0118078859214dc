// A frozen replica stalls no other (issue 25): a replica stopped (SIGSTOP) for 5 s in the middle
// of a write transaction, as a long GC pause or a suspended VM would stop it, holds only the rows
// its own work locked. Writes of the same kinds sent meanwhile to the other replica, on other rows
// (another merchant's payments, invoices and idempotency keys), each answer within 2 s, whether the
// frozen one leads or not. Under PAYBOX_POSTGRES_SERIAL_WRITES=1 the frozen transaction holds the
// sandbox-wide write lock and every other replica waits out the freeze: this test fails there.
import { setTimeout as delay } from 'node:timers/promises'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCK_KEYS } from '../../sandbox/db/postgres-lock-keys.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import type { RawResponse } from '../../harness/sandbox.js'
import { adminRequest, inspectDatabaseFile, signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'

/** How long the replica stays frozen: the scenario's length, on the wall clock. */
const FREEZE_MS = 5_000
/** The longest any write to the running replica may take while the other is frozen. */
const MAX_WRITE_MS = 2_000
/** Writes the running replica must complete during the freeze. */
const MIN_WRITES_DURING_FREEZE = 20
/** Stops tried until one lands while the replica holds the ledger's lock. */
const FREEZE_TRIES = 200
/** Requests kept in flight on the replica that will be frozen. */
const FROZEN_LOAD = 6
/** Writers on the running replica, each timing its requests one at a time. */
const RUNNING_LOAD = 2
/** How often the ledger lock's holders are sampled during the freeze. */
const SAMPLE_EVERY_MS = 20

interface Replica {
  name: string
  sandbox: SandboxProcess
}

/** A steady mix of writes by one merchant through one replica: creates (half with an Idempotency-Key), pays, refunds, invoices. */
class WriteLoad {
  readonly answers: Array<{ step: number; what: string; status: number; text: string; startedAt: number; ms: number }> = []
  /** The steps sent and not answered yet. */
  readonly inFlight = new Set<number>()
  #unpaid: string[] = []
  #paid: string[] = []
  #running = true
  #workers: Promise<void>[] = []
  #step = 0

  constructor(
    private readonly baseUrl: string,
    private readonly merchant: Merchant,
    private readonly label: string,
  ) {}

  start(workers: number): void {
    this.#workers = Array.from({ length: workers }, () => this.#work())
  }

  async stop(): Promise<void> {
    this.#running = false
    await Promise.all(this.#workers)
  }

  get done(): number {
    return this.answers.length
  }

  async #work(): Promise<void> {
    while (this.#running) {
      const step = this.#step++
      const [what, send] = this.#next(step)
      this.inFlight.add(step)
      const startedAt = Date.now()
      // A request that gets no answer at all is recorded as status 0 (it must not happen either).
      const answer = await send()
        .catch((error: unknown): RawResponse => ({ status: 0, text: String(error) }) as RawResponse)
        .finally(() => this.inFlight.delete(step))
      this.answers.push({ step, what, status: answer.status, text: answer.text.slice(0, 300), startedAt, ms: Date.now() - startedAt })
      if (answer.status !== 200) continue
      const { id, status } = answer.json as { id: string; status?: string }
      if (what === 'create') this.#unpaid.push(id)
      if (what === 'pay' && status === 'paid') this.#paid.push(id)
    }
  }

  #next(step: number): [string, () => Promise<RawResponse>] {
    const post = (path: string, body: unknown, headers?: Record<string, string>) =>
      signed(this.baseUrl, this.merchant, 'POST', path, body, headers)
    const unpaid = step % 4 === 1 ? this.#unpaid.shift() : undefined
    if (unpaid !== undefined) return ['pay', () => post(`/sandbox/payments/${unpaid}/pay`, {})]
    const paid = step % 4 === 2 ? this.#paid.shift() : undefined
    if (paid !== undefined) return ['refund', () => post(`/payments/${paid}/refunds`, { amount: 100 })]
    if (step % 4 === 3)
      return [
        'invoice',
        () =>
          post('/invoices', {
            currency: 'USD',
            line_items: [{ description: `Frozen ${this.label} ${step}`, quantity: 1, unit_price: 1500 }],
            customer: { email: 'ada@example.com', name: 'Ada Lovelace', customer_type: 'individual' },
          }),
      ]
    const headers: Record<string, string> = step % 2 === 0 ? { 'Idempotency-Key': `${this.label}-${step}` } : {}
    return [
      'create',
      () => post('/payments', { amount: { value: 1000 + step, currency: 'USD' }, description: `Frozen ${this.label} ${step}` }, headers),
    ]
  }
}

describe('a replica frozen mid-transaction', () => {
  let database: TestDatabase
  let replicas: Replica[]
  let direct: Merchant[]
  let sql: pg.Client

  beforeAll(async () => {
    database = await createTestDatabase('paybox_frozen_replica')
    // Each replica's sessions carry its name (the URL's application_name wins over the pool's), so
    // that pg_stat_activity shows whose transaction is open.
    const start = async (name: string) => {
      const url = new URL(database.url)
      url.searchParams.set('application_name', name)
      return { name, sandbox: await spawnSandbox(['--port', '0', '--db', url.href, '--ledger-close', 'instant', '--quiet']) }
    }
    replicas = [await start('paybox_frozen_a'), await start('paybox_frozen_b')]
    // Two merchants, one for each replica's load: the sandbox's direct one and a tenant.
    const tenant = await adminRequest(replicas[0]!.sandbox, 'POST', '/sandbox/tenants', { name: 'Frozen elsewhere' })
    expect(tenant.status, tenant.text).toBe(201)
    direct = [
      replicas[0]!.sandbox.banner.merchants.find((m) => m.settlement_mode === 'direct')!,
      (tenant.json as { merchant: Merchant }).merchant,
    ]
    sql = new pg.Client({ connectionString: database.url })
    await sql.connect()
  }, 60_000)
  afterAll(async () => {
    for (const { sandbox } of replicas ?? []) {
      if (sandbox.process.child.exitCode === null) sandbox.process.child.kill('SIGCONT')
      await sandbox.stop()
    }
    await sql?.end()
    await database?.drop()
  })

  /** The replica whose session holds the leader's lock. */
  const leader = async (): Promise<Replica> => {
    const name = await waitFor('a replica to lead', async () => {
      const { rows } = await sql.query<{ name: string }>(
        `select a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where l.locktype = 'advisory' and l.classid = 0 and l.objid = $1 and l.objsubid = 1 and l.granted`,
        [LOCK_KEYS.leader],
      )
      return rows[0]?.name
    })
    return replicas.find((replica) => replica.name === name)!
  }

  /**
   * Sessions of `replica` waiting for it in a transaction that holds the ledger's lock (the open
   * ledger's row, locked: its xmax is the id of the holder's transaction or of a savepoint in it),
   * which every replica's pays and refunds queue on: where a freeze stalls the others most.
   */
  const openLedgerWrites = async (replica: Replica) =>
    (
      await sql.query<{ query: string }>(
        `select a.query from pg_stat_activity a where a.datname = current_database() and a.application_name = $1
          and a.state = 'idle in transaction' and exists (select 1 from pg_locks l where l.pid = a.pid and l.locktype = 'transactionid'
            and l.mode = 'ExclusiveLock' and l.transactionid = (select xmax from ledger_ledgers where closed_at is null))`,
        [replica.name],
      )
    ).rows

  /**
   * Stops `replica` while one of its transactions holds the ledger's lock: a stop that lands
   * elsewhere is taken back and tried again. Resolves once it is stopped so.
   */
  const freezeMidTransaction = async (replica: Replica, load: WriteLoad): Promise<string[]> => {
    const { child } = replica.sandbox.process
    for (let attempt = 1; attempt <= FREEZE_TRIES; attempt++) {
      await waitFor('requests in flight on the replica to freeze', () => load.inFlight.size > 0)
      child.kill('SIGSTOP')
      // A statement it had sent finishes on the server; its transaction then waits for the client.
      const open = await waitFor(
        'a ledger transaction of the frozen replica left open',
        async () => (await openLedgerWrites(replica)).map((s) => s.query),
        300,
      ).catch(() => [])
      if (open.length > 0) return open
      child.kill('SIGCONT')
      const done = load.done
      await waitFor('the replica to go on after a stop between transactions', () => load.done > done)
    }
    throw new Error(`no stop landed inside a ledger transaction in ${FREEZE_TRIES} tries`)
  }

  /**
   * Watches, until stopped, which transactions hold the ledger's lock (the open ledger row's xmax,
   * held): the ids of those of `replica`'s sessions. Its transactions that were queued on the lock
   * when it froze must leave the queue (LOCK_QUEUE_LIMIT_MS) rather than take the lock in turn,
   * each holding it for the idle limit while the other replica's pays and refunds wait.
   */
  const watchLedgerHolders = (replica: Replica) => {
    const holders = new Set<string>()
    let watching = true
    const watched = (async () => {
      while (watching) {
        const { rows } = await sql.query<{ xid: string }>(
          `select l.transactionid::text as xid from pg_locks l join pg_stat_activity a on a.pid = l.pid
            where a.application_name = $1 and l.locktype = 'transactionid' and l.mode = 'ExclusiveLock' and l.granted
              and l.transactionid = (select xmax from ledger_ledgers where closed_at is null)`,
          [replica.name],
        )
        for (const { xid } of rows) holders.add(xid)
        // A sampling pace, not a wait: a holder keeps the lock for hundreds of milliseconds.
        await delay(SAMPLE_EVERY_MS)
      }
    })()
    return async () => {
      watching = false
      await watched
      return holders
    }
  }

  const expectBooksSound = async () => {
    const { supply } = await inspectDatabaseFile(database.url)
    expect(supply.usdc.circulating).toBe(supply.usdc.issued)
    expect(supply.xlm.inAccounts + supply.xlm.feePool).toBe(supply.xlm.totalCoins)
    for (const { sandbox } of replicas) expect((await fetch(`${sandbox.banner.baseUrl}/health`)).status).toBe(200)
  }

  const freezeAndWriteElsewhere = async (frozen: Replica, running: Replica) => {
    const [frozenMerchant, runningMerchant] = frozen === replicas[0] ? [direct[0]!, direct[1]!] : [direct[1]!, direct[0]!]
    const frozenLoad = new WriteLoad(frozen.sandbox.banner.baseUrl, frozenMerchant, `${frozen.name}-${Date.now()}`)
    const runningLoad = new WriteLoad(running.sandbox.banner.baseUrl, runningMerchant, `${running.name}-${Date.now()}`)
    frozenLoad.start(FROZEN_LOAD)
    runningLoad.start(RUNNING_LOAD)
    let frozenFor: number, stuck: number[], duringFreeze: WriteLoad['answers'], open: string[], frozenHolders: Set<string>
    try {
      // Both warmed up: each has paid and refunded already, so the freeze finds every kind of write going.
      await waitFor(
        'both loads to pay and refund',
        () => [frozenLoad, runningLoad].every((l) => l.answers.some((a) => a.what === 'refund')),
        30_000,
      )

      open = await freezeMidTransaction(frozen, frozenLoad)
      const stoppedAt = Date.now()
      const stopWatching = watchLedgerHolders(frozen)
      const doneBefore = runningLoad.done
      await waitFor(
        `${MIN_WRITES_DURING_FREEZE} writes through the running replica and ${FREEZE_MS} ms`,
        () => Date.now() - stoppedAt >= FREEZE_MS && runningLoad.done - doneBefore >= MIN_WRITES_DURING_FREEZE,
        FREEZE_MS + 30_000,
      )
      frozenFor = Date.now() - stoppedAt
      frozenHolders = await stopWatching()
      stuck = [...frozenLoad.inFlight]
      frozen.sandbox.process.child.kill('SIGCONT')
      // Writes sent while it was frozen (one sent before may have queued behind its transactions already).
      duringFreeze = runningLoad.answers.filter((a) => a.startedAt >= stoppedAt && a.startedAt <= stoppedAt + frozenFor)
      // The frozen replica answers what it held once it runs again.
      await waitFor(
        'the frozen replica to answer the requests it held',
        () => stuck.every((step) => !frozenLoad.inFlight.has(step)),
        15_000,
      )
    } finally {
      // Whatever failed, the replica runs again and both loads end.
      frozen.sandbox.process.child.kill('SIGCONT')
      await Promise.all([frozenLoad.stop(), runningLoad.stop()])
    }

    const slowest = duringFreeze.toSorted((x, y) => y.ms - x.ms).slice(0, 3)
    const context = `frozen ${frozenFor} ms with ${stuck.length} requests in flight, ledger lock held by its transactions ${[...frozenHolders].join(', ')}, open: ${open.join(' | ').slice(0, 400)}; slowest: ${JSON.stringify(slowest)}`
    // The transaction it froze in, and at most one more that was granted the lock in the moment
    // before its queued ones gave up: never its queue taking the lock one after another.
    expect(frozenHolders.size, context).toBeLessThanOrEqual(2)
    expect(duringFreeze.length, context).toBeGreaterThanOrEqual(MIN_WRITES_DURING_FREEZE)
    expect(slowest[0]!.ms, context).toBeLessThanOrEqual(MAX_WRITE_MS)
    expect(new Set(duringFreeze.map((a) => a.what)), context).toEqual(new Set(['create', 'pay', 'refund', 'invoice']))
    // No 500 anywhere. Every write succeeded, but those the frozen replica held: PostgreSQL ended
    // their sessions (WRITE_IDLE_LIMIT_MS), so each is a 503 to retry, nothing of it committed.
    const failed = [
      ...frozenLoad.answers
        .filter((a) => a.status !== 200 && !(a.status === 503 && stuck.includes(a.step)))
        .map((a) => ({ frozen: true, ...a })),
      ...runningLoad.answers.filter((a) => a.status !== 200),
    ]
    expect(failed.slice(0, 3)).toEqual([])
    await expectBooksSound()
  }

  it('lets the other replica write on while the leader is frozen', async () => {
    const frozen = await leader()
    await freezeAndWriteElsewhere(
      frozen,
      replicas.find((replica) => replica !== frozen)!,
    )
  }, 120_000)

  it('lets the leader write on while another replica is frozen', async () => {
    const running = await leader()
    await freezeAndWriteElsewhere(
      replicas.find((replica) => replica !== running)!,
      running,
    )
  }, 120_000)
})
