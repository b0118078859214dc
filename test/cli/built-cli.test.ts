// The installed entry point (bin/run.js over the compiled dist/) takes shortcuts for cold start:
// it answers --version itself and imports only the command a line names, bundled with oclif
// (dist/bundle). Whatever it answers must be exactly what plain oclif answers for the same line
// over the compiled dist/, and --json must not load what only human output needs.
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cacheFileOf } from '../../src/cli/cached-bundle.js'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { COMMITS_BEFORE_CHECKPOINTER } from '../../sandbox/db/database.js'
import { ROOT, linesOf, merchantEnv, type CliEnv } from '../../harness/cli.js'
import { fromPackage, moduleLog } from '../../harness/module-log.js'
import { waitFor } from '../../harness/wait.js'
import { spawnSandbox } from '../../harness/sandbox-process.js'
import { startWebhookReceiver } from '../../harness/webhook-receiver.js'
import { startTestSandbox, temporaryDir, type TestSandbox } from '../../harness/sandbox.js'

const run = promisify(execFile)

interface Outcome {
  stdout: string
  stderr: string
  code: number
}

/** Stands for the payment the suite creates: the table is read before beforeAll runs. */
const PAYMENT = '<payment>'
const RUN_JS = path.join(ROOT, 'bin', 'run.js')

/** The built CLI as installed, or (plain) as oclif alone runs it: no shortcut taken. */
async function paybox(how: 'run.js' | 'plain oclif', argv: string[], env: CliEnv): Promise<Outcome> {
  const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }
  for (const [key, value] of Object.entries(env)) if (value !== undefined) childEnv[key] = value
  const plainOclif = `import('@oclif/core').then((oclif) => oclif.execute({ dir: ${JSON.stringify(pathToFileURL(RUN_JS).href)}, args: ${JSON.stringify(argv)} }))`
  const nodeArgv = how === 'run.js' ? [RUN_JS, ...argv] : ['--input-type=module', '-e', plainOclif]
  try {
    const { stdout, stderr } = await run(process.execPath, nodeArgv, { cwd: ROOT, env: childEnv })
    return { stdout, stderr, code: 0 }
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number }
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code }
  }
}

/**
 * Every module a run of bin/run.js loads (file URLs of ES modules, paths of CommonJS ones), seen
 * by a preload that logs each load and, at exit, require's cache.
 */
async function modulesLoadedBy(argv: string[], env: CliEnv): Promise<string[]> {
  const log = moduleLog()
  const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME }
  for (const [key, value] of Object.entries(env)) if (value !== undefined) childEnv[key] = value
  await run(process.execPath, ['--import', log.preload, RUN_JS, ...argv], { cwd: ROOT, env: childEnv })
  return fs
    .readFileSync(log.file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
}

