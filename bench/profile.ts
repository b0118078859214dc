// Profiles one server under one load: `tsx bench/profile.ts post|get|list [--connections 50] [--seconds 8]
// [--db file|postgres://…] [--no-prof]` spawns the built sandbox with --cpu-prof, drives it, and leaves the
// .cpuprofile in bench/results/profiles/. It also prints the CPU each request cost the sandbox, the load
// generator and, with a PostgreSQL --db on this machine, the cluster's processes (issue #25's per-payment split).
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
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

/** CPU time (user + system) of a process so far, in ms, from /proc (Linux). */
function cpuMsOf(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return 0
  }
}

/** The PostgreSQL server's processes (the postmaster and its children), found by the backend a query runs on. */
async function postgresPids(): Promise<number[]> {
  if (!db.startsWith('postgres')) return []
  const client = new pg.Client({ connectionString: db })
  await client.connect()
  const ppidOf = (pid: number) => Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1])
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid')
  const postmaster = ppidOf(rows[0]!.pid)
  await client.end()
  const children = fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return ppidOf(pid) === postmaster
      } catch {
        return false
      }
    })
  return [postmaster, ...children]
}

// Backends the pool opens during the load count from zero; one that ended before the second reading would be missed.
const pgBefore = new Map((await postgresPids()).map((pid) => [pid, cpuMsOf(pid)]))
const cpuBefore = { sandbox: cpuMsOf(sandbox.child.pid!), load: process.cpuUsage() }
async function printCpuSplit(requests: number): Promise<void> {
  const load = process.cpuUsage(cpuBefore.load)
  const pgAfter = await postgresPids()
  const pgMs = pgAfter.reduce((sum, pid) => sum + cpuMsOf(pid) - (pgBefore.get(pid) ?? 0), 0)
  const per = (ms: number) => (ms / requests).toFixed(3)
  console.log(
    `CPU per request over ${requests} requests: sandbox ${per(cpuMsOf(sandbox.child.pid!) - cpuBefore.sandbox)} ms, ` +
      `load generator ${per((load.user + load.system) / 1000)} ms` +
      (pgAfter.length > 0 ? `, PostgreSQL ${per(pgMs)} ms (${pgAfter.length} processes)` : ''),
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
  await printCpuSplit(r.requests)
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
