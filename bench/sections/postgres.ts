// The sandbox over PostgreSQL (a sandbox shared by replicas), each figure beside its goal:
// - POST /payments on one replica, beside the PostgreSQL control (bench/servers/
//   postgres-control-server.ts: node:http, the digest check, one `pg` insert), and on two
//   replicas of one database with the connections spread over both, beside one replica;
// - the scaling model of docs/postgres.md ("How it scales") tested: per-payment CPU of the replica,
//   of PostgreSQL and of the load generator, and from them the throughput predicted for two
//   replicas pinned to one core each, beside the throughput measured;
// - the list queries of the lists section on 1,000,000 payments in PostgreSQL;
// - backlogs of webhook deliveries drained by two replicas (each claims and sends its share), over
//   10 merchants and 10 receivers (10 origins) and of one merchant to one receiver, each received
//   exactly once and each beside bare undici sending the same signed POSTs at the concurrency the
//   sandbox would use (bench/lib/bare-webhook-sender.ts); the spread backlog drained by one replica;
//   and the event-to-receiver time of payments made on the replica that does not lead.
// It needs a cluster where it may create databases: PAYBOX_BENCH_POSTGRES_URL, or else
// PAYBOX_TEST_POSTGRES_URL (scripts/postgres-dev.sh start prints one). Each part runs on a
// database of its own, dropped at the end.
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import pg from 'pg'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { CHANGES_CHANNEL } from '../../sandbox/db/postgres-database.js'
import { clusterCpuMs, ownCpuMs, pinToCpu, postmasterOf, processCpuMs } from '../lib/cpu-usage.js'
import { figure, type Figure } from '../lib/figures.js'
import { runLoad, runLoadSpread, type Credentials, type LoadResult } from '../lib/load.js'
import { directMerchant, spawnSandbox, spawnServer, type SandboxBanner, type ServerProcess } from '../lib/processes.js'
import { eventToReceiverLatencies, startReceiver, type Receiver } from '../lib/receiver.js'
import { sendBare, type BarePost } from '../lib/bare-webhook-sender.js'
import { MAX_DELIVERIES_PER_MERCHANT } from '../../sandbox/webhooks/delivery-queue.js'
import { MAX_DELIVERIES_PER_ORIGIN } from '../../sandbox/webhooks/webhook-sender.js'
import { waitFor } from '../../harness/wait.js'
import { roundRobin } from '../lib/rounds.js'
import type { BenchSettings } from '../lib/settings.js'
import { paymentRequest } from './api.js'
import { listQueryFigures } from './lists.js'

/** The cluster the bench may create databases on, if one was given. */
export function postgresBenchUrl(): string | undefined {
  return process.env.PAYBOX_BENCH_POSTGRES_URL || process.env.PAYBOX_TEST_POSTGRES_URL || undefined
}

export const POSTGRES_SKIPPED =
  'postgres skipped: set PAYBOX_BENCH_POSTGRES_URL (or PAYBOX_TEST_POSTGRES_URL) to a cluster where the bench may create databases, e.g. `eval "$(scripts/postgres-dev.sh start)" && npm run bench -- --only=postgres`'

const WRITE_CONNECTIONS = 50
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

/** Runs `use` with databases of its own on the cluster, dropped afterwards whatever happens. */
async function withDatabases<T>(adminUrl: string, prefixes: string[], use: (databases: TestDatabase[]) => Promise<T>): Promise<T> {
  const databases: TestDatabase[] = []
  try {
    for (const prefix of prefixes) databases.push(await createTestDatabase(prefix, adminUrl))
    return await use(databases)
  } finally {
    for (const database of databases) await database.drop().catch(() => {})
  }
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'paybox-bench' })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

/**
 * A replica put to sleep (SIGSTOP) while it must not take the machine's CPU, and woken (SIGCONT).
 * It is stopped only after the requests a load left in flight (autocannon ends without waiting
 * for them) have finished: stopped inside a transaction, it would hold the write lock and stall
 * every other replica.
 */