describe('the built CLI (bin/run.js)', () => {
  let sandbox: TestSandbox
  let env: CliEnv
  let paymentId: string

  beforeAll(async () => {
    await run('npm', ['run', 'build'], { cwd: ROOT })
    sandbox = await startTestSandbox()
    env = merchantEnv(sandbox)
    paymentId = (await sandbox.direct.payments.create({ amount: { value: 1250, currency: 'USD' }, description: 'Built CLI' })).id
  }, 120_000)
  afterAll(() => sandbox?.stop())

  it('answers a named command from its own module, with the output oclif gives', async () => {
    const built = await paybox('run.js', ['payments', 'get', paymentId, '--json'], env)
    expect(built.code).toBe(0)
    expect(JSON.parse(built.stdout)).toMatchObject({ id: paymentId, amount: { value: 1250, currency: 'USD' } })
    expect(built).toEqual(await paybox('plain oclif', ['payments', 'get', paymentId, '--json'], env))
  })

  it('runs a named command from the bundle, oclif included, and loads no tables or QR codes for --json', async () => {
    const modules = await modulesLoadedBy(['payments', 'get', paymentId, '--json'], env)
    expect(modules).toContain(pathToFileURL(path.join(ROOT, 'dist', 'bundle', 'commands', 'payments', 'get.js')).href)
    expect(fromPackage(modules, '@oclif/core')).toEqual([])
    for (const name of ['cli-table3', 'qrcode-terminal']) expect(fromPackage(modules, name)).toEqual([])
  })

  it('loads colours and tables for the same command without --json', async () => {
    const modules = await modulesLoadedBy(['payments', 'get', paymentId], env)
    expect(fromPackage(modules, 'chalk')).not.toEqual([])
    expect(fromPackage(modules, 'cli-table3')).not.toEqual([])
  })

  it('answers a mistyped command with the nearest one, in one line, as from the sources', async () => {
    const built = await paybox('run.js', ['payments', 'creat', '--amount', '5'], env)
    expect(built).toEqual({
      stdout: '',
      stderr: 'Error: Unknown command "payments creat". Did you mean paybox payments create?\n',
      code: 1,
    })
  })

  it('runs the sandbox from the bundle: payments, their webhooks and checkout pages, and no warning on stderr', async () => {
    const sandbox = await spawnSandbox(['--port', '0', '--db', ':memory:', '--quiet'], { entry: RUN_JS })
    try {
      const [merchant] = sandbox.banner.merchants
      const receiver = await startWebhookReceiver(merchant!.apiSecret)
      try {
        const client = new PayboxClient({ baseUrl: sandbox.banner.baseUrl, apiKey: merchant!.apiKey, apiSecret: merchant!.apiSecret })
        const payment = await client.payments.create({
          amount: { value: 1250, currency: 'USD' },
          description: 'Bundled',
          webhookUrl: receiver.url,
        })
        expect(await (await fetch(payment.hostedUrl)).text()).toContain('data:image/png')
        await waitFor('the webhook', () => receiver.received.some((r) => r.verified && r.raw.toString('utf8').includes(payment.id)))
      } finally {
        await receiver.close()
      }
    } finally {
      await sandbox.stop()
    }
    expect(linesOf(sandbox.process.stderr()).map((line) => line.replace(/ on .*/, ''))).toEqual([
      'Sandbox listening',
      'SIGTERM received: finishing in-flight requests and closing the database',
      'Sandbox stopped',
    ])
  })

  it('starts the sandbox with the code cache the build made, and leaves that cache as it is; without one, it writes one', async () => {
    const cache = cacheFileOf(path.join(ROOT, 'dist', 'bundle', 'sandbox-start.cjs'))
    const startAndStop = async () => (await spawnSandbox(['--port', '0', '--db', ':memory:', '--quiet'], { entry: RUN_JS })).stop()
    const made = fs.statSync(cache).mtimeMs
    await startAndStop()
    // A cache V8 refused, or one made for another bundle, would have been written again once serving.
    expect(fs.statSync(cache).mtimeMs).toBe(made)
    // The start goes through the cached bundle at all: with no cache, it writes one.
    fs.rmSync(cache)
    await startAndStop()
    const written = fs.statSync(cache).mtimeMs
    await startAndStop()
    expect(fs.statSync(cache).mtimeMs).toBe(written)
  })

  it("starts the sandbox without mime-types' tables, which the first answer needing a content type builds", async () => {
    // mime-types parses mime-db as it loads (bundled as JSON.parse of a string): a preload notes each such parse.
    const home = temporaryDir('paybox-mime-')
    const parses = path.join(home, 'parses.txt')
    const preload = path.join(home, 'note-mime-db.mjs')
    fs.writeFileSync(
      preload,
      `import { appendFileSync } from 'node:fs'
const parse = JSON.parse
JSON.parse = function (text, reviver) {
  if (typeof text === 'string' && text.includes('"application/1d-interleaved-parityfec"')) appendFileSync(${JSON.stringify(parses)}, 'mime-db\\n')
  return parse.call(this, text, reviver)
}
`,
    )
    const noted = () => (fs.existsSync(parses) ? fs.readFileSync(parses, 'utf8') : '')
    const argv = [
      '--import',
      pathToFileURL(preload).href,
      RUN_JS,
      'sandbox',
      'start',
      '--port',
      '0',
      '--db',
      ':memory:',
      '--json',
      '--quiet',
    ]
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, PAYBOX_HOME: home, PAYBOX_CONFIG_DIR: path.join(home, 'config') }
    const child = spawn(process.execPath, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] })
    const exited = once(child, 'exit')
    try {
      const [line] = (await once(readline.createInterface({ input: child.stdout }), 'line')) as [string]
      const { baseUrl } = JSON.parse(line) as { baseUrl: string }
      expect(noted()).toBe('')
      // A JSON answer sets its own content type; a page goes through express's, and so mime-types.
      expect((await fetch(`${baseUrl}/payments/nothing`)).status).toBe(401)
      expect(noted()).toBe('')
      expect((await fetch(`${baseUrl}/dashboard`)).headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(noted()).toBe('mime-db\n')
    } finally {
      child.kill('SIGTERM')
      await exited
    }
  })

  it('checkpoints the WAL from a worker of the compiled dist/', async () => {
    const file = path.join(temporaryDir('paybox-built-wal-'), 'sandbox.db')
    const database = pathToFileURL(path.join(ROOT, 'dist', 'sandbox', 'db', 'database.js')).href
    // Only the worker writes the database file before the WAL reaches its fallback mark: the file grows once it runs.
    const script = `import fs from 'node:fs'
const { openDatabase, runTransaction, COMMITS_BEFORE_CHECKPOINTER } = await import(${JSON.stringify(database)})
const db = await openDatabase({ file: ${JSON.stringify(file)} })
const before = fs.statSync(${JSON.stringify(file)}).size
for (let i = 0; i < COMMITS_BEFORE_CHECKPOINTER; i++) await runTransaction(db, (trx) => trx.insertInto('sandbox_state').values({ key: 'k' + i, value: 'v' }).execute())
const deadline = Date.now() + 10_000
while (fs.statSync(${JSON.stringify(file)}).size <= before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
console.log(fs.statSync(${JSON.stringify(file)}).size > before ? 'checkpointed' : 'not checkpointed')
await db.destroy()`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT })
    expect(stdout.trim()).toBe('checkpointed')
  })

  it('checkpoints the WAL from a worker of the bundle (sandbox start --db FILE)', async () => {
    const file = path.join(temporaryDir('paybox-built-wal-'), 'sandbox.db')
    const sandbox = await spawnSandbox(['--port', '0', '--db', file, '--quiet'], { entry: RUN_JS })
    try {
      const [merchant] = sandbox.banner.merchants
      const client = new PayboxClient({ baseUrl: sandbox.banner.baseUrl, apiKey: merchant!.apiKey, apiSecret: merchant!.apiSecret })
      const before = fs.statSync(file).size
      // One commit each (COMMITS_BEFORE_CHECKPOINTER of them start the worker); only the worker writes the file meanwhile.
      for (let i = 0; i < COMMITS_BEFORE_CHECKPOINTER; i++)
        await client.payments.create({ amount: { value: 100 + i, currency: 'USD' }, description: 'WAL' })
      await waitFor('a checkpoint by the bundled worker', () => fs.statSync(file).size > before)
    } finally {
      await sandbox.stop()
    }
  })

  it.each([
    '--version',
    '--help',
    'payments --help',
    'payments get --help',
    'payments:get <payment>',
    'payments get',
    'payments get <payment> --bogus',
    'paymnts get',
    'sandbox clock nonsense',
    'payments creat',
    'autocomplete --help',
    'sandbox start --bogus',
    'sandbox start now',
  ])("gives oclif's exact answer to: paybox %s", async (line: string) => {
    // Split on spaces: no word of these lines contains one.
    const argv = line.split(' ').map((word) => (word === PAYMENT ? paymentId : word))
    const [built, plain] = await Promise.all([paybox('run.js', argv, env), paybox('plain oclif', argv, env)])
    expect(built).toEqual(plain)
  })
})
