// POST /payments and GET /payments/{id} against the sandbox, each beside the control server
// doing the least the same request needs (bench/servers/control-server.ts), in the same run.
import path from 'node:path'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { figure, type Figure } from '../lib/figures.js'
import { runLoad, signedHeaders, type Credentials, type LoadResult } from '../lib/load.js'
import { directMerchant, spawnSandbox, spawnServer, temporaryDir } from '../lib/processes.js'
import { alternateRounds } from '../lib/rounds.js'
import type { BenchSettings } from '../lib/settings.js'
import { paymentRequest } from '../lib/payment-request.js'

interface ControlBanner extends Credentials {
  url: string
}

export async function apiFigures(settings: BenchSettings, log: (line: string) => void): Promise<{ figures: Figure[]; rssBytes?: number }> {
  const dir = temporaryDir('paybox-bench-api-')
  const durable = settings.durable ? ['--durable'] : []
  const control = await spawnServer<ControlBanner>([
    '--import',
    'tsx',
    'bench/servers/control-server.ts',
    path.join(dir, 'control.db'),
    ...durable,
  ])
  const sandbox = await spawnSandbox(path.join(dir, 'sandbox.db'), ['--ledger-close', '5s', ...durable])
  try {
    const merchant = directMerchant(sandbox.banner)
    const credentials = { apiKey: merchant.apiKey, apiSecret: merchant.apiSecret }
    const runId = Date.now().toString(36)
    const load = (
      url: string,
      creds: Credentials,
      connections: number,
      seconds: number,
      method: 'GET' | 'POST',
      pathOf: (n: number) => string,
      body?: (n: number) => string,
      headers?: (n: number) => Record<string, string>,
    ) => runLoad({ url, credentials: creds, connections, durationSeconds: seconds, method, path: pathOf, body, headers })
    const controlWrite = (connections: number, seconds: number) =>
      load(
        control.banner.url,
        control.banner,
        connections,
        seconds,
        'POST',
        () => '/control/items',
        (n) => JSON.stringify(paymentRequest(n)),
      )
    let keys = 0
    const sandboxWrite = (connections: number, seconds: number) =>
      load(
        sandbox.banner.baseUrl,
        credentials,
        connections,
        seconds,
        'POST',
        () => '/payments',
        (n) => JSON.stringify(paymentRequest(n)),
        () => ({
          'idempotency-key': `bench-${runId}-${keys++}`,
        }),
      )

    log('  warming up both servers')
    await controlWrite(8, settings.warmupSeconds)
    await sandboxWrite(8, settings.warmupSeconds)

    const figures: Figure[] = []
    const pair = (
      label: string,
      connections: number,
      subject: (seconds: number) => Promise<LoadResult>,
      reference: (seconds: number) => Promise<LoadResult>,
    ) => alternateRounds(settings, log, label, connections, subject, reference)

    for (const connections of [8, 50]) {
      const { c, s } = await pair(
        'POST /payments',
        connections,
        (seconds) => sandboxWrite(connections, seconds),
        (seconds) => controlWrite(connections, seconds),
      )
      const heavy = connections === 50
      figures.push(
        figure('api', `POST /payments @${connections} conn`, s.requestsPerSecond, 'req/s', {
          control: { name: 'control write', value: c.requestsPerSecond },
          goal: heavy ? '≥ 0.5× control' : undefined,
          met: heavy ? s.requestsPerSecond >= 0.5 * c.requestsPerSecond : undefined,
        }),
        figure('api', `POST /payments @${connections} conn p50`, s.p50Ms, 'ms', { control: { name: 'control write', value: c.p50Ms } }),
        figure('api', `POST /payments @${connections} conn p99`, s.p99Ms, 'ms', {
          control: { name: 'control write', value: c.p99Ms },
          goal: heavy ? '≤ 25 ms' : undefined,
          met: heavy ? s.p99Ms <= 25 : undefined,
        }),
      )
    }

    // Reads of existing rows, spread over a few hundred of them.
    const client = new PayboxClient({ baseUrl: sandbox.banner.baseUrl, ...credentials })
    const paymentIds = (await client.payments.list({ limit: 100 })).items.map((p) => p.id)
    const itemIds: string[] = []
    for (let i = 0; i < 100; i++) {
      const body = JSON.stringify(paymentRequest(i))
      const response = await fetch(`${control.banner.url}/control/items`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...signedHeaders(control.banner, 'POST', '/control/items', body) },
      })
      itemIds.push(((await response.json()) as { id: string }).id)
    }
    const { c: readC, s: readS } = await pair(
      'GET /payments/{id}',
      50,
      (seconds) => load(sandbox.banner.baseUrl, credentials, 50, seconds, 'GET', (n) => `/payments/${paymentIds[n % paymentIds.length]}`),
      (seconds) => load(control.banner.url, control.banner, 50, seconds, 'GET', (n) => `/control/items/${itemIds[n % itemIds.length]}`),
    )
    figures.push(
      figure('api', 'GET /payments/{id} @50 conn', readS.requestsPerSecond, 'req/s', {
        control: { name: 'control read', value: readC.requestsPerSecond },
        goal: '≥ 0.6× control',
        met: readS.requestsPerSecond >= 0.6 * readC.requestsPerSecond,
      }),
      figure('api', 'GET /payments/{id} @50 conn p99', readS.p99Ms, 'ms', { control: { name: 'control read', value: readC.p99Ms } }),
    )
    return { figures, rssBytes: sandbox.rssBytes() }
  } finally {
    await Promise.all([sandbox.stop(), control.stop()])
  }
}
