// PostgreSQL: every replica sends webhooks, each delivery under a claim (docs/postgres.md). A
// replica claims pending deliveries for a lease with a token of its own, and logs an outcome only
// while that token is still the delivery's: a sender whose lease expired (another replica has
// claimed it since) cannot overwrite the newer attempt. SQLite's one process needs none of this.
import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { LOCK_KEYS } from '../db/postgres-lock-keys.js'
import { jsonTextValues } from '../db/sql-dialect.js'
import type { Database, WebhookDeliveryRow } from '../db/schema.js'

/** The sandbox-wide caps a claim keeps, counting every replica's deliveries on the wire. */
export interface ClaimCaps {
  perMerchant: number
  perOrigin: number
  /** A receiver's origin from its URL (deliveries to one origin share one cap). */
  originOf(url: string): string
}

export interface ClaimRequest {
  /** The claiming replica's name (claimed_by). */
  by: string
  /** Wall-clock ms: leases ending at or before it have expired. */
  now: number
  leaseMs: number
  /** At most this many (the replica's free slots). */
  limit: number
  caps: ClaimCaps
}

/**
 * Claims the deliveries that may go now, oldest first: pending, not claimed (or their lease
 * expired), the oldest pending delivery of their subject, and within their merchant's and their
 * origin's caps counted over every replica's live claims. Returns them with their new claim.
 * First, when it looks for expired leases, analyzes the outbox if a burst has left its statistics
 * behind. Its own transaction, not runTransaction's: a claim changes nothing the other replicas
 * wait for, and a commit that woke them would have them claim again, and wake this one.
 */
export async function claimDeliveries(
  db: Kysely<Database>,
  request: ClaimRequest,
  options: { expired: boolean } = { expired: true },
): Promise<WebhookDeliveryRow[]> {
  if (request.limit <= 0) return []
  // With the look for expired leases (at most once a poll): a check per claim would cost every commit that wakes a dispatcher.
  if (options.expired) await refreshStaleOutboxStatistics(db)
  const claim = (trx: Kysely<Database>) => claimInTransaction(trx, request, { expired: options.expired, wait: true })
  return db
    .transaction()
    .execute(claim)
    .then(({ claimed }) => claimed)
}

/**
 * A backlog queued faster than autovacuum's ANALYZE (its next round may be a minute away) leaves
 * the planner believing the pending deliveries' partial indexes as empty as they were then, and a
 * claim's read scans the whole backlog once per candidate (47,000 pages a claim for 20,000
 * pending, against 1,600 once analyzed). The dispatcher's claims that look for expired leases analyze the outbox
 * once it has changed by more rows than it held at the last ANALYZE (the cumulative statistics,
 * up to a second behind), or its pending index has more than doubled on disk since (at once);
 * a replica already analyzing it is left to it.
 */
async function refreshStaleOutboxStatistics(db: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ stale: boolean }>`select
      (select s.n_mod_since_analyze > ${STALE_AFTER_CHANGES} + greatest(t.reltuples, 0)
        from pg_stat_user_tables s join pg_class t on t.oid = s.relid where s.relid = 'webhook_deliveries'::regclass)
      or pg_relation_size(i.oid) / current_setting('block_size')::int > 2 * greatest(i.relpages, 1) + ${STALE_AFTER_PAGES} as stale
    from pg_class i where i.oid = 'webhook_deliveries_pending'::regclass`.execute(db)
  if (rows[0]?.stale) await sql`analyze (skip_locked) webhook_deliveries`.execute(db)
}

/** Changes (inserts, claims, logs) beyond the outbox's rows at its last ANALYZE that make its statistics stale. */
const STALE_AFTER_CHANGES = 1_000
/** Pages (of a few hundred entries) the pending index may grow past twice its known size: a small outbox's growth needs no ANALYZE. */
const STALE_AFTER_PAGES = 8

/** What a claim reads in one statement: the live claims by merchant and URL, and each merchant's oldest claimable. */
interface ClaimView {
  live: LiveClaims
  candidates: Candidate[]
}

type LiveClaims = Array<{ merchant_id: string; url: string; count: number }>

/** What choosing a claimable delivery needs of it (the claim's UPDATE returns the rows). */
type Candidate = Pick<WebhookDeliveryRow, 'id' | 'merchant_id' | 'url' | 'sequence'>
const CANDIDATE_COLUMNS = sql`d.id, d.merchant_id, d.url, d.sequence`

