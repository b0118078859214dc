// PostgreSQL: every replica sends webhooks, each delivery under a claim (docs/postgres.md). A
// replica claims pending deliveries for a lease with a token of its own, a row of
// webhook_live_claims each, and logs an outcome only while that claim is still the delivery's: a
// sender whose lease expired (another replica has claimed it since) cannot overwrite the newer
// attempt. The outbox's rows are written when queued and when logged, never to claim them. SQLite's
// one process needs none of this.
import { randomUUID } from 'node:crypto'
import { sql, type Kysely, type RawBuilder } from 'kysely'
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
  /**
   * Where each merchant's pending deliveries start, as this replica last read them (the sequence
   * of its oldest pending one, kept from Claimed.heads). With `fromStarts`, a read
   * begins there, past the pending index's entries of the deliveries logged since, which it would
   * otherwise step over (they stay in the index until the outbox's next vacuum). Without, it reads
   * from each merchant's oldest: a delivery whose transaction committed after a later one's read
   * (its sequence is older) is found then.
   */
  heads?: { starts: ReadonlyMap<string, number>; fromStarts: boolean }
}

/**
 * Claims the deliveries that may go now, oldest first: pending, not claimed (or their lease
 * expired), the oldest pending delivery of their subject, and within their merchant's and their
 * origin's caps counted over every replica's live claims. Returns them with their new claim.
 * Its own transaction, not runTransaction's: a claim changes nothing the other replicas wait
 * for, and a commit that woke them would have them claim again, and wake this one.
 */
export async function claimDeliveries(db: Kysely<Database>, request: ClaimRequest): Promise<Claimed> {
  if (request.limit <= 0) return nothingClaimed()
  return db.transaction().execute((trx) => claimInTransaction(trx, request, { wait: true }))
}

/**
 * A backlog queued faster than autovacuum's ANALYZE (its next round may be a minute away) leaves
 * the planner believing the pending deliveries' partial indexes as empty as they were then, and a
 * claim's read scans the whole backlog once per candidate (47,000 pages a claim for 20,000
 * pending, against 1,600 once analyzed). Each replica's dispatcher, at most once a poll and
 * whether or not it has a free slot to claim for (a replica whose slots stay full claims only in
 * its log transactions), analyzes the outbox when the deliveries pending now outnumber twice
 * those its last ANALYZE counted (the pending index's reltuples, from its sample), or when its
 * pending index has more than doubled on disk (at once); a replica already analyzing it is left
 * to it. Against the pending rows, not all: a sandbox's logged history outgrows any backlog, and
 * a steady trickle, however long, leaves the estimate right.
 * Counting the pending rows reads the pending index with the entries of every delivery logged
 * since its vacuum (7,000 pages a count mid-drain), so a replica counts again only once the
 * deliveries queued since its last count (`last`) could have made it stale: pending rows come only
 * from inserts, each taking the outbox's next sequence, so those queued since number at most the
 * sequence now less the newest one that count could see (a transaction still open then, older
 * than that, is a few rows of an API request). Not the cumulative statistics' changes: they lag by
 * up to ten seconds behind a connection left idle, such as one that has just queued a backlog.
 * Returns the count to pass as `last` next time.
 */
export async function refreshStaleOutboxStatistics(db: Kysely<Database>, last?: PendingCount): Promise<PendingCount | undefined> {
  const { rows } = await sql<{ counted: PendingCount | null; stale: boolean }>`
    with outbox as (
      select greatest(i.reltuples, 0) as analyzed, pg_relation_size(i.oid) / current_setting('block_size')::int as pages, i.relpages,
        coalesce(pg_sequence_last_value(pg_get_serial_sequence('webhook_deliveries', 'sequence')::regclass), 0) as taken
      from pg_class i where i.oid = 'webhook_deliveries_pending'::regclass
    ), counted as (
      select o.analyzed, (select coalesce(max(sequence), 0) from webhook_deliveries) as newest,
        (select count(*)::int from webhook_deliveries where status = 'pending') as pending
      from outbox o
      where ${last === undefined} or ${last?.pending ?? 0} + (o.taken - ${last?.newest ?? 0}) > ${STALE_AFTER_MORE_PENDING} + 2 * o.analyzed
    )
    select (select jsonb_build_object('newest', c.newest, 'pending', c.pending) from counted c) as counted,
      coalesce((select c.pending > ${STALE_AFTER_MORE_PENDING} + 2 * c.analyzed from counted c), false)
        or (select o.pages > 2 * greatest(o.relpages, 1) + ${STALE_AFTER_PAGES} from outbox o) as stale`.execute(db)
  const row = rows[0]
  if (row?.stale) await sql`analyze (skip_locked) webhook_deliveries`.execute(db)
  return row?.counted ?? last
}

