// Claims on the shared outbox (delivery-claim-repository.ts), with two claimers standing for two
// replicas and the lease read from an injected instant: a sender whose lease expired cannot
// overwrite the newer attempt, a subject has one delivery in flight, and the caps count every
// claimer's deliveries on the wire (webhook_live_claims: a row per claim, from its claim to its
// outcome or the end of its lease).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, runTransaction, type SandboxDb } from '../../sandbox/db/database.js'
import type { Database, WebhookDeliveryRow } from '../../sandbox/db/schema.js'
import { sql, type Kysely } from 'kysely'
import {
  claimDeliveries,
  claimInTransaction,
  logClaimedOutcomes,
  newClaim,
  refreshStaleOutboxStatistics,
  releaseClaims,
  vacuumLiveClaims,
  type ClaimRequest,
} from '../../sandbox/webhooks/delivery-claim-repository.js'
import { recordResend } from '../../sandbox/webhooks/webhook-resend.js'
import { newDeliveryIdentity, pendingDelivery } from '../../sandbox/webhooks/webhook-events.js'
import { findDeliveryById, insertDelivery } from '../../sandbox/webhooks/webhook-repository.js'
import { createSandboxDatabase } from '../../harness/sandbox-database.js'
import { maintenanceCount, type TestDatabase } from '../../harness/postgres.js'
import { waitFor } from '../../harness/wait.js'

const LEASE_MS = 15_000
const URL_A = 'http://127.0.0.1:9/a'

