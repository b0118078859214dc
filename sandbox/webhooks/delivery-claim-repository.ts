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
 * Claims run one at a time sandbox-wide (a transaction-scoped advisory lock, held for these few
 * statements and never while sending), so two replicas cannot both fill the same cap; the chosen
 * rows are then taken FOR UPDATE SKIP LOCKED, so a row another transaction holds (a resend being
 * written) is passed over, not waited for. Reads lock nothing: a backlog's head that waits on a
 * full share is read at every claim, and locking it would write to each of its rows.
 * Its own transaction, not runTransaction's: a claim changes nothing the other replicas wait for,
 * and a commit that woke them would have them claim again, and wake this one.
 */
export function claimDeliveries(db: Kysely<Database>, request: ClaimRequest): Promise<WebhookDeliveryRow[]> {
  if (request.limit <= 0) return Promise.resolve([])
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_KEYS.deliveryClaims})`.execute(trx)
    const { caps, now } = request
    const { rows: live } = await sql<{ merchant_id: string; url: string; count: number }>`
      select merchant_id, url, count(*)::int as count from webhook_deliveries
      where status = 'pending' and claim_token is not null and claimed_until > ${now} group by merchant_id, url`.execute(trx)
    const byMerchant = new Map<string, number>()
    const byOrigin = new Map<string, number>()
    for (const { merchant_id, url, count } of live) {
      byMerchant.set(merchant_id, (byMerchant.get(merchant_id) ?? 0) + count)
      byOrigin.set(caps.originOf(url), (byOrigin.get(caps.originOf(url)) ?? 0) + count)
    }
    const chosen: string[] = []
    const choose = (candidates: readonly WebhookDeliveryRow[]) => {
      for (const delivery of candidates) {
        if (chosen.length >= request.limit) return
        const origin = caps.originOf(delivery.url)
        if ((byMerchant.get(delivery.merchant_id) ?? 0) >= caps.perMerchant || (byOrigin.get(origin) ?? 0) >= caps.perOrigin) continue
        byMerchant.set(delivery.merchant_id, (byMerchant.get(delivery.merchant_id) ?? 0) + 1)
        byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + 1)
        chosen.push(delivery.id)
      }
    }
    // The oldest that may go, whoever they belong to: a short read of the pending index's head.
    const readLimit = request.limit + caps.perMerchant
    const head = await oldestClaimable(trx, now, readLimit)
    choose(head)
    if (chosen.length < request.limit && head.length === readLimit) {
      // The head is a merchant's or an origin's whose share is full (a slow receiver's backlog):
      // read past it, merchant by merchant, for the oldest of the merchants with room.
      const full = [...byMerchant].filter(([, count]) => count >= caps.perMerchant).map(([id]) => id)
      const fullUrls = [...new Set([...live.map((row) => row.url), ...head.map((row) => row.url)])].filter(
        (url) => (byOrigin.get(caps.originOf(url)) ?? 0) >= caps.perOrigin,
      )
      choose(
        await oldestOfOtherMerchants(trx, now, { full, fullUrls, perMerchant: caps.perMerchant, skip: new Set(head.map((row) => row.id)) }),
      )
    }
    if (chosen.length === 0) return []
    // Claimed under FOR UPDATE SKIP LOCKED, rechecking that each may still be claimed.
    const claimed = await trx
      .updateTable('webhook_deliveries')
      .set({ claim_token: randomUUID(), claimed_until: now + request.leaseMs, claimed_by: request.by })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('id', 'in', chosen)
          .where('status', '=', 'pending')
          .where((w) => w.or([w('claim_token', 'is', null), w('claimed_until', '<=', now)]))
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .execute()
    return claimed.sort((a, b) => a.sequence - b.sequence)
  })
}

/** Pending, unclaimed (or its lease expired), and its subject's oldest pending delivery. */
const CLAIMABLE = (now: number) => sql`d.status = 'pending' and (d.claim_token is null or d.claimed_until <= ${now})
  and not exists (select 1 from webhook_deliveries o where o.subject_type = d.subject_type and o.subject_id = d.subject_id
    and o.status = 'pending' and o.sequence < d.sequence)`

async function oldestClaimable(db: Kysely<Database>, now: number, limit: number): Promise<WebhookDeliveryRow[]> {
  const { rows } = await sql<WebhookDeliveryRow>`select d.* from webhook_deliveries d where ${CLAIMABLE(now)}
    order by d.sequence limit ${limit}`.execute(db)
  return rows
}

/** The oldest claimable deliveries of each merchant not in `full`, to URLs not in `fullUrls`: one probe of webhook_deliveries_pending_by_merchant per merchant. */
async function oldestOfOtherMerchants(
  db: Kysely<Database>,
  now: number,
  past: { full: string[]; fullUrls: string[]; perMerchant: number; skip: ReadonlySet<string> },
): Promise<WebhookDeliveryRow[]> {
  const { rows } = await sql<WebhookDeliveryRow>`select d.* from merchants m cross join lateral (
      select d.* from webhook_deliveries d where d.merchant_id = m.id and ${CLAIMABLE(now)}
        and d.url not in (${jsonTextValues(db, JSON.stringify(past.fullUrls))})
      order by d.sequence limit ${past.perMerchant}) d
    where m.id not in (${jsonTextValues(db, JSON.stringify(past.full))})
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