/** The outbox's pending deliveries as refreshStaleOutboxStatistics last counted them. */
export interface PendingCount {
  /** The newest delivery's sequence the count could see. */
  newest: number
  pending: number
}

/** Pending deliveries, beyond twice those its last ANALYZE counted, that make the outbox's statistics stale. */
const STALE_AFTER_MORE_PENDING = 1_000
/** Pages (of a few hundred entries) the pending index may grow past twice its known size: a small outbox's growth needs no ANALYZE. */
const STALE_AFTER_PAGES = 8

/** What a claim reads in one statement: the live claims by merchant and URL, and each merchant's oldest claimable. */
interface ClaimView {
  live: LiveClaims
  candidates: Candidate[]
  heads: Map<string, number>
}

type LiveClaims = Array<{ merchant_id: string; url: string; count: number }>

/** What choosing a claimable delivery needs of it (the claim's statement returns the rows). */
type Candidate = Pick<WebhookDeliveryRow, 'id' | 'merchant_id' | 'url' | 'sequence'>

/**
 * claimDeliveries inside the caller's transaction (also the one that logs this replica's finished
 * deliveries, so a turn of its slots is one transaction). No lock is sandbox-wide: the claim reads
 * what may go and chooses it within the caps, then takes the lock of each share its choice adds to
 * (a merchant's, an origin's), trying and never waiting, counts those shares' live claims again
 * (a claim another replica committed since the read is seen now), and claims what still fits in
 * the shares it holds, a delivery whose claim's lease ran out among them. Inside a log
 * transaction (its logged rows locked) the share locks are tried, never awaited, so no two such
 * transactions wait on each other; a claim of its own awaits them, in one order. Two replicas filling different merchants' shares do not wait on each
 * other; two after the same share cannot both fill it, and the one that finds it held leaves it
 * to the other. The locks end with the transaction, once its claims are committed.
 * The chosen rows are locked FOR UPDATE SKIP LOCKED, so a row another transaction holds (its log
 * being written) is passed over, not waited for. Origins are the URL parser's (caps.originOf).
 */
export async function claimInTransaction(
  db: Kysely<Database>,
  request: ClaimRequest,
  options: ClaimOptions = { wait: false },
): Promise<Claimed> {
  if (request.limit <= 0) return nothingClaimed()
  const { caps, now } = request
  const { live, candidates, heads } = await readClaimView(db, request)
  const none = (contended = false): Claimed => ({ claimed: [], contended, heads })
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
  // Each chosen delivery still pending is locked (SKIP LOCKED: one being logged is passed over) and
  // claimed by a row of webhook_live_claims, unless a live claim of it has been committed since the
  // read; the delivery's own row is not written.
  const claim = newClaim(request.by, now, request.leaseMs)
  // Only its subject's oldest pending delivery: a read from the heads' starts may not have seen an
  // older one committed late, and a subject's deliveries go in order.
  const { rows } = await sql<WebhookDeliveryRow>`with taken as (
      select id, merchant_id, url from webhook_deliveries d where id = any(cast(${ids} as text[])) and ${STILL_PENDING('d')}
        and ${FIRST_OF_SUBJECT}
      order by id for update skip locked
    ), claimed as (${claimRows(sql`(select id, merchant_id, url from taken order by id)`, claim, now)} returning delivery_id)
    select d.* from webhook_deliveries d join claimed c on c.delivery_id = d.id`.execute(db)
  const claimed = rows.map((row) => ({ ...row, ...claim }))
  return { claimed: claimed.sort((x, y) => x.sequence - y.sequence), contended, heads }
}

