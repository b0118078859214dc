// Webhook claims on PostgreSQL read, under the claims' lock, each merchant's oldest unclaimed
// pending deliveries (sandbox/webhooks/delivery-claim-repository.ts). The pending index by
// merchant also holds every claimed delivery on the wire and, until a vacuum, the entries of each
// logged one, so that read walked past them; this index holds the unclaimed ones only, and a claim
// or a log takes a delivery out of it. Expired leases are read from webhook_deliveries_claimed.
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index webhook_deliveries_unclaimed on webhook_deliveries (merchant_id, sequence)
    where status = 'pending' and claim_token is null`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_deliveries_unclaimed`.execute(db)
}