async function pause(server: ServerProcess<unknown>, paused: boolean): Promise<void> {
  if (paused) await new Promise((resolve) => setTimeout(resolve, 1_000))
  server.child.kill(paused ? 'SIGSTOP' : 'SIGCONT')
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
      const write = (urls: string[], seconds: number) =>
        runLoadSpread(
          {
            credentials,
            connections: WRITE_CONNECTIONS,
            durationSeconds: seconds,
            method: 'POST',
            path: () => '/payments',
            body: (n) => JSON.stringify(paymentRequest(n)),
            headers: () => ({ 'idempotency-key': `bench-pg-${runId}-${keys++}` }),
          },
          urls,
        )
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
          goal: '≥ 0.9× 1 replica',
          met: two!.requestsPerSecond >= 0.9 * one!.requestsPerSecond,
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

/** CPU ms per POST /payments: in the replica(s), in PostgreSQL (every backend), in the load generator. */
export interface PaymentCosts {
  sandboxMs: number
  postgresMs: number
  loadMs: number
}

/**
 * The model of docs/postgres.md ("How it scales"): payments a second of `replicas` replicas on
 * `cores` cores, min(M / (c_sandbox + c_pg + c_load), N / c_sandbox, 1 / c_contended). Each
 * replica is one Node.js thread, so at most one core's worth; POST /payments locks no row shared
 * by payments (count deltas, no counter row), so the contended term is absent (infinite).
 */
export function predictedPaymentsPerSecond(costs: PaymentCosts, replicas: number, cores: number): number {
  const perPaymentMs = costs.sandboxMs + costs.postgresMs + costs.loadMs
  return Math.min((cores * 1000) / perPaymentMs, (replicas * 1000) / costs.sandboxMs)
}

/**
 * Tests the scaling model on this machine: one replica pinned to core 0 (`taskset`), its
 * per-payment CPU measured with the load (the replica's, PostgreSQL's and the load generator's
 * utime + stime from /proc); then two replicas pinned to cores 0 and 1. PostgreSQL and the load
 * generator are not pinned. The figure is measured ÷ predicted for the two, goal within ±25%.
 */
async function scalingFigures(settings: BenchSettings, log: (line: string) => void, adminUrl: string): Promise<Figure[]> {
  return withDatabases(adminUrl, ['paybox_bench_scaling'], async ([database]) => {
    const first = await spawnSandbox(database!.url, ['--ledger-close', '5s', '--quiet'])
    const second = await spawnSandbox(database!.url, ['--ledger-close', '5s', '--quiet'])
    try {
      pinToCpu(first.child.pid!, 0)
      pinToCpu(second.child.pid!, 1)
      const postmaster = await withClient(database!.url, async (client) =>
        postmasterOf((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid),
      )
      const merchant = directMerchant(first.banner)
      const credentials = { apiKey: merchant.apiKey, apiSecret: merchant.apiSecret }
      const write = (urls: string[], seconds: number) =>
        runLoadSpread(
          {
            credentials,
            connections: WRITE_CONNECTIONS,
            durationSeconds: seconds,
            method: 'POST',
            path: () => '/payments',
            body: (n) => JSON.stringify(paymentRequest(n)),
          },
          urls,
        )
      /** CPU ms of the replicas, the cluster and the bench over each side's rounds, and its requests. */
      const used = [0, 1].map(() => ({ sandboxMs: 0, postgresMs: 0, loadMs: 0, requests: 0 }))
      const measured = (side: number, replicas: Array<ServerProcess<SandboxBanner>>) => async (seconds: number) => {
        const cpu = () => ({
          sandboxMs: replicas.reduce((sum, replica) => sum + processCpuMs(replica.child.pid!), 0),
          postgresMs: clusterCpuMs(postmaster),
          loadMs: ownCpuMs(),
        })
        const before = cpu()
        const result = await write(
          replicas.map((replica) => replica.banner.baseUrl),
          seconds,
        )
        const after = cpu()
        const total = used[side]!
        total.sandboxMs += after.sandboxMs - before.sandboxMs
        total.postgresMs += after.postgresMs - before.postgresMs
        total.loadMs += after.loadMs - before.loadMs
        total.requests += result.requests
        return result
      }
      log('  warming up both pinned replicas')
      await write([first.banner.baseUrl, second.banner.baseUrl], settings.warmupSeconds)
      await pause(second, true)
      const [one, two] = await roundRobin(settings, log, 'PostgreSQL POST /payments, pinned', WRITE_CONNECTIONS, [
        { name: '1 replica on core 0', run: measured(0, [first]) },
        {
          name: '2 replicas on cores 0 and 1',
          run: measured(1, [first, second]),
          before: () => pause(second, false),
          after: () => pause(second, true),
        },
      ])
      const perPayment = (side: number): PaymentCosts => {
        const { sandboxMs, postgresMs, loadMs, requests } = used[side]!
        return { sandboxMs: sandboxMs / requests, postgresMs: postgresMs / requests, loadMs: loadMs / requests }
      }
      const costs = perPayment(0)
      const cores = os.availableParallelism()
      const show = (c: PaymentCosts) =>
        `sandbox ${c.sandboxMs.toFixed(2)} ms, PostgreSQL ${c.postgresMs.toFixed(2)} ms, load generator ${c.loadMs.toFixed(2)} ms`
      log(`  CPU per POST /payments, 1 replica: ${show(costs)}; 2 replicas: ${show(perPayment(1))}`)
      // Cores' worth the measured processes got: on a machine shared with other work, below M.
      const coresUsed = (side: number, result: LoadResult) => {
        const { sandboxMs, postgresMs, loadMs } = used[side]!
        return (sandboxMs + postgresMs + loadMs) / (result.seconds * 1000)
      }
      log(
        `  cores used: 1 replica ${coresUsed(0, one!).toFixed(2)}, 2 replicas ${coresUsed(1, two!).toFixed(2)} (of ${os.availableParallelism()})`,
      )
      // The table of docs/postgres.md ("How it scales"), from this run's costs, load generator included.
      for (const m of [2, 4, 8])
        log(
          `  how it scales, M = ${m} cores: ${[1, 2, 4].map((n) => `N = ${n}: ${Math.round(predictedPaymentsPerSecond(costs, n, m))} req/s`).join(', ')}`,
        )
      const predictedOne = predictedPaymentsPerSecond(costs, 1, cores)
      const predictedTwo = predictedPaymentsPerSecond(costs, 2, cores)
      log(
        `  predicted on ${cores} cores: 1 replica ${Math.round(predictedOne)} req/s (measured ${Math.round(one!.requestsPerSecond)}), 2 replicas ${Math.round(predictedTwo)} req/s (measured ${Math.round(two!.requestsPerSecond)})`,
      )
      // On a machine shared with other work the processes get fewer than M cores: the same model
      // with M = the cores they got while the two ran tests the per-payment costs alone.
      const gotCores = coresUsed(1, two!)
      const predictedOnGot = predictedPaymentsPerSecond(costs, 2, gotCores)
      const extra = perPayment(1).sandboxMs - costs.sandboxMs
      log(
        `  predicted on the ${gotCores.toFixed(2)} cores they got: 2 replicas ${Math.round(predictedOnGot)} req/s; sandbox CPU per payment with 2 replicas ${extra >= 0 ? '+' : ''}${extra.toFixed(2)} ms (each replica's work on hearing the other's commits)`,
      )
      const percent = (100 * two!.requestsPerSecond) / predictedTwo
      const percentOnGot = (100 * two!.requestsPerSecond) / predictedOnGot
      const pinning = 'replicas pinned with taskset -c 0 and -c 1, PostgreSQL and the load generator unpinned'
      return [
        figure('postgres', 'PostgreSQL POST /payments, 2 pinned replicas, measured as % of predicted', percent, '%', {
          goal: '75–125%',
          met: percent >= 75 && percent <= 125,
          note: `predicted ${Math.round(predictedTwo)} req/s from 1 replica's CPU per payment (${show(costs)}) on ${cores} cores; ${pinning}`,
        }),
        figure(
          'postgres',
          'PostgreSQL POST /payments, 2 pinned replicas, measured as % of predicted on the cores they got',
          percentOnGot,
          '%',
          {
            goal: '75–125%',
            met: percentOnGot >= 75 && percentOnGot <= 125,
            note: `predicted ${Math.round(predictedOnGot)} req/s on the ${gotCores.toFixed(2)} cores the replicas, PostgreSQL and the load generator used together; ${pinning}`,
          },
        ),
      ]
    } finally {
      await pause(second, false)
      await Promise.all([first.stop(), second.stop()])
    }
  })
}

/**
 * `count` payments of the merchant, written by one server-side `insert … select generate_series`,
 * spread as the SQLite list database's are (bench/lib/seed-payments.ts): 180 days, six statuses,
 * four stores and none. The count tables' row triggers are off for that statement (this session
 * only: session_replication_role, which needs a superuser, as creating the databases does) and
 * the counts are then added by one grouped insert each; then ANALYZE.
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
    await client.query('analyze')
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
        `  seeded ${size} payments (one insert … select generate_series, counts, ANALYZE) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
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

/** Which of the two replicas leads (sends the webhooks), from /health. */
async function leaderOf(replicas: Array<ServerProcess<SandboxBanner>>): Promise<number> {
  return waitFor(
    'a replica to lead',
    async () => {
      for (const [i, replica] of replicas.entries()) {
        const health = JSON.stringify(await (await fetch(`${replica.banner.baseUrl}/health`)).json())
        if (health.includes('PostgreSQL, leading')) return i
      }
      return undefined
    },
    5_000,
  )
}

/** Who a backlog's deliveries belong to and where they go: delivery i to merchants[i % n], urls[i % n]. */
interface Spread {
  merchants: string[]
  urls: string[]
}

/** The payment id of a backlog's i-th delivery (the receivers key arrivals by it). */
const backlogPaymentId = (prefix: string, i: number) => `${prefix}${String(i).padStart(32 - prefix.length, '0')}`

/** How many times a payment's webhooks reached any of the receivers. */
const arrivalsOf = (receivers: readonly Receiver[], id: string) =>
  receivers.reduce((sum, receiver) => sum + (receiver.arrivals.get(id)?.length ?? 0), 0)

/** Copies of the merchant (same secret), so a backlog spreads over merchants that each have their own cap. */
async function addMerchants(url: string, merchantId: string, copies: number): Promise<string[]> {
  return withClient(url, async (db) => {
    const template = (await db.query('select * from merchants where id = $1', [merchantId])).rows[0] as Record<string, unknown>
    const columns = Object.keys(template)
    const copied: Record<string, string> = { id: "t.id || '_' || k", api_key: "t.api_key || '_' || k", name: "t.name || ' ' || k" }
    const { rows } = await db.query<{ id: string }>(
      `insert into merchants (${columns.join(', ')})
        select ${columns.map((column) => copied[column] ?? `t.${column}`).join(', ')}
        from merchants t, generate_series(1, $2::int) k where t.id = $1 returning id`,
      [merchantId, copies],
    )
    return [merchantId, ...rows.map((row) => row.id)]
  })
}

/** A logged delivery the backlogs and the control copy: its payload is a real event's. */
async function templateDelivery(url: string): Promise<{ id: string; subject_id: string; request_payload: string }> {
  return withClient(url, async (db) => (await db.query("select * from webhook_deliveries where status = 'success' limit 1")).rows[0])
}

/**
 * Queues `count` pending deliveries (copies of a logged one, about payments `prefix…`, spread as
 * `spread` says) in one transaction and waits until every one is logged: the seconds from its
 * COMMIT, and how many reached a receiver more than once. Throws if any failed or never arrived.
 */
async function drainBacklog(
  url: string,
  receivers: readonly Receiver[],
  prefix: string,
  count: number,
  spread: Spread,
): Promise<{ seconds: number; duplicates: number }> {
  const { seconds, failed } = await withClient(url, async (db) => {
    const template = (await db.query("select * from webhook_deliveries where status = 'success' limit 1")).rows[0] as Record<
      string,
      unknown
    >
    // The sequence is the column's identity (left to its default); the copies are not claimed.
    const columns = Object.keys(template).filter((column) => column !== 'sequence')
    const paymentIdOf = `'${prefix}' || lpad(i::text, ${32 - prefix.length}, '0')`
    const values: Record<string, string> = {
      id: 'gen_random_uuid()::text',
      subject_id: paymentIdOf,
      request_payload: `replace(t.request_payload, t.subject_id, ${paymentIdOf})`,
      merchant_id: `($3::text[])[1 + i % ${spread.merchants.length}]`,
      url: `($4::text[])[1 + i % ${spread.urls.length}]`,
      status: "'pending'",
      http_status: 'null',
      response_body: 'null',
      duration_ms: 'null',
      last_attempt_at: 'null',
      claim_token: 'null',
      claimed_until: 'null',
      claimed_by: 'null',
    }
    await db.query('begin')
    await db.query('select pg_notify($1, $2)', [CHANGES_CHANNEL, 'bench'])
    await db.query(
      `insert into webhook_deliveries (${columns.join(', ')})
        select ${columns.map((column) => values[column] ?? `t.${column}`).join(', ')}
        from webhook_deliveries t, generate_series(1, $2::int) i where t.id = $1`,
      [template.id, count, spread.merchants, spread.urls],
    )
    await db.query('commit')
    const started = performance.now()
    // A probe of the pending index, not a count: polled every 10 ms, a count of the backlog took CPU from the replicas.
    const drained = async () =>
      (await db.query("select not exists (select 1 from webhook_deliveries where status = 'pending') as drained")).rows[0]
        .drained as boolean
    await waitFor('the backlog to be logged', drained, 180_000)
    const elapsed = (performance.now() - started) / 1000
    const notSuccessful = Number((await db.query("select count(*) as n from webhook_deliveries where status <> 'success'")).rows[0].n)
    return { seconds: elapsed, failed: notSuccessful }
  })
  // Let any late duplicate arrive before counting.
  await new Promise((resolve) => setTimeout(resolve, 500))
  let duplicates = 0
  let missing = 0
  for (let i = 1; i <= count; i++) {
    const times = arrivalsOf(receivers, backlogPaymentId(prefix, i))
    if (times === 0) missing++
    else duplicates += times - 1
  }
  if (failed > 0 || missing > 0) throw new Error(`Webhook backlog: ${failed} deliveries not successful, ${missing} never received`)
  return { seconds, duplicates }
}

/**
 * The control: the same number of the template's POSTs, each about its own payment and signed,
 * sent by bare undici to the spread's receivers at the concurrency the sandbox would use there
 * (each merchant's cap, each origin's cap, at most every replica's slots); deliveries/s.
 */
async function bareRate(
  template: { subject_id: string; request_payload: string },
  secret: string,
  prefix: string,
  count: number,
  spread: Spread,
): Promise<number> {
  const posts: BarePost[] = []
  for (let i = 1; i <= count; i++) {
    const id = backlogPaymentId(prefix, i)
    posts.push({
      url: spread.urls[i % spread.urls.length]!,
      id: randomUUID(),
      body: template.request_payload.replaceAll(template.subject_id, id),
    })
  }
  // Each origin here is one merchant's, so its share is the smaller of the two caps.
  return count / (await sendBare(posts, secret, Math.min(MAX_DELIVERIES_PER_MERCHANT, MAX_DELIVERIES_PER_ORIGIN)))
}

/** Merchants and receivers of the spread backlog: each merchant's deliveries go to a receiver (origin) of its own. */
const SPREAD = 10

async function webhookFigures(settings: BenchSettings, log: (line: string) => void, adminUrl: string): Promise<Figure[]> {
  return withDatabases(adminUrl, ['paybox_bench_webhooks'], async ([database]) => {
    // One server per receiver: a port of its own is an origin of its own, with its own cap.
    const receivers = await Promise.all(Array.from({ length: SPREAD }, () => startReceiver()))
    const receiver = receivers[0]!
    const replicas = [await spawnSandbox(database!.url), await spawnSandbox(database!.url)]
    try {
      const leader = await leaderOf(replicas)
      const follower = replicas[1 - leader]!
      const merchant = directMerchant(follower.banner)

      // 1. Event to receiver across replicas: payments made on the replica that does not lead,
      // one after another; the replica that claims it sends.
      const client = new PayboxClient({ baseUrl: follower.banner.baseUrl, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret })
      const { p50, p99, ids } = await eventToReceiverLatencies(client, receiver, settings.webhookLatencySamples, paymentRequest)
      log(`  event on the follower to receiver: p50 ${p50} ms, p99 ${p99} ms over ${ids.length} payments`)

      // 2. Backlogs queued in one transaction (announced as a commit is) while both replicas run,
      // from its COMMIT to the last one logged: spread over 10 merchants and 10 receivers, then one
      // merchant's to one receiver (its cap bounds it); each beside bare undici sending the same.
      const backlog = settings.webhookBacklog
      const template = await templateDelivery(database!.url)
      const merchants = await addMerchants(database!.url, merchant.id, SPREAD - 1)
      const spread: Spread = { merchants, urls: receivers.map((r) => r.url) }
      const single: Spread = { merchants: [merchant.id], urls: [receiver.url] }
      const rate = (seconds: number) => backlog / seconds
      const described = (what: string, seconds: number, control: number) =>
        log(
          `  ${what}: logged in ${seconds.toFixed(2)} s, ${Math.round(rate(seconds))} deliveries/s (bare undici ${Math.round(control)}/s)`,
        )

      const bareSpread = await bareRate(template, merchant.apiSecret, 'pt_bare_spread', backlog, spread)
      const twoSpread = await drainBacklog(database!.url, receivers, 'pt_spread2', backlog, spread)
      described(`backlog of ${backlog} over ${SPREAD} merchants and receivers, two replicas`, twoSpread.seconds, bareSpread)
      const bareSingle = await bareRate(template, merchant.apiSecret, 'pt_bare_single', backlog, single)
      const twoSingle = await drainBacklog(database!.url, receivers, 'pt_single2', backlog, single)
      described(`backlog of ${backlog} of one merchant to one receiver, two replicas`, twoSingle.seconds, bareSingle)
      await replicas[1 - leader]!.stop()
      const oneSpread = await drainBacklog(database!.url, receivers, 'pt_spread1', backlog, spread)
      described(`backlog of ${backlog} over ${SPREAD} merchants and receivers, one replica`, oneSpread.seconds, bareSpread)

      const backlogDuplicates = twoSpread.duplicates + twoSingle.duplicates
      let duplicates = backlogDuplicates
      for (const id of ids) duplicates += Math.max(0, arrivalsOf(receivers, id) - 1)
      log(`  ${duplicates} received more than once (${backlogDuplicates} of the two replicas' backlogs)`)
      const size = backlog.toLocaleString('en-US')
      const note =
        'from the backlog COMMIT to the last delivery logged; every replica claims and sends, the receivers are on the same machine'
      return [
        figure(
          'postgres',
          `PostgreSQL webhook deliveries logged, 2 replicas (backlog of ${size}, ${SPREAD} merchants × ${SPREAD} receivers)`,
          rate(twoSpread.seconds),
          'deliveries/s',
          {
            control: { name: `bare undici @${SPREAD * MAX_DELIVERIES_PER_MERCHANT}`, value: bareSpread },
            goal: '≥ 5,000/s',
            met: rate(twoSpread.seconds) >= 5000,
            note: `${note}; 1 replica: ${Math.round(rate(oneSpread.seconds))}/s`,
          },
        ),
        figure(
          'postgres',
          `PostgreSQL webhook deliveries logged, 2 replicas (backlog of ${size}, 1 merchant → 1 receiver)`,
          rate(twoSingle.seconds),
          'deliveries/s',
          {
            control: { name: `bare undici @${MAX_DELIVERIES_PER_MERCHANT}`, value: bareSingle },
            note: `${note}; bounded by the per-merchant cap of ${MAX_DELIVERIES_PER_MERCHANT} on the wire`,
          },
        ),
        figure(
          'postgres',
          `PostgreSQL webhook deliveries logged, 1 replica (backlog of ${size}, ${SPREAD} merchants × ${SPREAD} receivers)`,
          rate(oneSpread.seconds),
          'deliveries/s',
          {
            control: { name: `bare undici @${SPREAD * MAX_DELIVERIES_PER_MERCHANT}`, value: bareSpread },
            note,
          },
        ),
        figure('postgres', 'PostgreSQL webhook duplicates at the receivers, 2 replicas', duplicates, 'deliveries', {
          goal: '0',
          met: duplicates === 0,
          note: `${backlogDuplicates} of the backlogs, ${duplicates - backlogDuplicates} of the ${ids.length} created events`,
        }),
        figure('postgres', 'PostgreSQL webhook event on the follower → receiver p50', p50, 'ms', {
          goal: '< 20 ms',
          met: p50 < 20,
          note: `p99 ${p99} ms`,
        }),
      ]
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()))
      await Promise.all(receivers.map((r) => r.close()))
    }
  })
}