export interface ClaimOptions {
  /** Await the shares' locks (a claim holding no row locks) rather than try them. */
  wait: boolean
}

/** What a claim took; `contended`: a share it chose was being filled by another replica, and was left to it. */
export interface Claimed {
  claimed: WebhookDeliveryRow[]
  contended: boolean
  /** Where its read found each merchant's oldest pending delivery (its sequence), for the merchants it found any of: the next read's ClaimRequest.heads. */
  heads: ReadonlyMap<string, number>
}

/** A claim that read nothing and took nothing. */
const nothingClaimed = (): Claimed => ({ claimed: [], contended: false, heads: new Map() })

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
 * One statement: the live claims, and the head of each merchant with room: its oldest pending
 * deliveries (webhook_deliveries_pending_by_merchant, one probe per merchant), as many as it has
 * on the wire (those come first) and one share more, each marked if a live claim has it;
 * headsToClaim picks from them (a subject's later deliveries wait behind its first). Reads lock nothing: a backlog's head that waits
 * on a full share is read at every claim, and locking it would write to each of its rows.
 */
async function readClaimView(db: Kysely<Database>, request: ClaimRequest): Promise<ClaimView> {
  const { caps, now, heads: known } = request
  const starts = known?.fromStarts ? [...known.starts] : []
  const { rows } = await sql<{ live: LiveClaims; heads: Head[] }>`
    with live as (${LIVE_CLAIMS(now)}), with_room as (
      -- From the merchants, not from the outbox: its statistics lag a burst of deliveries (until
      -- autovacuum's next ANALYZE), and a plan that reads its pending rows to find their merchants
      -- reads them all.
      select m.id, m.on_wire, coalesce(s.sequence, 0) as start from merchants
        left join unnest(cast(${starts.map(([id]) => id)} as text[]), cast(${starts.map(([, start]) => start)} as bigint[]))
          as s (id, sequence) on s.id = merchants.id,
        lateral (select merchants.id, coalesce((select sum(l.count) from live l where l.merchant_id = merchants.id), 0) as on_wire) m
      where m.on_wire < ${caps.perMerchant}
    ), heads as (
      -- The merchant as \`= any(array[…])\`, not an equality: with it fixed, the pending index's
      -- sequence order would serve the ORDER BY, and a plan that walks it filtering by merchant
      -- reads the whole backlog for a merchant with nothing pending; an array's first-column match
      -- keeps the order only an index led by the merchant gives. Nothing is checked per row before
      -- the LIMIT, so a plan chosen on statistics a burst has outdated sorts a merchant's backlog
      -- at worst, and checks none of it.
      select d.*, w.delivery_id is not null as claimed from with_room m cross join lateral (
        select d.id, d.merchant_id, d.url, d.sequence, d.subject_type, d.subject_id from webhook_deliveries d
        where d.merchant_id = any(array[m.id]) and d.status = 'pending' and d.sequence >= m.start
        order by d.merchant_id, d.sequence limit m.on_wire + ${caps.perMerchant}) d
      left join webhook_live_claims w on w.delivery_id = d.id and w.claimed_until > ${now}
    )
    -- json, not jsonb: the read's answer is only passed on as text, and json_agg builds it in half jsonb_agg's time.
    select coalesce((select json_agg(l) from live l), '[]') as live,
      coalesce((select json_agg(h order by h.sequence) from heads h), '[]') as heads`.execute(db)
  const { live, heads } = rows[0]!
  return { live, candidates: headsToClaim(heads), heads: oldestByMerchant(heads) }
}

/** Each merchant's oldest delivery among `heads` (in sequence order): where its next read may start. */
function oldestByMerchant(heads: readonly Head[]): Map<string, number> {
  const oldest = new Map<string, number>()
  for (const head of heads) if (!oldest.has(head.merchant_id)) oldest.set(head.merchant_id, head.sequence)
  return oldest
}

/** A merchant's pending delivery at the head of its backlog, and whether a live claim has it. */
type Head = Candidate & Pick<WebhookDeliveryRow, 'subject_type' | 'subject_id'> & { claimed: boolean }

/**
 * The claimable deliveries among merchants' heads (in sequence order): those no live claim has
 * that are their subject's oldest pending delivery. A subject's older deliveries are of its
 * merchant, so they come before it in its merchant's head, read from its oldest.
 */
function headsToClaim(heads: readonly Head[]): Candidate[] {
  const subjectsAhead = new Set<string>()
  const claimable: Candidate[] = []
  for (const head of heads) {
    const subject = `${head.subject_type}:${head.subject_id}`
    if (!head.claimed && !subjectsAhead.has(subject))
      claimable.push({ id: head.id, merchant_id: head.merchant_id, url: head.url, sequence: head.sequence })
    subjectsAhead.add(subject)
  }
  return claimable
}

/** The deliveries on the wire now, every replica's, counted by merchant and URL: what the caps are counted over. */
const LIVE_CLAIMS = (now: number) => sql<LiveClaims[number]>`select merchant_id, url, count(*)::int as count from webhook_live_claims
  where claimed_until > ${now} group by merchant_id, url`

/**
 * Claims the deliveries of `deliveries` (a relation of id, merchant_id, url), in its order: a row
 * of webhook_live_claims each, inserted, or taking over the row of a claim whose lease ran out; a
 * delivery whose live claim another transaction committed first is left out of what it returns.
 */
const claimRows = (deliveries: RawBuilder<unknown>, claim: LiveClaim, now: number) => sql`insert into webhook_live_claims
    (delivery_id, claim_token, merchant_id, url, claimed_until, claimed_by)
  select id, ${claim.claim_token}, merchant_id, url, cast(${claim.claimed_until} as bigint), ${claim.claimed_by} from ${deliveries} as deliveries
  on conflict (delivery_id) do update set claim_token = excluded.claim_token, merchant_id = excluded.merchant_id,
    url = excluded.url, claimed_until = excluded.claimed_until, claimed_by = excluded.claimed_by
  where webhook_live_claims.claimed_until <= ${now}`

/**
 * Vacuums the live claims' table, so that the space of the rows that logs deleted is used again and
 * a count reads a few pages (autovacuum comes too seldom for a table that every delivery inserts
 * into and deletes from). Every row is a pending delivery's: a log deletes its claim as it logs it.
 * `skip_locked`: a replica already vacuuming it is left to it; `truncate false`: truncating would
 * lock out the claims.
 */
export async function vacuumLiveClaims(db: Kysely<Database>): Promise<void> {
  await sql`vacuum (skip_locked, truncate false) webhook_live_claims`.execute(db)
}

/** A resend is written claimed (the replica that received it sends it): it counts against the caps from its write on. */
export async function claimResend(
  db: Kysely<Database>,
  row: Pick<WebhookDeliveryRow, 'id' | 'merchant_id' | 'url'>,
  claim: LiveClaim,
): Promise<void> {
  const resend = sql`(values (${row.id}, ${row.merchant_id}, ${row.url})) as resend (id, merchant_id, url)`
  // A new delivery has no claim to take over (no row has a lease ending at or before 0).
  await sql`${claimRows(sql`(select * from ${resend})`, claim, 0)}`.execute(db)
}

/** No live claim of delivery d: none, or its lease ran out (its replica died or froze), so any replica may claim it again. */
const NOT_CLAIMED = (now: number) =>
  sql`not exists (select 1 from webhook_live_claims w where w.delivery_id = d.id and w.claimed_until > ${now})`

/**
 * A row found otherwise (by id, by subject) is pending: written as an expression of the status, from
 * which the planner cannot prove the pending deliveries' partial indexes' predicate, so it cannot
 * read the rows through them. With those usable, a backlog committed since the outbox's last
 * ANALYZE (its pending indexes estimated empty) had one claim of 64 walk the pending index once
 * per candidate: 1,280,000 rows and 830 ms, where the primary key and the subject index take a
 * few probes whatever the statistics say.
 */
const STILL_PENDING = (alias: string) => sql`${sql.ref(`${alias}.status`)} || '' = 'pending'`

/** Delivery d is its subject's oldest pending one (by the subject index: STILL_PENDING). */
const FIRST_OF_SUBJECT = sql`not exists (select 1 from webhook_deliveries o where o.subject_type = d.subject_type
  and o.subject_id = d.subject_id and o.sequence < d.sequence and ${STILL_PENDING('o')})`

/** Pending, unclaimed (or its lease expired), and its subject's oldest pending delivery. */
const CLAIMABLE = (now: number) => sql`d.status = 'pending' and ${NOT_CLAIMED(now)} and ${FIRST_OF_SUBJECT}`

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

/** A claim: its token, the end of its lease (wall-clock ms), and the replica that holds it. */
export type LiveClaim = Pick<WebhookDeliveryRow, 'claim_token' | 'claimed_until' | 'claimed_by'>

/** A new claim for `by`, its lease running from `now`. */
export function newClaim(by: string, now: number, leaseMs: number): LiveClaim {
  return { claim_token: randomUUID(), claimed_until: now + leaseMs, claimed_by: by }
}

/** Outcome columns of a delivery, as logged. */
export type DeliveryOutcome = Pick<
  WebhookDeliveryRow,
  | 'id'
  | 'claim_token'
  | 'claimed_by'
  | 'status'
  | 'http_status'
  | 'response_body'
  | 'error_message'
  | 'duration_ms'
  | 'last_attempt_at'
  | 'updated_at'
>

/**
 * Logs the outcomes of claimed deliveries in one statement, each only while its claim token is
 * still the delivery's; returns the ids logged (those left out lost their lease to a newer attempt).
 */
export async function logClaimedOutcomes(db: Kysely<Database>, outcomes: readonly DeliveryOutcome[]): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set()
  const json = JSON.stringify(
    outcomes.map((o) => ({
      id: o.id,
      claim_token: o.claim_token,
      claimed_by: o.claimed_by,
      status: o.status,
      http_status: o.http_status,
      response_body: o.response_body,
      error_message: o.error_message,
      duration_ms: o.duration_ms,
      last_attempt_at: o.last_attempt_at,
      updated_at: o.updated_at,
    })),
  )
  // Logged while the sender's claim is live or expired but not taken over; then every outcome takes
  // its claim off the live count, logged or not: the sender is done with it. The delete runs after
  // the update (a WITH statement nothing reads), so the delivery's row is locked first, as a claim locks it.
  const { rows } = await sql<{ id: string }>`
    with v as (select * from json_to_recordset(cast(${json} as json)) as v(id text, claim_token text, claimed_by text, status text,
      http_status bigint, response_body text, error_message text, duration_ms bigint, last_attempt_at bigint, updated_at bigint)
    ), freed as (delete from webhook_live_claims w using v where w.delivery_id = v.id and w.claim_token = v.claim_token)
    update webhook_deliveries d set status = v.status, http_status = v.http_status, response_body = v.response_body,
      error_message = v.error_message, duration_ms = v.duration_ms, last_attempt_at = v.last_attempt_at, updated_at = v.updated_at,
      claimed_by = v.claimed_by
    from v where d.id = v.id
      and exists (select 1 from webhook_live_claims w where w.delivery_id = v.id and w.claim_token = v.claim_token)
    returning d.id`.execute(db)
  return new Set(rows.map((row) => row.id))
}

/** Lets go of claims whose sending was abandoned (the replica is stopping): any replica may claim them at once. */
export async function releaseClaims(
  db: Kysely<Database>,
  deliveries: ReadonlyArray<Pick<WebhookDeliveryRow, 'id' | 'claim_token'>>,
): Promise<void> {
  const claims = deliveries.filter((row) => row.claim_token !== null)
  if (claims.length === 0) return
  await sql`delete from webhook_live_claims w using unnest(cast(${claims.map((row) => row.id)} as text[]),
      cast(${claims.map((row) => row.claim_token)} as text[])) as v(id, claim_token)
    where w.delivery_id = v.id and w.claim_token = v.claim_token`.execute(db)
}
