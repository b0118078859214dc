// `paybox/sandbox` as a user gets it: the package packed (`npm pack`, which builds it) and
// installed from the tarball into an empty project (dependencies from the npm cache where it has
// them), then imported by that project's own code, typed and run. Slow: the install builds
// better-sqlite3 from source (about two minutes on two busy cores, most of this file's run time).
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../harness/cli.js'
import { temporaryDir } from '../../harness/sandbox.js'
import { copyOfCheckout } from '../../harness/tree-copy.js'

const exec = promisify(execFile)
const INSTALL_TIMEOUT_MS = 8 * 60_000

let project: string

beforeAll(async () => {
  // Packed from a copy, whose build leaves this checkout's dist/ to the tests running beside this one.
  const checkout = await copyOfCheckout('paybox-pack-')
  const packed = temporaryDir('paybox-tarball-')
  await exec('npm', ['pack', '--pack-destination', packed], { cwd: checkout, maxBuffer: 64 * 2 ** 20 })
  const tarball = path.join(
    packed,
    fs.readdirSync(packed).find((name) => name.endsWith('.tgz'))!,
  )
  project = temporaryDir('paybox-user-')
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, type: 'module' }),
  )
  await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: project, maxBuffer: 64 * 2 ** 20 })
}, INSTALL_TIMEOUT_MS)

describe('paybox/sandbox, installed from the packed tarball', () => {
  it('starts a sandbox in-process on port 0 with :memory:, which the client talks to, and stops it', async () => {
    fs.writeFileSync(
      path.join(project, 'in-process.mjs'),
      `import { startSandbox } from 'paybox/sandbox'
import { PayboxClient } from 'paybox'
const sandbox = await startSandbox({ port: 0, db: ':memory:', log: () => {} })
const [merchant] = sandbox.merchants
const client = new PayboxClient({ baseUrl: sandbox.url, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret })
const payment = await client.payments.create({ amount: { value: 1250, currency: 'USD' }, description: 'From a user project' })
const health = await fetch(sandbox.url + '/health')
await sandbox.stop()
console.log(JSON.stringify({ url: sandbox.url, payment, requestId: health.headers.get('request-id'), from: import.meta.resolve('paybox/sandbox') }))
`,
    )
    const { stdout } = await exec(process.execPath, ['in-process.mjs'], { cwd: project })
    const result = JSON.parse(stdout) as { url: string; payment: { id: string; status: string }; requestId: string; from: string }
    expect(result.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(result.url.endsWith(':0')).toBe(false)
    expect(result.payment).toMatchObject({ id: expect.stringMatching(/^pt_/), status: 'open' })
    expect(result.requestId).toMatch(/^req_/)
    // The installed copy, not this checkout.
    expect(result.from).toBe(`file://${fs.realpathSync(project)}/node_modules/paybox/dist/sandbox/index.js`)
  })

  it('is typed: startSandbox, its options and the running sandbox type-check in a strict project, and misuse does not', async () => {
    fs.writeFileSync(
      path.join(project, 'typed.ts'),
      `import { startSandbox, type RunningSandbox, type SandboxOptions } from 'paybox/sandbox'
const options: SandboxOptions = { port: 0, db: ':memory:' }
const sandbox: RunningSandbox = await startSandbox(options)
const url: string = sandbox.url
const secret: string = sandbox.merchants[0]!.apiSecret
const admin: string = sandbox.identity.adminToken
await sandbox.stop()
// @ts-expect-error db is required
await startSandbox({ port: 0 })
// @ts-expect-error the port is a number
await startSandbox({ port: '0', db: ':memory:' })
export { url, secret, admin }
`,
    )
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules', '@types')],
        },
        files: ['typed.ts'],
      }),
    )
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
    const outcome = await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    )
    expect(outcome.stdout).toBe('')
    expect(outcome.code).toBe(0)
  })
})
