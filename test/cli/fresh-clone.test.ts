// The README's commands, as written, in a clone that was never built: `npm ci`, then `npx paybox …`.
// The clone is the files git would give one (tracked and not ignored: no dist/), with this
// checkout's node_modules linked in place of `npm ci`, which would build better-sqlite3 for a minute.
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, isolatedEnv } from '../helpers/cli.js'
import { temporaryDir } from '../helpers/sandbox.js'

const exec = promisify(execFile)

let clone: string
const env = isolatedEnv()
const childEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }) as NodeJS.ProcessEnv

beforeAll(async () => {
  clone = path.join(temporaryDir('paybox-clone-'), 'paybox')
  const { stdout } = await exec('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 16 * 2 ** 20 })
  for (const file of stdout.split('\0').filter((name) => name !== '' && fs.existsSync(path.join(ROOT, name)))) {
    fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true })
    fs.copyFileSync(path.join(ROOT, file), path.join(clone, file))
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'))
})

const npxPaybox = (argv: string[]) => exec('npx', ['paybox', ...argv], { cwd: clone, env: childEnv() })

describe('npx paybox in a clone that was never built', () => {
  it('has no dist/ to run', () => {
    expect(fs.existsSync(path.join(clone, 'dist'))).toBe(false)
  })

  it('runs a command instead of failing on the missing build', async () => {
    const { stdout, stderr } = await npxPaybox(['config', 'list'])
    expect(stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|dist\/commands/)
    expect(stdout).toMatch(/No profiles in/)
  })

  describe('the quick start', () => {
    let sandbox: ReturnType<typeof spawn> | undefined
    afterAll(async () => {
      if (sandbox && sandbox.exitCode === null) {
        sandbox.kill('SIGTERM')
        await once(sandbox, 'exit')
      }
    })

    it('starts a sandbox and creates a payment on it', async () => {
      sandbox = spawn('npx', ['paybox', 'sandbox', 'start', '--port', '0', '--db', ':memory:', '--json'], { cwd: clone, env: childEnv() })
      let stderr = ''
      sandbox.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const banner = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: sandbox!.stdout! }).once('line', resolve)
        sandbox!.once('exit', (code) => reject(new Error(`sandbox start exited (${code}):\n${stderr}`)))
      })
      expect(JSON.parse(banner)).toHaveProperty('baseUrl')
      const { stdout } = await npxPaybox(['payments', 'create', '--amount', '12.50', '--currency', 'EUR', '--description', 'Order #1042', '--json'])
      expect(JSON.parse(stdout)).toMatchObject({ amount: { value: 1250, currency: 'EUR' }, description: 'Order #1042' })
    })
  })
})
