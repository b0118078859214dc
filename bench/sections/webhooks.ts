// Webhook delivery to a local receiver: the time from a payment event to the receiver (p50),
// and how fast a backlog of queued deliveries is sent and logged (deliveries/s, the dispatcher
// sending at most 10 at once), each delivered exactly once.
// PAYBOX_BENCH_PROFILE_WEBHOOKS=1 runs the draining sandbox under --cpu-prof (bench/results/profiles/).
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { v4 as uuidv4 } from 'uuid'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { figure, type Figure } from '../lib/figures.js'
import { directMerchant, ROOT, spawnSandbox, spawnServer, temporaryDir, type SandboxBanner } from '../lib/processes.js'
import { eventToReceiverLatencies, startReceiver } from '../lib/receiver.js'
import { waitFor } from '../../harness/wait.js'
import type { BenchSettings } from '../lib/settings.js'
import { paymentRequest } from '../lib/payment-request.js'

export async function webhookFigures(settings: BenchSettings, log: (line: string) => void): Promise<Figure[]> {
  const dbFile = path.join(temporaryDir('paybox-bench-webhooks-'), 'sandbox.db')
  const receiver = await startReceiver()
  try {
    // 1. Event to receiver: payments created one after another, each reporting to the receiver.
    let sandbox = await spawnSandbox(dbFile)
    const merchant = directMerchant(sandbox.banner)
    const client = new PayboxClient({ baseUrl: sandbox.banner.baseUrl, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret })
    const { p50, p99, ids } = await eventToReceiverLatencies(client, receiver, settings.webhookLatencySamples, paymentRequest)
    log(`  event to receiver: p50 ${p50} ms, p99 ${p99} ms over ${ids.length} payments`)
    await sandbox.stop()

    // 2. A backlog queued while the sandbox is down, drained after it starts: deliveries/s logged.
    const db = new BetterSqlite3(dbFile)
    const template = db.prepare("select * from webhook_deliveries where status = 'success' limit 1").get() as Record<string, unknown>
    const { last } = db.prepare('select max(sequence) as last from webhook_deliveries').get() as { last: number }
    const templatePaymentId = String(template.subject_id)
    const insert = db.prepare(
      `insert into webhook_deliveries (${Object.keys(template).join(', ')}) values (${Object.keys(template)
        .map((c) => `@${c}`)
        .join(', ')})`,
    )
    const backlogIds: string[] = []
    db.transaction(() => {
      for (let i = 0; i < settings.webhookBacklog; i++) {
        // Each its own (made-up) payment, so the dispatcher may send them in parallel.
        const paymentId = `pt_backlog${String(i).padStart(22, '0')}`
        backlogIds.push(paymentId)
        insert.run({
          ...template,
          id: uuidv4(),
          sequence: last + 1 + i,
          subject_id: paymentId,
          request_payload: String(template.request_payload).replaceAll(templatePaymentId, paymentId),
          status: 'pending',
          http_status: null,
          response_body: null,
          duration_ms: null,
          last_attempt_at: null,
        })
      }
    })()
    db.close()

    sandbox = process.env.PAYBOX_BENCH_PROFILE_WEBHOOKS ? await spawnProfiledSandbox(dbFile) : await spawnSandbox(dbFile)
    const started = performance.now()
    const reader = new BetterSqlite3(dbFile, { readonly: true })
    const pending = reader.prepare("select count(*) as n from webhook_deliveries where status = 'pending'")
    await waitFor('the backlog to be logged', () => (pending.get() as { n: number }).n === 0, 120_000)
    const seconds = (performance.now() - started) / 1000
    const failed = (reader.prepare("select count(*) as n from webhook_deliveries where status <> 'success'").get() as { n: number }).n
    reader.close()
    await sandbox.stop()
    const twice = backlogIds.filter((id) => (receiver.arrivals.get(id)?.length ?? 0) !== 1).length
    if (failed > 0 || twice > 0) throw new Error(`Webhook backlog: ${failed} deliveries not successful, ${twice} not received exactly once`)
    const rate = settings.webhookBacklog / seconds
    log(`  backlog of ${settings.webhookBacklog}: logged in ${seconds.toFixed(2)} s, ${Math.round(rate)} deliveries/s, each received once`)

    return [
      figure(
        'webhooks',
        `webhook deliveries logged (backlog of ${settings.webhookBacklog.toLocaleString('en-US')}, concurrency 10)`,
        rate,
        'deliveries/s',
        {
          goal: '≥ 5,000/s',
          met: rate >= 5000,
          note: 'from sandbox ready to the last delivery logged; includes the receiver on the same machine',
        },
      ),
      figure('webhooks', 'webhook event to receiver p50', p50, 'ms', {
        goal: '< 20 ms',
        met: p50 < 20,
        note: `p99 ${p99} ms`,
      }),
    ]
  } finally {
    await receiver.close()
  }
}

/** The sandbox as spawnSandbox starts it, under the CPU profiler: the profile is written when it stops. */
function spawnProfiledSandbox(dbFile: string) {
  const home = temporaryDir('paybox-bench-home-')
  const profiles = path.join(ROOT, 'bench', 'results', 'profiles')
  return spawnServer<SandboxBanner>(
    ['--cpu-prof', `--cpu-prof-dir=${profiles}`, 'bin/run.js', 'sandbox', 'start', '--port', '0', '--json', '--db', dbFile],
    {
      PAYBOX_HOME: home,
      PAYBOX_CONFIG_DIR: path.join(home, 'config'),
    },
  )
}