describe('webhook delivery claims on PostgreSQL', () => {
  let database: TestDatabase
  let db: SandboxDb
  let merchantId: string
  let otherMerchantId: string
  let subjects = 0

  beforeAll(async () => {
    const made = await createSandboxDatabase('paybox_claims')
    database = made.database
    merchantId = made.merchantIds[0]!
    otherMerchantId = made.merchantIds[1]!
    db = await openDatabase({ file: database.url })
  })
  afterAll(async () => {
    await db?.destroy()
    await database?.drop()
  })

  /** Queues `count` pending deliveries of one subject (a new one unless given), oldest first. */
  const queue = (count: number, subjectId = `pt_claims_${++subjects}`, url = URL_A, merchant = merchantId): Promise<WebhookDeliveryRow[]> =>
    runTransaction(db, (trx) => queueIn(trx, count, subjectId, url, merchant))
  /** queue's work in the caller's transaction. */
  const queueIn = async (
    trx: Kysely<Database>,
    count: number,
    subjectId = `pt_claims_${++subjects}`,
    url = URL_A,
    merchant = merchantId,
  ): Promise<WebhookDeliveryRow[]> => {
    const rows: WebhookDeliveryRow[] = []
    for (let i = 0; i < count; i++) {
      const row = pendingDelivery({
        ...(await newDeliveryIdentity(trx, { type: 'payment', id: subjectId })),
        merchant_id: merchant,
        subject_type: 'payment',
        subject_id: subjectId,
        event_type: 'transaction_updated',
        url,
        request_payload: '{}',
        created_at: 0,
      })
      await insertDelivery(trx, row)
      rows.push(row)
    }
    return rows
  }
  const request = (by: string, now: number, limit = 64, caps: Partial<ClaimRequest['caps']> = {}): ClaimRequest => ({
    by,
    now,
    leaseMs: LEASE_MS,
    limit,
    caps: { perMerchant: 100, perOrigin: 100, originOf: (url) => new URL(url).origin, ...caps },
  })
  const claimer =
    (by: string, caps: Partial<ClaimRequest['caps']> = {}) =>
    async (now: number, limit = 64) =>
      (await claimDeliveries(db, request(by, now, limit, caps))).claimed
  const outcome = (row: WebhookDeliveryRow, status: 'success' | 'failed', http_status: number) => ({
    ...row,
    status,
    http_status,
    response_body: `answer to ${row.claimed_by}`,
    duration_ms: 5,
    last_attempt_at: 1,
    updated_at: 1,
  })
  /** The deliveries whose claims are counted live, in webhook_live_claims. */
  const liveClaims = async () =>
    (await sql<{ delivery_id: string }>`select delivery_id from webhook_live_claims order by delivery_id`.execute(db)).rows.map(
      (row) => row.delivery_id,
    )
  /** The claim a live row holds on a delivery. */
  const liveClaimOf = async (id: string) =>
    (
      await sql<Pick<WebhookDeliveryRow, 'claim_token' | 'claimed_by'>>`select claim_token, claimed_by from webhook_live_claims
        where delivery_id = ${id}`.execute(db)
    ).rows[0]!
  /** Logs every pending delivery, so one test's leftovers are not claimed by the next. */
  const drain = async () => {
    for (let claimed = await claimer('drain')(2 ** 45, 1000); claimed.length > 0; claimed = await claimer('drain')(2 ** 45, 1000))
      await logClaimedOutcomes(
        db,
        claimed.map((row) => outcome(row, 'success', 200)),
      )
  }

  it("does not let a sender whose lease expired overwrite the newer attempt's outcome", async () => {
    const [delivery] = await queue(1)
    const a = claimer('replica-a')
    const b = claimer('replica-b')
    const [claimedByA] = await a(1_000)
    expect(claimedByA?.id).toBe(delivery!.id)
    // Within A's lease no one else may claim it; once it has run out, B does, under a token of its own.
    expect(await b(1_000 + LEASE_MS - 1)).toEqual([])
    const [claimedByB] = await b(1_000 + LEASE_MS)
    expect(claimedByB?.id).toBe(delivery!.id)
    expect(claimedByB!.claim_token).not.toBe(claimedByA!.claim_token)

    // B logs first; A, late, is refused, whichever order they finish in.
    expect([...(await logClaimedOutcomes(db, [outcome(claimedByB!, 'success', 200)]))]).toEqual([delivery!.id])
    expect([...(await logClaimedOutcomes(db, [outcome(claimedByA!, 'failed', 500)]))]).toEqual([])
    const logged = await findDeliveryById(db, delivery!.id)
    expect(logged).toMatchObject({ status: 'success', http_status: 200, response_body: 'answer to replica-b', claimed_by: 'replica-b' })
  })

  it('lets one of two claimers racing to take over an expired claim have it, and the other nothing', async () => {
    const [delivery] = await queue(1)
    await claimer('replica-a')(0)
    const takeover = LEASE_MS
    // B takes the expired claim over and holds its transaction open; C, meanwhile, has read the
    // claim as expired and waits on the shares B holds. Once B commits, C finds B's claim live.
    let commitB!: () => void
    const bMayCommit = new Promise<void>((resolve) => (commitB = resolve))
    let claimedByB: WebhookDeliveryRow[] | undefined
    const b = db.transaction().execute(async (trx) => {
      claimedByB = (await claimInTransaction(trx, request('replica-b', takeover), { wait: true })).claimed
      await bMayCommit
    })
    await waitFor("B's takeover", () => claimedByB)
    const c = claimer('replica-c')(takeover)
    await waitFor('C waiting on the shares B holds', async () => {
      const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`.execute(db)
      return rows[0]!.waiting > 0
    })
    commitB()
    await b
    expect(claimedByB!.map((row) => row.id)).toEqual([delivery!.id])
    expect(await c).toEqual([])
    const { rows } = await sql<{ claimed_by: string; claim_token: string }>`select claimed_by, claim_token from webhook_live_claims
      where delivery_id = ${delivery!.id}`.execute(db)
    expect(rows).toEqual([{ claimed_by: 'replica-b', claim_token: claimedByB![0]!.claim_token }])
    await drain()
  })

  it('keeps one delivery of a subject in flight across claimers, in order', async () => {
    const [first, second, third] = await queue(3)
    const a = claimer('replica-a')
    const b = claimer('replica-b')
    const claimed = await a(0)
    expect(claimed.map((row) => row.id)).toEqual([first!.id])
    // B may not send the subject's next one while A's is on the wire.
    expect(await b(0)).toEqual([])
    await logClaimedOutcomes(db, [outcome(claimed[0]!, 'success', 200)])
    expect((await b(0)).map((row) => row.id)).toEqual([second!.id])
    expect(await a(0)).toEqual([])
    expect(third!.sequence).toBeGreaterThan(second!.sequence)
    await drain()
  })

  it("holds a merchant's cap and an origin's cap over every claimer's deliveries on the wire", async () => {
    const rows = (await Promise.all(Array.from({ length: 15 }, () => queue(1)))).flat()
    expect(rows).toHaveLength(15)
    const capped = { perMerchant: 10 }
    const a = claimer('replica-a', capped)
    const b = claimer('replica-b', capped)
    const claimedByA = await a(0)
    expect(claimedByA).toHaveLength(10)
    expect(await b(0)).toEqual([])
    // Three answered and logged: three slots, whoever claims them.
    await logClaimedOutcomes(
      db,
      claimedByA.slice(0, 3).map((row) => outcome(row, 'success', 200)),
    )
    expect(await b(0)).toHaveLength(3)
    expect(await a(0)).toEqual([])
    await drain()

    // The origin's cap the same way, across two URLs of one origin.
    await Promise.all(Array.from({ length: 6 }, (_, i) => queue(1, undefined, `http://127.0.0.1:9/origin-${i % 2}`)))
    const byOrigin = { perOrigin: 4 }
    expect(await claimer('replica-a', byOrigin)(0)).toHaveLength(4)
    expect(await claimer('replica-b', byOrigin)(0)).toEqual([])
    await drain()
  })

  it("reads past a backlog waiting on a full merchant's share for another merchant's delivery", async () => {
    for (let i = 0; i < 100; i++) await queue(1)
    const [other] = await queue(1, undefined, 'http://127.0.0.1:9/other', otherMerchantId)
    const capped = { perMerchant: 10 }
    expect(await claimer('replica-a', capped)(0, 10)).toHaveLength(10)
    // B's claim meets the first merchant's backlog at the head of the outbox, and passes it.
    expect((await claimer('replica-b', capped)(0)).map((row) => row.id)).toEqual([other!.id])
    await drain()
  })

  it("counts a claim on the wire until its outcome or the end of its lease, and a late sender's outcome frees no other's", async () => {
    await queue(1)
    await queue(1)
    const capped = { perMerchant: 2 }
    const byA = await claimer('replica-a', capped)(1_000)
    expect(byA).toHaveLength(2)
    // A froze: once its lease has run out its claims count no more, and B claims both again.
    const byB = await claimer('replica-b', capped)(1_000 + LEASE_MS)
    expect(byB.map((row) => row.id).sort()).toEqual(byA.map((row) => row.id).sort())
    await queue(1)
    expect(await claimer('replica-c', capped)(1_000 + LEASE_MS)).toEqual([])
    // A wakes and logs: refused, and B's claims still fill the share.
    expect(
      (
        await logClaimedOutcomes(
          db,
          byA.map((row) => outcome(row, 'failed', 500)),
        )
      ).size,
    ).toBe(0)
    expect(await claimer('replica-c', capped)(1_000 + LEASE_MS)).toEqual([])
    // B's outcome frees its slot.
    await logClaimedOutcomes(db, [outcome(byB[0]!, 'success', 200)])
    expect(await claimer('replica-c', capped)(1_000 + LEASE_MS)).toHaveLength(1)
    await drain()
    expect(await liveClaims()).toEqual([])
  })

  it('counts a resend written claimed against its share, until its outcome; a released claim at once', async () => {
    const [original] = await queue(1)
    await drain()
    const resend = await recordResend(db, (await findDeliveryById(db, original!.id))!, 0, () => {}, newClaim('replica-a', 0, LEASE_MS))
    expect(await liveClaims()).toEqual([resend.id])
    const [waiting] = await queue(1)
    const capped = { perMerchant: 1 }
    expect(await claimer('replica-b', capped)(0)).toEqual([])
    await logClaimedOutcomes(db, [outcome(resend, 'success', 200)])
    const [claimed] = await claimer('replica-b', capped)(0)
    expect(claimed?.id).toBe(waiting!.id)
    // Released (its replica stopping): counted no more, and claimable again at once.
    await releaseClaims(db, [claimed!])
    expect(await liveClaims()).toEqual([])
    expect((await claimer('replica-c', capped)(0)).map((row) => row.id)).toEqual([waiting!.id])
    await drain()
  })

  it("reads a merchant's head from where its last read found it, and a delivery committed late from its oldest", async () => {
    // Kept from each claim's heads, as the dispatcher keeps them.
    const starts = new Map<string, number>()
    const claim = async (fromStarts: boolean) => {
      const taken = await claimDeliveries(db, { ...request('replica-a', 0), heads: { starts, fromStarts } })
      for (const [merchant, start] of taken.heads) starts.set(merchant, start)
      return taken.claimed
    }
    // A sequence left free before the merchant's next delivery, for one committed late to hold.
    const [gap] = await queue(1)
    await sql`delete from webhook_deliveries where id = ${gap!.id}`.execute(db)
    const [first] = await queue(1)
    expect((await claim(false)).map((row) => row.id)).toEqual([first!.id])
    expect(starts.get(merchantId)).toBe(first!.sequence)
    await logClaimedOutcomes(db, [outcome({ ...first!, ...(await liveClaimOf(first!.id)) }, 'success', 200)])
    // A delivery older than the merchant's start: its transaction took its sequence before the read and committed after.
    const [late] = await queue(1)
    await sql`update webhook_deliveries set sequence = ${gap!.sequence} where id = ${late!.id}`.execute(db)
    expect(await claim(true)).toEqual([])
    expect((await claim(false)).map((row) => row.id)).toEqual([late!.id])
    expect(starts.get(merchantId)).toBe(gap!.sequence)
    await drain()
  })

  it("keeps a subject's order when a read from the merchant's start missed its older delivery", async () => {
    const starts = new Map<string, number>()
    const claim = async (fromStarts: boolean) =>
      (await claimDeliveries(db, { ...request('replica-a', 0), heads: { starts, fromStarts } })).claimed
    const [older, newer] = await queue(2)
    // The subject's older delivery below the start (committed late), its newer one past it.
    starts.set(merchantId, newer!.sequence)
    expect(await claim(true)).toEqual([])
    expect((await claim(false)).map((row) => row.id)).toEqual([older!.id])
    await drain()
  })

  /**
   * A test whose `check` runs on a drained outbox just analyzed (its statistics count none
   * pending: stale past 1,000), with autovacuum off on it, since autovacuum's own ANALYZE,
   * whenever its round came, would count the pending rows too; `analyzes` counts the outbox's
   * ANALYZEs, `analyzed` before `check`. Autovacuum is back on after, whether `check` passed or not.
   */
  const itOnAnalyzedOutbox = (title: string, check: (analyzes: () => Promise<number>, analyzed: number) => Promise<void>) =>
    it(
      title,
      async () => {
        await drain()
        await sql`alter table webhook_deliveries set (autovacuum_enabled = false)`.execute(db)
        try {
          await sql`analyze webhook_deliveries`.execute(db)
          const analyzes = () => maintenanceCount(database.url, 'analyze', 'webhook_deliveries')
          await check(analyzes, await analyzes())
          await drain()
        } finally {
          await sql`alter table webhook_deliveries reset (autovacuum_enabled)`.execute(db)
        }
      },
      60_000,
    )

  itOnAnalyzedOutbox('analyzes the outbox for a backlog, not for a trickle of deliveries, however long', async (analyzes, analyzed) => {
    // A trickle: 1,500 deliveries queued and logged past that ANALYZE, a few pending at a time.
    for (let i = 0; i < 30; i++) {
      await queue(50)
      await drain()
    }
    await queue(5)
    expect((await refreshStaleOutboxStatistics(db))?.pending).toBe(5)
    expect(await analyzes()).toBe(analyzed)
    // A backlog: more pending than the last ANALYZE counted, by far.
    await queue(1_200)
    expect((await refreshStaleOutboxStatistics(db))?.pending).toBe(1_205)
    expect(await analyzes()).toBe(analyzed + 1)
  })

  itOnAnalyzedOutbox(
    'counts the pending deliveries again only once those queued since the last count could make them stale',
    async (analyzes, analyzed) => {
      await queue(1)
      const counted = await refreshStaleOutboxStatistics(db)
      expect(counted?.pending).toBe(1)
      // 1 + 900 queued since cannot pass 1,000: not counted (the same count comes back).
      await queue(900)
      expect(await refreshStaleOutboxStatistics(db, counted)).toBe(counted)
      await queue(200)
      expect((await refreshStaleOutboxStatistics(db, counted))?.pending).toBe(1_101)
      expect(await analyzes()).toBe(analyzed + 1)
    },
  )

  itOnAnalyzedOutbox('counts a backlog whose transaction was still open at the last count', async (analyzes, analyzed) => {
    const before = await refreshStaleOutboxStatistics(db)
    let commit!: () => void
    const committing = new Promise<void>((resolve) => (commit = resolve))
    let queued!: () => void
    const open = new Promise<void>((resolve) => (queued = resolve))
    // Its sequences taken, its rows not yet seen: counted during it, the backlog is not there.
    const backlog = db.transaction().execute(async (trx) => {
      await queueIn(trx, 1_200)
      queued()
      await committing
    })
    await open
    const during = await refreshStaleOutboxStatistics(db, before)
    expect(during?.pending).toBe(0)
    expect(await analyzes()).toBe(analyzed)
    commit()
    await backlog
    expect((await refreshStaleOutboxStatistics(db, during))?.pending).toBe(1_200)
    expect(await analyzes()).toBe(analyzed + 1)
  })

  it("vacuums the live claims, and keeps every pending delivery's claim", async () => {
    await queue(1)
    await queue(1)
    const [expired] = await claimer('replica-a')(0, 1)
    const [live] = await claimer('replica-b')(10_000, 1)
    const before = await maintenanceCount(database.url, 'vacuum', 'webhook_live_claims')
    await vacuumLiveClaims(db)
    // The expired claim stays: it is how another replica finds and claims its delivery again.
    expect(await liveClaims()).toEqual([expired!.id, live!.id].sort())
    expect(await maintenanceCount(database.url, 'vacuum', 'webhook_live_claims')).toBe(before + 1)
    await drain()
  })
})
