// The sandbox over PostgreSQL (a sandbox shared by replicas), each figure beside its goal:
// - POST /payments on one replica, beside the PostgreSQL control (bench/servers/
//   postgres-control-server.ts: node:http, the digest check, one `pg` insert), and on two
//   replicas of one database with the connections spread over both, beside one replica;
// - the scaling model of docs/postgres.md ("How it scales") tested (postgres-scaling.ts);
// - the list queries of the lists section on 1,000,000 payments in PostgreSQL;
// - webhook backlogs drained by the replicas, and the event-to-receiver time (postgres-webhooks.ts).
// It needs a cluster where it may create databases: PAYBOX_BENCH_POSTGRES_URL, or else
// PAYBOX_TEST_POSTGRES_URL (scripts/postgres-dev.sh start prints one). Each part runs on a
// database of its own, dropped at the end.
import { figure, type Figure } from '../lib/figures.js'
import { runLoad, type Credentials } from '../lib/load.js'
import { directMerchant, spawnSandbox, spawnServer } from '../lib/processes.js'
import { roundRobin } from '../lib/rounds.js'
import type { BenchSettings } from '../lib/settings.js'
import { paymentRequest } from '../lib/payment-request.js'
import { listQueryFigures } from './lists.js'
import { WRITE_CONNECTIONS, pause, postPayments, withClient, withDatabases } from '../lib/postgres-bench.js'
import { scalingFigures } from './postgres-scaling.js'
import { webhookFigures } from './postgres-webhooks.js'

/** The cluster the bench may create databases on, if one was given. */
export function postgresBenchUrl(): string | undefined {
  return process.env.PAYBOX_BENCH_POSTGRES_URL || process.env.PAYBOX_TEST_POSTGRES_URL || undefined
}

export const POSTGRES_SKIPPED =
  'postgres skipped: set PAYBOX_BENCH_POSTGRES_URL (or PAYBOX_TEST_POSTGRES_URL) to a cluster where the bench may create databases, e.g. `eval "$(scripts/postgres-dev.sh start)" && npm run bench -- --only=postgres`'

const DAY_MS = 86_400_000

export async function postgresFigures(settings: BenchSettings, log: (line: string) => void): Promise<Figure[]> {
  const adminUrl = postgresBenchUrl()
  if (!adminUrl) throw new Error(POSTGRES_SKIPPED)
  // PAYBOX_BENCH_POSTGRES_PARTS=writes,lists,webhooks runs some of them (all by default).
  const parts = process.env.PAYBOX_BENCH_POSTGRES_PARTS?.split(',')
  const wanted = (part: string) => parts === undefined || parts.includes(part)
  return [
    ...(wanted('writes') ? [...(await writeFigures(settings, log, adminUrl)), ...(await scalingFigures(settings, log, adminUrl))] : []),
    ...(wanted('lists') ? await listFigures(settings, log, adminUrl) : []),
    ...(wanted('webhooks') ? await webhookFigures(settings, log, adminUrl) : []),
  ]
}