/**
 * claimDeliveries inside the caller's transaction (also the one that logs this replica's finished
 * deliveries, so a turn of its slots is one transaction). No lock is sandbox-wide: the claim reads
 * what may go and chooses it within the caps, then takes the lock of each share its choice adds to
 * (a merchant's, an origin's), trying and never waiting, counts those shares' live claims again
 * (a claim another replica committed since the read is seen now), and claims what still fits in
 * the shares it holds; it reclaims expired leases only if `expired` says so. Inside a log
 * transaction (its logged rows locked) the share locks are tried, never awaited, so no two such
 * transactions wait on each other; a claim of its own awaits them, in one order. Two replicas filling different merchants' shares do not wait on each
 * other; two after the same share cannot both fill it, and the one that finds it held leaves it
 * to the other. The locks end with the transaction, once its claims are committed.
 * The chosen rows are taken FOR UPDATE SKIP LOCKED, so a row another transaction holds (a resend
 * being written) is passed over, not waited for. Origins are the URL parser's (caps.originOf).
 */
export async function claimInTransaction(
  db: Kysely<Database>,
  request: ClaimRequest,
  options: ClaimOptions = { expired: false, wait: false },
): Promise<Claimed> {
  const none = (contended = false): Claimed => ({ claimed: [], contended })
  if (request.limit <= 0) return none()
  const { caps, now } = request
  const { live, candidates } = await readClaimView(db, request, options.expired)
  const considered = [...candidates]
  let chosen = chooseWithinCaps(live, considered, request)
  if (chosen.length < request.limit) {
    // A merchant with room whose oldest all go to an origin whose share is full (a slow receiver's
    // backlog): read past that origin's URLs for the merchant's deliveries to others.
    const counts = countShares(live, caps)
    const fullUrls = [...new Set([...live.map((row) => row.url), ...candidates.map((row) => row.url)])].filter(
      (url) => (counts.byOrigin.get(caps.originOf(url)) ?? 0) >= caps.perOrigin,
    )
    const held = new Set(candidates.filter((row) => fullUrls.includes(row.url)).map((row) => row.merchant_id))
    const stillRoom = [...held].filter((id) => (counts.byMerchant.get(id) ?? 0) < caps.perMerchant)
    if (stillRoom.length > 0) {
      const skip = new Set(candidates.map((row) => row.id))
      considered.push(...(await oldestToOtherUrls(db, now, { merchants: stillRoom, fullUrls, perMerchant: caps.perMerchant, skip })))
      considered.sort((x, y) => x.sequence - y.sequence)
      chosen = chooseWithinCaps(live, considered, request)
    }
  }
  if (chosen.length === 0) return none()
  const shares = [...new Set(chosen.flatMap((row) => [merchantShare(row.merchant_id), originShare(caps.originOf(row.url))]))]
  // Awaited, in one order (of their keys; a target list is computed after ORDER BY), by a claim
  // holding no row locks; tried by one inside a log transaction, which holds its logged rows.
  const { rows: locks } = await (
    options.wait
      ? sql<{
          share: string
          held: boolean
        }>`select share, pg_advisory_xact_lock(${LOCK_KEYS.deliveryClaims}, hashtext(share)) is not null as held
        from unnest(cast(${shares} as text[])) as share order by hashtext(share)`
      : sql<{ share: string; held: boolean }>`select share, pg_try_advisory_xact_lock(${LOCK_KEYS.deliveryClaims}, hashtext(share)) as held
        from unnest(cast(${shares} as text[])) as share`
  ).execute(db)
  const held = new Set(locks.filter((lock) => lock.held).map((lock) => lock.share))
  const contended = held.size < shares.length
  const inHeldShares = considered.filter((row) => held.has(merchantShare(row.merchant_id)) && held.has(originShare(caps.originOf(row.url))))
  if (inHeldShares.length === 0) return none(contended)
  // Counted again under the shares' locks: this statement's snapshot is taken after they were.
  const { rows: liveNow } = await LIVE_CLAIMS(now).execute(db)
  const ids = chooseWithinCaps(liveNow, inHeldShares, request).map((row) => row.id)
  if (ids.length === 0) return none(contended)
  // Claimed under FOR UPDATE SKIP LOCKED, rechecking that each may still be claimed.
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set({ claim_token: randomUUID(), claimed_until: now + request.leaseMs, claimed_by: request.by })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('id', 'in', ids)
        .where('status', '=', 'pending')
        .where((w) => w.or([w('claim_token', 'is', null), w('claimed_until', '<=', now)]))
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute()
  return { claimed: claimed.sort((x, y) => x.sequence - y.sequence), contended }
}

