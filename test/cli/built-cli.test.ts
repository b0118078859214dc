// The installed entry point (bin/run.js over the compiled dist/) takes shortcuts for cold start:
// it answers --version itself and imports only the command a line names. Whatever it answers
// must be exactly what plain oclif answers for the same line over the same dist/.
import { execFile } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, merchantEnv, type CliEnv } from '../helpers/cli.js'
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js'

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
  ])('gives oclif\'s exact answer to: paybox %s', async (line: string) => {
    // Split on spaces: no word of these lines contains one.
    const argv = line.split(' ').map((word) => (word === PAYMENT ? paymentId : word))
    const [built, plain] = await Promise.all([paybox('run.js', argv, env), paybox('plain oclif', argv, env)])
    expect(built).toEqual(plain)
  })
})