async function writeFigures(settings: BenchSettings, log: (line: string) => void, adminUrl: string): Promise<Figure[]> {
  return withDatabases(adminUrl, ['paybox_bench_writes', 'paybox_bench_control'], async ([sandboxDb, controlDb]) => {
    const control = await spawnServer<Credentials & { url: string }>([
      '--import',
      'tsx',
      'bench/servers/postgres-control-server.ts',
      controlDb!.url,
    ])
    const first = await spawnSandbox(sandboxDb!.url, ['--ledger-close', '5s'])
    const second = await spawnSandbox(sandboxDb!.url, ['--ledger-close', '5s'])
    try {
      const merchant = directMerchant(first.banner)
      const credentials = { apiKey: merchant.apiKey, apiSecret: merchant.apiSecret }
      const runId = Date.now().toString(36)
      let keys = 0
      const write = (urls: string[], seconds: number) => postPayments(credentials, urls, seconds, () => `bench-pg-${runId}-${keys++}`)
      const controlWrite = (connections: number, seconds: number) =>
        runLoad({
          url: control.banner.url,
          credentials: control.banner,
          connections,
          durationSeconds: seconds,
          method: 'POST',
          path: () => '/control/items',
          body: (n) => JSON.stringify(paymentRequest(n)),
        })

      log('  warming up the control and both replicas')
      await controlWrite(8, settings.warmupSeconds)
      await write([first.banner.baseUrl, second.banner.baseUrl], settings.warmupSeconds)
      // The second replica sleeps (SIGSTOP) while the control and one replica are measured, so
      // that "one replica" is one process on the machine; it is woken for the two-replica turn.
      await pause(second, true)
      const [c, one, two] = await roundRobin(settings, log, 'PostgreSQL POST /payments', WRITE_CONNECTIONS, [
        { name: 'control', run: (seconds) => controlWrite(WRITE_CONNECTIONS, seconds) },
        { name: '1 replica', run: (seconds) => write([first.banner.baseUrl], seconds) },
        {
          name: '2 replicas',
          run: (seconds) => write([first.banner.baseUrl, second.banner.baseUrl], seconds),
          before: () => pause(second, false),
          after: () => pause(second, true),
        },
      ])
      await pause(second, false)
      const payments = await withClient(sandboxDb!.url, async (client) =>
        Number((await client.query<{ n: string }>('select count(*) as n from payments')).rows[0]!.n),
      )
      const answered = one!.requests + two!.requests
      log(`  ${payments.toLocaleString('en-US')} payments in the database, ${answered.toLocaleString('en-US')} acknowledged while measured`)
      const connections = `@${WRITE_CONNECTIONS} conn`
      return [
        figure('postgres', `PostgreSQL POST /payments ${connections}, 1 replica`, one!.requestsPerSecond, 'req/s', {
          control: { name: 'pg control write', value: c!.requestsPerSecond },
          goal: '≥ 0.5× control',
          met: one!.requestsPerSecond >= 0.5 * c!.requestsPerSecond,
        }),
        figure('postgres', `PostgreSQL POST /payments ${connections}, 1 replica p99`, one!.p99Ms, 'ms', {
          control: { name: 'pg control write', value: c!.p99Ms },
        }),
        figure('postgres', `PostgreSQL POST /payments ${connections}, 2 replicas`, two!.requestsPerSecond, 'req/s', {
          control: { name: '1 replica', value: one!.requestsPerSecond },
          goal: '≥ 1.0× 1 replica',
          met: two!.requestsPerSecond >= one!.requestsPerSecond,
          note: 'connections split evenly between the two replicas',
        }),
        figure('postgres', `PostgreSQL POST /payments ${connections}, 2 replicas p99`, two!.p99Ms, 'ms', {
          control: { name: '1 replica', value: one!.p99Ms },
        }),
      ]
    } finally {
      await pause(second, false)
      await Promise.all([first.stop(), second.stop(), control.stop()])
    }
  })
}

/**
 * `count` payments of the merchant, written by one server-side `insert … select generate_series`,
 * spread as the SQLite list database's are (bench/lib/seed-payments.ts): 180 days, six statuses,
 * four stores and none. The count tables' row triggers are off for that statement (this session
 * only: session_replication_role, which needs a superuser, as creating the databases does) and
 * the counts are then added by one grouped insert each; then VACUUM (ANALYZE).
 */
