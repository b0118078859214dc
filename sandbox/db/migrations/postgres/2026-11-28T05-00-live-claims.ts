// PostgreSQL: a webhook delivery's claim (sandbox/webhooks/delivery-claim-repository.ts) is a row
// of webhook_live_claims, not columns of the outbox's row. A claim inserts it (or takes over the
// row of a claim whose lease ran out), and the log of the outcome deletes it. So the outbox's row
// is written twice (queued, logged) where a claim rewrote it, with all its indexes, in between; and
// the claims the caps count are the table's few rows, where webhook_deliveries_claimed held a
// lease's worth (15 s) of claims, most of them logged since. That index and
// webhook_deliveries_unclaimed go; the outbox's claim columns stay (SQLite's schema has them),
// null but for claimed_by, which the log sets to the replica that sent the delivery.
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table webhook_live_claims (
    delivery_id text primary key,
    claim_token text not null,
    merchant_id text not null,
    url text not null,
    claimed_until bigint not null,
    claimed_by text not null
  )`.execute(db)
  await sql`insert into webhook_live_claims (delivery_id, claim_token, merchant_id, url, claimed_until, claimed_by)
    select id, claim_token, merchant_id, url, claimed_until, coalesce(claimed_by, '') from webhook_deliveries
    where status = 'pending' and claim_token is not null`.execute(db)
  await sql`update webhook_deliveries set claim_token = null, claimed_until = null where claim_token is not null`.execute(db)
  await sql`drop index webhook_deliveries_claimed`.execute(db)
  await sql`drop index webhook_deliveries_unclaimed`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update webhook_deliveries d set claim_token = w.claim_token, claimed_until = w.claimed_until, claimed_by = w.claimed_by
    from webhook_live_claims w where w.delivery_id = d.id`.execute(db)
  await sql`create index webhook_deliveries_unclaimed on webhook_deliveries (merchant_id, sequence)
    where status = 'pending' and claim_token is null`.execute(db)
  await sql`create index webhook_deliveries_claimed on webhook_deliveries (claimed_until)
    where status = 'pending' and claim_token is not null`.execute(db)
  await sql`drop table webhook_live_claims`.execute(db)
}