export interface ClaimOptions {
  /** Also reclaim deliveries whose lease ran out. */
  expired: boolean
  /** Await the shares' locks (a claim holding no row locks) rather than try them. */
  wait: boolean
}

/** What a claim took; `contended`: a share it chose was being filled by another replica, and was left to it. */
export interface Claimed {
  claimed: WebhookDeliveryRow[]
  contended: boolean
}

/** The caps' shares, named for their two-key advisory locks (LOCK_KEYS.deliveryClaims, hashtext(name)). */
export const merchantShare = (merchantId: string) => `merchant ${merchantId}`
const originShare = (origin: string) => `origin ${origin}`

function countShares(live: LiveClaims, caps: ClaimCaps): { byMerchant: Map<string, number>; byOrigin: Map<string, number> } {
  const byMerchant = new Map<string, number>()
  const byOrigin = new Map<string, number>()
  for (const { merchant_id, url, count } of live) {
    byMerchant.set(merchant_id, (byMerchant.get(merchant_id) ?? 0) + count)
    byOrigin.set(caps.originOf(url), (byOrigin.get(caps.originOf(url)) ?? 0) + count)
  }
  return { byMerchant, byOrigin }
}

/** The oldest of `candidates` (in sequence order) that fit in their merchant's and origin's shares beside `live`, at most request.limit. */
function chooseWithinCaps(live: LiveClaims, candidates: readonly Candidate[], request: ClaimRequest): Candidate[] {
  const { caps } = request
  const { byMerchant, byOrigin } = countShares(live, caps)
  const chosen: Candidate[] = []
  for (const delivery of candidates) {
    if (chosen.length >= request.limit) break
    const origin = caps.originOf(delivery.url)
    if ((byMerchant.get(delivery.merchant_id) ?? 0) >= caps.perMerchant || (byOrigin.get(origin) ?? 0) >= caps.perOrigin) continue
    byMerchant.set(delivery.merchant_id, (byMerchant.get(delivery.merchant_id) ?? 0) + 1)
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + 1)
    chosen.push(delivery)
  }
  return chosen
}

/**
 * One statement: the live claims, and the oldest claimable deliveries of each merchant with room
 * (webhook_deliveries_unclaimed, one probe per merchant), and any whose lease ran out. Reads lock nothing: a backlog's head that waits on a full share is read at every
 * claim, and locking it would write to each of its rows.
 */
async function readClaimView(db: Kysely<Database>, request: ClaimRequest, expired: boolean): Promise<ClaimView> {
  const { caps, now } = request
  const { rows } = await sql<ClaimView>`
    with live as (${LIVE_CLAIMS(now)}), with_room as (
      -- From the merchants, not from the outbox: its statistics lag a burst of deliveries (until
      -- autovacuum's next ANALYZE), and a plan that reads its pending rows to find their merchants
      -- reads them all. Each merchant is one probe of webhook_deliveries_unclaimed.
      select m.id from merchants m
      where coalesce((select sum(l.count) from live l where l.merchant_id = m.id), 0) < ${caps.perMerchant}
    ), candidates as (
      select d.* from with_room m cross join lateral (
        select ${CANDIDATE_COLUMNS} from webhook_deliveries d where d.merchant_id = m.id and d.status = 'pending' and d.claim_token is null
          and ${FIRST_OF_SUBJECT} order by d.merchant_id, d.sequence limit ${caps.perMerchant}) d
      ${expired ? EXPIRED_CLAIMS(now, request.limit + caps.perMerchant) : sql``}
    )
    select coalesce((select jsonb_agg(l) from live l), '[]') as live,
      coalesce((select jsonb_agg(c order by c.sequence) from candidates c), '[]') as candidates`.execute(db)
  return rows[0]!
}

/** The deliveries on the wire now, every replica's, counted by merchant and URL: what the caps are counted over. */
const LIVE_CLAIMS = (now: number) => sql<LiveClaims[number]>`select merchant_id, url, count(*)::int as count from webhook_deliveries
  where status = 'pending' and claim_token is not null and claimed_until > ${now} group by merchant_id, url`

/**
 * Claims whose lease ran out (their replica died), whoever they belong to: the claimed index's
 * oldest entries, which until a vacuum include every delivery logged since, so a claim made at
 * each log does not read them; the claims of the dispatcher's passes (its poll) do.
 */