export async function seedPayments(url: string, merchantId: string, count: number): Promise<{ from: number; to: number }> {
  const to = Date.now() - DAY_MS
  const from = to - 180 * DAY_MS
  await withClient(url, async (client) => {
    await client.query('begin')
    await client.query('set local session_replication_role = replica')
    await client.query('select setseed(0.17)')
    await client.query(
      `insert into payments (
          id, merchant_id, status, settlement_status, amount_value, amount_currency, usdc_amount, description, merchant_name,
          redirect_url, cancel_url, webhook_url, locale, metadata, partner_id, store_id, memo, destination, auth_token, short_code,
          amount_paid, settlement_amount, settlement_fee, history, created_at, updated_at, expires_at, usdc_received, settled_at)
        with m as (select id as merchant_id, name as merchant_name, account_id from merchants where id = $1)
        select
          'pt_' || lpad(to_hex(created_at), 12, '0') || '7' || substr(md5(i || 'id'), 1, 19),
          merchant_id, status, case when status = 'paid' then 'settled' else status end, value, 'USD', value * 100000,
          'Order #' || i, merchant_name, 'https://shop.example/thanks', 'https://shop.example/cart', null, 'en',
          '{"orderId":"order-' || i || '"}', null,
          case when i % 5 = 4 then null else 'store-' || (i % 5) end,
          'pb-' || lpad(to_hex(created_at), 11, '0') || substr(md5(i || 'memo'), 1, 14),
          account_id, md5(i || 'token'), substr(md5(i || 'short'), 1, 16),
          paid, case when status = 'paid' then value * 99000 else value * 100000 end,
          case when status = 'paid' then value * 1000 else 0 end,
          '[{"time":' || created_at || ',"status":"success","description":"Payment created"}'
            || case when status = 'open' then '' else ',{"time":' || (created_at + 60000) || ',"status":"success","description":"Payment ' || status || '"}' end
            || ']',
          created_at, created_at + 60000,
          case when status = 'open' then $4::bigint + 365::bigint * 86400000 else created_at + 1800000 end,
          paid * 100000, case when status = 'paid' then created_at + 120000 end
        from m,
          lateral (
            select i, ($3::bigint + floor(i * ($4::bigint - $3::bigint)::float8 / $2))::bigint as created_at, random() as u,
              500 + floor(random() * 20000)::bigint as value
            from generate_series(0, $2 - 1) i
          ) g,
          lateral (select case when u < 0.5 then 'paid' when u < 0.7 then 'open' when u < 0.9 then 'expired'
            when u < 0.95 then 'underpaid' when u < 0.98 then 'failed' else 'canceled' end as status) s,
          lateral (select case status when 'paid' then value when 'underpaid' then value / 2 else 0 end as paid) p`,
      [merchantId, count, from, to],
    )
    // What the triggers would have added, row by row.
    await client.query(
      `insert into payment_counts as c (merchant_id, status, store_id, count)
        select merchant_id, status, coalesce(store_id, ''), count(*) from payments where merchant_id = $1 and description like 'Order #%'
        group by 1, 2, 3
        on conflict (merchant_id, status, store_id) do update set count = c.count + excluded.count`,
      [merchantId],
    )
    await client.query(
      `insert into payment_day_counts as c (merchant_id, day, status, store_id, count)
        select merchant_id, floor(created_at / 86400000.0)::bigint, status, coalesce(store_id, ''), count(*)
        from payments where merchant_id = $1 and description like 'Order #%'
        group by 1, 2, 3, 4
        on conflict (merchant_id, day, status, store_id) do update set count = c.count + excluded.count`,
      [merchantId],
    )
    await client.query('commit')
    // What autovacuum does within a minute of such an insert, done before the lists are measured
    // rather than during them: the counts of a list's boundary days then read the index alone,
    // not a heap row per payment.
    await client.query('vacuum (analyze)')
  })
  return { from, to }
}

async function listFigures(settings: BenchSettings, log: (line: string) => void, adminUrl: string): Promise<Figure[]> {
  return withDatabases(adminUrl, ['paybox_bench_lists'], async ([database]) => {
    const sandbox = await spawnSandbox(database!.url)
    try {
      const merchant = directMerchant(sandbox.banner)
      const size = settings.listPayments.toLocaleString('en-US')
      const started = performance.now()
      const seeded = await seedPayments(database!.url, merchant.id, settings.listPayments)
      log(
        `  seeded ${size} payments (one insert … select generate_series, counts, VACUUM) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      )
      const checked = await withClient(database!.url, async (client) => {
        const { rows } = await client.query<{ counted: string; kept: string }>(
          `select (select count(*) from payments where merchant_id = $1) as counted,
            (select sum(count) from payment_counts where merchant_id = $1) as kept`,
          [merchant.id],
        )
        return rows[0]!
      })
      if (checked.counted !== checked.kept) throw new Error(`payment_counts says ${checked.kept} payments, count(*) ${checked.counted}`)
      return await listQueryFigures(settings, log, 'postgres', sandbox.banner.baseUrl, merchant, seeded, size, ' in PostgreSQL')
    } finally {
      await sandbox.stop()
    }
  })
}
