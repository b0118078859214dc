// Webhook backlogs drained by PostgreSQL replicas (each claims and sends its share), over 10
// merchants and 10 receivers and of one merchant to one receiver, each beside bare undici sending the
// same signed POSTs at the sandbox's concurrency; and the event-to-receiver time on the follower.
import { randomUUID } from 'node:crypto'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { CHANGES_CHANNEL } from '../../sandbox/db/postgres-database.js'
import { figure, type Figure } from '../lib/figures.js'
import { directMerchant, spawnSandbox, type SandboxBanner, type ServerProcess } from '../lib/processes.js'
import { eventToReceiverLatencies, startReceiver, type Receiver } from '../lib/receiver.js'
import { sendBare, type BarePost } from '../lib/bare-webhook-sender.js'
import { MAX_DELIVERIES_PER_MERCHANT } from '../../sandbox/webhooks/delivery-queue.js'
import { MAX_DELIVERIES_PER_ORIGIN } from '../../sandbox/webhooks/webhook-sender.js'
import { copyMerchant } from '../../harness/postgres.js'
import { waitFor } from '../../harness/wait.js'
import type { BenchSettings } from '../lib/settings.js'
import { paymentRequest } from '../lib/payment-request.js'
import { withClient, withDatabases } from '../lib/postgres-bench.js'
import { clusterCpuMs, ownCpuMs, postmasterOf, processCpuMs } from '../lib/cpu-usage.js'

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
/** Webhooks the receivers have had so far, duplicates included. */
const arrivals = (receivers: readonly Receiver[]) => receivers.reduce((sum, receiver) => sum + receiver.count, 0)
const arrivalsOf = (receivers: readonly Receiver[], id: string) =>
  receivers.reduce((sum, receiver) => sum + (receiver.arrivals.get(id)?.length ?? 0), 0)

/** A logged delivery the backlogs and the control copy: its payload is a real event's. */
async function templateDelivery(url: string): Promise<{ id: string; subject_id: string; request_payload: string }> {
  return withClient(url, async (db) => (await db.query("select * from webhook_deliveries where status = 'success' limit 1")).rows[0])
}

/** CPU ms so far of the replicas, the PostgreSQL cluster, and the bench's own process (the receivers run in it). */
interface CpuSplit {
  replicasMs: number
  postgresMs: number
  receiversMs: number
}

/** Where a drain's CPU went, per 1,000 deliveries. */
const describeCpu = (before: CpuSplit, after: CpuSplit, count: number) => {
  const per = (key: keyof CpuSplit) => Math.round(((after[key] - before[key]) * 1000) / count)
  return `CPU per 1,000: replicas ${per('replicasMs')} ms, PostgreSQL ${per('postgresMs')} ms, receivers ${per('receiversMs')} ms`
}

/**
 * Queues `count` pending deliveries (copies of a logged one, about payments `prefix…`, spread as
 * `spread` says) in one transaction and waits until every one is logged: the seconds from its
 * COMMIT, how many reached a receiver more than once, and where the CPU went meanwhile. Throws if
 * any failed or never arrived.
 */
