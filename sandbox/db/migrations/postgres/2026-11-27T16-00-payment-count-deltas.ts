// PostgreSQL only (SQLite's one writer has no lock to wait on). Two changes for replicas that
// write in parallel:
// - The count tables behind list totals were one row per (merchant, status, store), moved by
//   every insert of a payment: with parallel writers, every insert of a merchant waited on that
//   row's lock. A change of a payment now inserts delta rows (insert-only, no key, nothing to
//   wait on); readers add them to the folded counts, and a fold moves them in later, in one
//   statement, so a total is exact before, during and after it.
// - Every change of a merchant (keys, archive, settings, clock) notifies the replicas, which drop
//   what their caches hold of it: on the announcements channel, topic `merchant`, detail its
//   id, under the token `db`, which is no replica's (so the replica that made it hears it too).
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table payment_count_deltas (
    merchant_id text not null,
    day bigint not null,
    status text not null,
    store_id text not null,
    delta bigint not null
  )`.execute(db)
  await sql`create index payment_count_deltas_by_merchant_day on payment_count_deltas (merchant_id, day)`.execute(db)

  await sql`create or replace function payment_counts_follow() returns trigger language plpgsql as $$
  begin
    if tg_op <> 'INSERT' then
      insert into payment_count_deltas (merchant_id, day, status, store_id, delta)
        values (old.merchant_id, floor(old.created_at / 86400000.0)::bigint, old.status, coalesce(old.store_id, ''), -1);
    end if;
    if tg_op <> 'DELETE' then
      insert into payment_count_deltas (merchant_id, day, status, store_id, delta)
        values (new.merchant_id, floor(new.created_at / 86400000.0)::bigint, new.status, coalesce(new.store_id, ''), 1);
    end if;
    return null;
  end $$`.execute(db)

  await sql`create function merchants_announce_change() returns trigger language plpgsql as $$
  begin
    perform pg_notify('paybox_announcements', 'db:merchant:' || old.id);
    return null;
  end $$`.execute(db)
  await sql`create trigger merchants_announce_change after update or delete on merchants
    for each row execute function merchants_announce_change()`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger merchants_announce_change on merchants`.execute(db)
  await sql`drop function merchants_announce_change`.execute(db)
  // The deltas not yet folded go into the counts before the table goes.
  await sql`insert into payment_counts as c (merchant_id, status, store_id, count)
    select merchant_id, status, store_id, sum(delta) from payment_count_deltas group by 1, 2, 3
    on conflict (merchant_id, status, store_id) do update set count = c.count + excluded.count`.execute(db)
  await sql`insert into payment_day_counts as c (merchant_id, day, status, store_id, count)
    select merchant_id, day, status, store_id, sum(delta) from payment_count_deltas group by 1, 2, 3, 4
    on conflict (merchant_id, day, status, store_id) do update set count = c.count + excluded.count`.execute(db)
  await sql`drop table payment_count_deltas`.execute(db)
  await sql`create or replace function payment_counts_follow() returns trigger language plpgsql as $$
  begin
    if tg_op <> 'INSERT' then
      update payment_counts set count = count - 1
        where merchant_id = old.merchant_id and status = old.status and store_id = coalesce(old.store_id, '');
      update payment_day_counts set count = count - 1
        where merchant_id = old.merchant_id and day = floor(old.created_at / 86400000.0)::bigint
          and status = old.status and store_id = coalesce(old.store_id, '');
    end if;
    if tg_op <> 'DELETE' then
      insert into payment_counts as c (merchant_id, status, store_id, count)
        values (new.merchant_id, new.status, coalesce(new.store_id, ''), 1)
        on conflict (merchant_id, status, store_id) do update set count = c.count + 1;
      insert into payment_day_counts as c (merchant_id, day, status, store_id, count)
        values (new.merchant_id, floor(new.created_at / 86400000.0)::bigint, new.status, coalesce(new.store_id, ''), 1)
        on conflict (merchant_id, day, status, store_id) do update set count = c.count + 1;
    end if;
    return null;
  end $$`.execute(db)
}
