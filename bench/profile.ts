// Profiles one server under one load: `tsx bench/profile.ts post|get|list [--connections 50] [--seconds 8]`
// spawns the built sandbox with --cpu-prof, drives it, and leaves the .cpuprofile in bench/results/profiles/.
import path from 'node:path'
import { paymentRequest } from './sections/api.js'
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
const sandbox = await spawnServer<SandboxBanner>(
  ['--cpu-prof', `--cpu-prof-dir=${profiles}`, 'bin/run.js', 'sandbox', 'start', '--port', '0', '--json', '--db', db],
  { PAYBOX_HOME: home, PAYBOX_CONFIG_DIR: path.join(home, 'config') },
)
const merchant = directMerchant(sandbox.banner)
const credentials = { apiKey: merchant.apiKey, apiSecret: merchant.apiSecret }
const url = sandbox.banner.baseUrl
let n = 0
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
  console.log(r)
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
console.log(`profile in ${profiles}`)
