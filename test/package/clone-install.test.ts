// The library from a clone, as issue 28 tried it: `npm install /path/to/clone` in another project
// builds dist/ (the `prepare` script), so `paybox` and `paybox/sandbox` import and run; the clone's
// own install builds nothing (its CLI runs the sources). Offline: everything comes from the clone,
// whose node_modules (this checkout's, linked) is what its `npm ci` left.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { temporaryDir } from '../../harness/sandbox.js'
import { copyOfCheckout } from '../../harness/tree-copy.js'

const exec = promisify(execFile)
const BUILD_TIMEOUT_MS = 6 * 60_000

let clone: string
let project: string

beforeAll(async () => {
  clone = await copyOfCheckout('paybox-library-clone-')
  project = temporaryDir('paybox-library-user-')
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, type: 'module' }),
  )
  await exec('npm', ['install', '--offline', '--no-audit', '--no-fund', clone], { cwd: project, maxBuffer: 64 * 2 ** 20 })
}, BUILD_TIMEOUT_MS)

describe('paybox installed from a clone (npm install /path/to/clone)', () => {
  it('imports paybox and paybox/sandbox from the built clone: a sandbox on port 0 answers the client', async () => {
    fs.writeFileSync(
      path.join(project, 'use-both.mjs'),
      `import { startSandbox } from 'paybox/sandbox'
import { PayboxClient } from 'paybox'
const sandbox = await startSandbox({ port: 0, db: ':memory:', log: () => {} })
const [merchant] = sandbox.merchants
const client = new PayboxClient({ baseUrl: sandbox.url, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret })
const created = await client.payments.create({ amount: { value: 1250, currency: 'USD' }, description: 'From a clone' })
const read = await client.payments.get(created.id)
await sandbox.stop()
console.log(JSON.stringify({ read, client: import.meta.resolve('paybox'), sandbox: import.meta.resolve('paybox/sandbox') }))
`,
    )
    const { stdout } = await exec(process.execPath, ['use-both.mjs'], { cwd: project })
    const result = JSON.parse(stdout) as { read: { id: string; status: string; description: string }; client: string; sandbox: string }
    expect(result.read).toMatchObject({ id: expect.stringMatching(/^pt_/), status: 'open', description: 'From a clone' })
    // npm links a folder: the clone's own build.
    expect(fs.realpathSync(new URL(result.client))).toBe(path.join(clone, 'dist', 'src', 'index.js'))
    expect(fs.realpathSync(new URL(result.sandbox))).toBe(path.join(clone, 'dist', 'sandbox', 'index.js'))
  })

  it("builds nothing in the clone's own install (prepare run from the clone)", async () => {
    const own = await copyOfCheckout('paybox-own-install-')
    // What `npm ci` runs last; npm sets INIT_CWD to the folder it was run in, here the clone.
    await exec('npm', ['run', 'prepare'], { cwd: own })
    expect(fs.existsSync(path.join(own, 'dist'))).toBe(false)
  })
})
