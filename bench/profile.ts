// Profiles one server under one load: `tsx bench/profile.ts post|get|list [--connections 50] [--seconds 8]
// [--db file|postgres://…] [--no-prof]` spawns the built sandbox with --cpu-prof, drives it, and leaves the
// .cpuprofile in bench/results/profiles/. It also prints the CPU each request cost the sandbox, the load
// generator and, with a PostgreSQL --db on this machine, the cluster's processes (issue #25's per-payment split).
import path from 'node:path'
import pg from 'pg'
import { clusterCpuMs, ownCpuMs, postmasterOf, processCpuMs } from './lib/cpu-usage.js'
import { paymentRequest } from './lib/payment-request.js'
import { runLoad } from './lib/load.js'
import { directMerchant, ROOT, spawnServer, temporaryDir, type SandboxBanner } from './lib/processes.js'
import { PayboxClient } from '../src/client/paybox-client.js'

const [kind = 'post'] = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(process.argv[at + 1])
}
const connections = option('connections', 50)
const seconds = option('seconds', 8)
const dbAt = process.argv.indexOf('--db')
const db = dbAt === -1 ? path.join(temporaryDir('paybox-profile-'), 'sandbox.db') : process.argv[dbAt + 1]!
const home = temporaryDir('paybox-profile-home-')
const profiles = path.join(ROOT, 'bench', 'results', 'profiles')
const prof = process.argv.includes('--no-prof') ? [] : ['--cpu-prof', `--cpu-prof-dir=${profiles}`]
const sandbox = await spawnServer<SandboxBanner>([...prof, 'bin/run.js', 'sandbox', 'start', '--port', '0', '--json', '--db', db], {
  PAYBOX_HOME: home,
  PAYBOX_CONFIG_DIR: path.join(home, 'config'),
})
const merchant = directMerchant(sandbox.banner)
const credentials = { apiKey: merchant.apiKey, apiSecret: merchant.apiSecret }
const url = sandbox.banner.baseUrl
let n = 0

/** The PostgreSQL cluster's postmaster, found by the backend a query runs on (a --db on this machine); undefined for SQLite. */
async function postmaster(): Promise<number | undefined> {
  if (!db.startsWith('postgres')) return undefined
  const client = new pg.Client({ connectionString: db })
  await client.connect()
  try {
    return postmasterOf((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid)
  } finally {
    await client.end()
  }
}

const cluster = await postmaster()
const cpuBefore = {
  sandbox: processCpuMs(sandbox.child.pid!),
  load: ownCpuMs(),
  postgres: cluster === undefined ? 0 : clusterCpuMs(cluster),
}
function printCpuSplit(requests: number): void {
  const per = (ms: number) => (ms / requests).toFixed(3)
  console.log(
    `CPU per request over ${requests} requests: sandbox ${per(processCpuMs(sandbox.child.pid!) - cpuBefore.sandbox)} ms, ` +
      `load generator ${per(ownCpuMs() - cpuBefore.load)} ms` +
      (cluster === undefined ? '' : `, PostgreSQL ${per(clusterCpuMs(cluster) - cpuBefore.postgres)} ms`),
  )
}
if (kind === 'post') {
  const r = await runLoad({
    url,
    credentials,
    connections,
    durationSeconds: seconds,
    method: 'POST',
    path: () => '/payments',
    body: (i) => JSON.stringify(paymentRequest(i)),
    headers: () => ({ 'idempotency-key': `p-${Date.now()}-${n++}` }),
  })
  printCpuSplit(r.requests)
  const { latenciesMs: _, ...figures } = r
  console.log(figures)
} else if (kind === 'get') {
  const client = new PayboxClient({ baseUrl: url, ...credentials })
  const ids: string[] = []
  for (let i = 0; i < 50; i++) ids.push((await client.payments.create(paymentRequest(i))).id)
  console.log(
    await runLoad({
      url,
      credentials,
      connections,
      durationSeconds: seconds,
      method: 'GET',
      path: (i) => `/payments/${ids[i % ids.length]}`,
    }),
  )
} else {
  const paths = ['/payments?limit=20', '/payments?limit=20&status=paid', '/payments?limit=20&storeId=store-2']
  console.log(
    await runLoad({ url, credentials, connections, durationSeconds: seconds, method: 'GET', path: (i) => paths[i % paths.length]! }),
  )
}
await sandbox.stop()
if (prof.length > 0) console.log(`profile in ${profiles}`)