async function drainBacklog(
  url: string,
  receivers: readonly Receiver[],
  prefix: string,
  count: number,
  spread: Spread,
  cpu: () => CpuSplit,
): Promise<{ seconds: number; duplicates: number; cpu: string }> {
  let before = cpu()
  let after = before
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
    const arrivedBefore = arrivals(receivers)
    before = cpu()
    await db.query('commit')
    const started = performance.now()
    // PostgreSQL is probed only once every delivery has reached a receiver (this process's, so
    // watching them costs the drain nothing): probed every 10 ms from the COMMIT, the pending index
    // (with the entries of every delivery logged since its vacuum) took 1.8 ms and 660 pages a
    // probe, about a seventh of PostgreSQL's CPU in a drain, which the bare sender's control never pays.
    await waitFor('the backlog to reach the receivers', () => arrivals(receivers) >= arrivedBefore + count, 180_000)
    const drained = async () =>
      (await db.query("select not exists (select 1 from webhook_deliveries where status = 'pending') as drained")).rows[0]
        .drained as boolean
    await waitFor('the backlog to be logged', drained, 60_000)
    const elapsed = (performance.now() - started) / 1000
    after = cpu()
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
  return { seconds, duplicates, cpu: describeCpu(before, after, count) }
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
/** Drains of the spread backlog on two replicas, whose median is the figure. */
const SPREAD_DRAINS = 3

export async function webhookFigures(settings: BenchSettings, log: (line: string) => void, adminUrl: string): Promise<Figure[]> {
  return withDatabases(adminUrl, ['paybox_bench_webhooks'], async ([database]) => {
    // One server per receiver: a port of its own is an origin of its own, with its own cap.
    const receivers = await Promise.all(Array.from({ length: SPREAD }, () => startReceiver()))
    const receiver = receivers[0]!
    const replicas = [await spawnSandbox(database!.url), await spawnSandbox(database!.url)]
    const postmaster = await withClient(database!.url, async (db) =>
      postmasterOf((await db.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid),
    )
    const cpu = (): CpuSplit => ({
      replicasMs: replicas.reduce((sum, replica) => sum + (replica.child.exitCode === null ? processCpuMs(replica.child.pid!) : 0), 0),
      postgresMs: clusterCpuMs(postmaster),
      receiversMs: ownCpuMs(),
    })
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
      const merchants = await copyMerchant(database!.url, merchant.id, SPREAD - 1)
      const spread: Spread = { merchants, urls: receivers.map((r) => r.url) }
      const single: Spread = { merchants: [merchant.id], urls: [receiver.url] }
      const rate = (seconds: number) => backlog / seconds
      const described = (what: string, drained: { seconds: number; cpu: string }, control: number) =>
        log(
          `  ${what}: logged in ${drained.seconds.toFixed(2)} s, ${Math.round(rate(drained.seconds))} deliveries/s (bare undici ${Math.round(control)}/s); ${drained.cpu}`,
        )

      const bareSpread = await bareRate(template, merchant.apiSecret, 'pt_bare_spread', backlog, spread)
      // The goal's figure is the median of a few drains: one drain's rate on this machine ranged
      // from 990 to 1,850/s for the same build, so one alone says little of a change.
      const twoSpreads: Array<Awaited<ReturnType<typeof drainBacklog>>> = []
      for (let round = 1; round <= SPREAD_DRAINS; round++) {
        const drain = await drainBacklog(database!.url, receivers, `pt_spread2_${round}_`, backlog, spread, cpu)
        described(`backlog of ${backlog} over ${SPREAD} merchants and receivers, two replicas (drain ${round})`, drain, bareSpread)
        twoSpreads.push(drain)
      }
      const bySpeed = [...twoSpreads].sort((a, b) => a.seconds - b.seconds)
      const twoSpread = bySpeed[Math.floor(bySpeed.length / 2)]!
      const spreadRange = `median of ${SPREAD_DRAINS} drains, ${Math.round(rate(bySpeed.at(-1)!.seconds))}–${Math.round(rate(bySpeed[0]!.seconds))}/s`
      const bareSingle = await bareRate(template, merchant.apiSecret, 'pt_bare_single', backlog, single)
      const twoSingle = await drainBacklog(database!.url, receivers, 'pt_single2', backlog, single, cpu)
      described(`backlog of ${backlog} of one merchant to one receiver, two replicas`, twoSingle, bareSingle)
      await replicas[1 - leader]!.stop()
      const oneSpread = await drainBacklog(database!.url, receivers, 'pt_spread1', backlog, spread, cpu)
      described(`backlog of ${backlog} over ${SPREAD} merchants and receivers, one replica`, oneSpread, bareSpread)

      const backlogDuplicates = twoSpreads.reduce((sum, drain) => sum + drain.duplicates, 0) + twoSingle.duplicates
      let duplicates = backlogDuplicates
      for (const id of ids) duplicates += Math.max(0, arrivalsOf(receivers, id) - 1)
      log(`  ${duplicates} received more than once (${backlogDuplicates} of the two replicas' backlogs)`)
      const size = backlog.toLocaleString('en-US')
      const note =
        'from the backlog COMMIT to the last delivery logged; every replica claims and sends, the receivers are on the same machine'
      /** A drain's figure beside the bare sender at the same concurrency (`slots`). */
      const drained = (
        what: string,
        drain: { seconds: number },
        slots: number,
        bare: number,
        extra: Partial<Parameters<typeof figure>[4]>,
      ) =>
        figure('postgres', `PostgreSQL webhook deliveries logged, ${what}`, rate(drain.seconds), 'deliveries/s', {
          control: { name: `bare undici @${slots}`, value: bare },
          note,
          ...extra,
        })
      const spreadSlots = SPREAD * MAX_DELIVERIES_PER_MERCHANT
      return [
        drained(`2 replicas (backlog of ${size}, ${SPREAD} merchants × ${SPREAD} receivers)`, twoSpread, spreadSlots, bareSpread, {
          goal: '≥ 5,000/s',
          met: rate(twoSpread.seconds) >= 5000,
          note: `${note}; ${spreadRange}; 1 replica: ${Math.round(rate(oneSpread.seconds))}/s`,
        }),
        drained(`2 replicas (backlog of ${size}, 1 merchant → 1 receiver)`, twoSingle, MAX_DELIVERIES_PER_MERCHANT, bareSingle, {
          note: `${note}; bounded by the per-merchant cap of ${MAX_DELIVERIES_PER_MERCHANT} on the wire`,
        }),
        drained(`1 replica (backlog of ${size}, ${SPREAD} merchants × ${SPREAD} receivers)`, oneSpread, spreadSlots, bareSpread, {}),
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