const EXPIRED_CLAIMS = (now: number, limit: number) => sql`union all
  (select ${CANDIDATE_COLUMNS} from webhook_deliveries d where d.status = 'pending' and d.claim_token is not null
    and d.claimed_until <= ${now} and ${FIRST_OF_SUBJECT} order by d.sequence limit ${limit})`

/** Delivery d is its subject's oldest pending one. */
const FIRST_OF_SUBJECT = sql`not exists (select 1 from webhook_deliveries o where o.subject_type = d.subject_type
  and o.subject_id = d.subject_id and o.status = 'pending' and o.sequence < d.sequence)`

/** Pending, unclaimed (or its lease expired), and its subject's oldest pending delivery. */
const CLAIMABLE = (now: number) =>
  sql`d.status = 'pending' and (d.claim_token is null or d.claimed_until <= ${now}) and ${FIRST_OF_SUBJECT}`

/** The oldest claimable deliveries of each of `merchants` to URLs not in `fullUrls`: one probe of webhook_deliveries_pending_by_merchant per merchant. */
async function oldestToOtherUrls(
  db: Kysely<Database>,
  now: number,
  past: { merchants: string[]; fullUrls: string[]; perMerchant: number; skip: ReadonlySet<string> },
): Promise<WebhookDeliveryRow[]> {
  const { rows } = await sql<WebhookDeliveryRow>`select d.* from merchants m cross join lateral (
      select d.* from webhook_deliveries d where d.merchant_id = m.id and ${CLAIMABLE(now)}
        and d.url not in (${jsonTextValues(db, JSON.stringify(past.fullUrls))})
      order by d.sequence limit ${past.perMerchant}) d
    where m.id in (${jsonTextValues(db, JSON.stringify(past.merchants))})
    order by d.sequence`.execute(db)
  return rows.filter((row) => !past.skip.has(row.id))
}

/** The claim a resend is written with: the replica that received it sends it, and no other claims it meanwhile. */
export function newClaim(
  by: string,
  now: number,
  leaseMs: number,
): Pick<WebhookDeliveryRow, 'claim_token' | 'claimed_until' | 'claimed_by'> {
  return { claim_token: randomUUID(), claimed_until: now + leaseMs, claimed_by: by }
}

/** Outcome columns of a delivery, as logged. */
export type DeliveryOutcome = Pick<
  WebhookDeliveryRow,
  'id' | 'claim_token' | 'status' | 'http_status' | 'response_body' | 'error_message' | 'duration_ms' | 'last_attempt_at' | 'updated_at'
>

/**
 * Logs the outcomes of claimed deliveries in one statement, each only while its claim token is
 * still the delivery's; returns the ids logged (those left out lost their lease to a newer attempt).
 */
export async function logClaimedOutcomes(db: Kysely<Database>, outcomes: readonly DeliveryOutcome[]): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set()
  // jsonb holds no U+0000, which a receiver's answer may: the log shows it as U+FFFD.
  const json = JSON.stringify(
    outcomes.map((o) => ({
      id: o.id,
      claim_token: o.claim_token,
      status: o.status,
      http_status: o.http_status,
      response_body: o.response_body?.replaceAll('\0', '\uFFFD') ?? null,
      error_message: o.error_message,
      duration_ms: o.duration_ms,
      last_attempt_at: o.last_attempt_at,
      updated_at: o.updated_at,
    })),
  )
  const { rows } = await sql<{ id: string }>`
    update webhook_deliveries d set status = v.status, http_status = v.http_status, response_body = v.response_body,
      error_message = v.error_message, duration_ms = v.duration_ms, last_attempt_at = v.last_attempt_at, updated_at = v.updated_at
    from jsonb_to_recordset(cast(${json} as jsonb)) as v(id text, claim_token text, status text, http_status bigint,
      response_body text, error_message text, duration_ms bigint, last_attempt_at bigint, updated_at bigint)
    where d.id = v.id and d.claim_token = v.claim_token
    returning d.id`.execute(db)
  return new Set(rows.map((row) => row.id))
}

/** Lets go of claims whose sending was abandoned (the replica is stopping): any replica may claim them at once. */
export async function releaseClaims(
  db: Kysely<Database>,
  deliveries: ReadonlyArray<Pick<WebhookDeliveryRow, 'id' | 'claim_token'>>,
): Promise<void> {
  for (const { id, claim_token } of deliveries) {
    if (claim_token === null) continue
    await db
      .updateTable('webhook_deliveries')
      .set({ claim_token: null, claimed_until: null })
      .where('id', '=', id)
      .where('claim_token', '=', claim_token)
      .where('status', '=', 'pending')
      .execute()
  }
}
