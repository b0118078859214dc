// `npm run bench`: every performance figure of the sandbox and the CLI beside its control,
// measured in one run on 127.0.0.1, printed as a table and written to bench/results/latest.json.
// --quick runs smaller sizes for a smoke test; --durable measures with synchronous=FULL;
// --only=startup,api,lists,invoices,tenants,webhooks,dashboard,cli,reliability,postgres runs some sections (postgres needs
// PAYBOX_BENCH_POSTGRES_URL or PAYBOX_TEST_POSTGRES_URL, else it says it is skipped); --seed=N reseeds the reliability runs.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { renderTable, type Figure } from './lib/figures.js'
import { ROOT } from './lib/processes.js'
import { benchSettings } from './lib/settings.js'
import { apiFigures } from './sections/api.js'
import { cliFigures } from './sections/cli.js'
import { dashboardFigures } from './sections/dashboard.js'
import { invoiceFigures } from './sections/invoices.js'
import { listFigures } from './sections/lists.js'
import { POSTGRES_SKIPPED, postgresBenchUrl, postgresFigures } from './sections/postgres.js'
import { reliabilityFigures } from './sections/reliability.js'
import { startupFigures } from './sections/startup.js'
import { tenantFigures } from './sections/tenants.js'
import { webhookFigures } from './sections/webhooks.js'

const settings = benchSettings(process.argv.slice(2))
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
const wanted = (section: string) => only === undefined || only.includes(section)
const log = (line: string) => process.stderr.write(`${line}\n`)

if (!fs.existsSync(path.join(ROOT, 'dist', 'commands', 'index.js'))) {
  throw new Error('No built CLI: run `npm run build` first (npm run bench does)')
}

const started = performance.now()
const figures: Figure[] = []
const memory: Record<string, number> = {}
const section = async (name: string, run: () => Promise<Figure[]>) => {
  if (!wanted(name)) return
  const t = performance.now()
  log(`${name}…`)
  figures.push(...(await run()))
  log(`${name} done in ${((performance.now() - t) / 1000).toFixed(1)} s`)
}

// First, while the machine is quiet: start time is the figure most sensitive to other load.
await section('startup', () => startupFigures(settings, log))
await section('api', async () => {
  const { figures: measured, rssBytes } = await apiFigures(settings, log)
  if (rssBytes !== undefined) memory.afterApiLoad = rssBytes
  return measured
})
await section('lists', async () => {
  const { figures: measured, rssBytes } = await listFigures(settings, log)
  if (rssBytes !== undefined) memory.afterListLoad = rssBytes
  return measured
})
await section('invoices', () => invoiceFigures(settings, log))
await section('tenants', () => tenantFigures(settings, log))
await section('webhooks', () => webhookFigures(settings, log))
await section('dashboard', () => dashboardFigures(settings, log))
await section('cli', () => cliFigures(settings, log))
await section('reliability', () => reliabilityFigures(settings, log))
if (postgresBenchUrl() === undefined) {
  if (wanted('postgres')) log(POSTGRES_SKIPPED)
} else await section('postgres', () => postgresFigures(settings, log))

for (const [when, bytes] of Object.entries(memory)) {
  figures.push({
    section: 'memory',
    name: `sandbox RSS ${when === 'afterApiLoad' ? 'after the API load' : `after the list load (${settings.listPayments.toLocaleString('en-US')} payments)`}`,
    value: bytes / 2 ** 20,
    unit: 'MB',
  })
}

const cpus = os.cpus()
const results = {
  date: new Date().toISOString(),
  mode: settings.quick ? 'quick' : 'full',
  synchronous: settings.durable ? 'FULL' : 'NORMAL',
  machine: {
    cores: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    totalMemoryMB: Math.round(os.totalmem() / 2 ** 20),
    loadAverage: os.loadavg(),
  },
  durationSeconds: Math.round((performance.now() - started) / 1000),
  figures,
}

const table = renderTable(figures)
process.stdout.write(
  `\n${table}\n\n${results.machine.cores} cores (${results.machine.cpuModel}), Node ${results.machine.node}, ${results.mode} run in ${results.durationSeconds} s\n`,
)
const resultsDir = path.join(ROOT, 'bench', 'results')
fs.mkdirSync(resultsDir, { recursive: true })
// Only full runs of every section replace latest.json; others are kept beside it.
const name = settings.quick || only !== undefined ? 'partial.tmp.json' : 'latest.json'
fs.writeFileSync(path.join(resultsDir, name), `${JSON.stringify({ ...results, table }, null, 2)}\n`)
log(`Results: bench/results/${name}`)
const missed = figures.filter((f) => f.met === false)
if (missed.length > 0) log(`Goals not met: ${missed.map((f) => f.name).join('; ')}`)
