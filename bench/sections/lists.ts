// Payment lists on a database holding a million payments of one merchant (p99 per query), and
// how long the sandbox takes from spawn to ready on that database, beside an empty one (the
// empty database's own figure, against node -e 0, is the startup section's).
import path from 'node:path'
import { figure, median, type Figure } from '../lib/figures.js'
import { runLoad, type Credentials } from '../lib/load.js'
import { directMerchant, spawnSandbox, temporaryDir } from '../lib/processes.js'
import { seededDatabase } from '../lib/seed-payments.js'
import type { BenchSettings } from '../lib/settings.js'

const LIST_CONNECTIONS = 8
const STARTS = 3

export async function listFigures(settings: BenchSettings, log: (line: string) => void): Promise<{ figures: Figure[]; rssBytes?: number }> {
  const seeded = await seededDatabase(settings.listPayments, log)
  const size = settings.listPayments.toLocaleString('en-US')
  const figures: Figure[] = []

  // The first start migrates the cached file if migrations were added since, and warms the page cache.
  await (await spawnSandbox(seeded.file)).stop()
  const readyTimes = async (file: () => string) => {
    const times: number[] = []
    for (let i = 0; i < STARTS; i++) {
      const sandbox = await spawnSandbox(file())
      times.push(sandbox.readyMs)
      await sandbox.stop()
    }
    return median(times)
  }
  const emptyDir = temporaryDir('paybox-bench-start-')
  let starts = 0
  const emptyReady = await readyTimes(() => path.join(emptyDir, `empty-${starts++}.db`))
  const fullReady = await readyTimes(() => seeded.file)
  log(`  start to ready: empty ${emptyReady.toFixed(0)} ms, ${size} payments ${fullReady.toFixed(0)} ms`)
  figures.push(
    figure('startup', `sandbox start to ready, ${size} payments`, fullReady, 'ms', {
      control: { name: 'empty database', value: emptyReady },
      note: `median of ${STARTS}, spawn of bin/run.js sandbox start to its JSON line`,
    }),
  )

  const sandbox = await spawnSandbox(seeded.file)
  try {
    const merchant = directMerchant(sandbox.banner)
    figures.push(...(await listQueryFigures(settings, log, 'lists', sandbox.banner.baseUrl, merchant, seeded, size)))
    return { figures, rssBytes: sandbox.rssBytes() }
  } finally {
    await sandbox.stop()
  }
}

/**
 * The list filters the bench measures, on payments created between `from` and `to` (epoch ms):
 * plain, by status, by store, a 7-day range, status with a start date, and page 50.
 */
export function listQueries(from: number, to: number): Array<[label: string, path: string]> {
  const week = 7 * 86_400_000
  const middle = Math.floor((from + to) / 2)
  const iso = (ms: number) => new Date(ms).toISOString()
  return [
    ['GET /payments?limit=20', '/payments?limit=20'],
    ['GET /payments?status=paid&limit=20', '/payments?status=paid&limit=20'],
    ['GET /payments?storeId=store-2&limit=20', '/payments?storeId=store-2&limit=20'],
    ['GET /payments?startDate…endDate (7 days)&limit=20', `/payments?startDate=${iso(middle)}&endDate=${iso(middle + week)}&limit=20`],
    ['GET /payments?status=open&startDate…&limit=20', `/payments?status=open&startDate=${iso(middle)}&limit=20`],
    ['GET /payments?page=50&limit=20', '/payments?page=50&limit=20'],
  ]
}

/** Each list query at LIST_CONNECTIONS for a while, one figure (its p99, goal < 50 ms) each. */
export async function listQueryFigures(
  settings: BenchSettings,
  log: (line: string) => void,
  section: string,
  baseUrl: string,
  credentials: Credentials,
  payments: { from: number; to: number },
  size: string,
  labelSuffix = '',
): Promise<Figure[]> {
  const figures: Figure[] = []
  const queries = listQueries(payments.from, payments.to)
  const load = (query: string, durationSeconds: number) =>
    runLoad({ url: baseUrl, credentials, connections: LIST_CONNECTIONS, durationSeconds, method: 'GET', path: () => query })
  // As the API section warms its servers: the first list measured otherwise also paid for the
  // route's first compilation and the database's first reads, and was the slowest in most runs.
  const warmup = settings.warmupSeconds / 4
  log(`  warming up: each list for ${warmup} s`)
  for (const [, query] of queries) await load(query, warmup)
  for (const [label, query] of queries) {
    const result = await load(query, Math.max(2, settings.loadSeconds / 2))
    log(
      `  ${label}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms${result.failures ? `, ${result.failures} FAILED` : ''}`,
    )
    if (result.failures > 0) throw new Error(`${label} had ${result.failures} failed requests`)
    figures.push(
      figure(section, `${label} p99 (${size} payments${labelSuffix}, ${LIST_CONNECTIONS} conn)`, result.p99Ms, 'ms', {
        goal: '< 50 ms',
        met: result.p99Ms < 50,
        note: `${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms.toFixed(1)} ms`,
      }),
    )
  }
  return figures
}
