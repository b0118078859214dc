// The README's commands, as written, in a clone that was never built: `npm ci`, then `npx paybox …`.
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isolatedEnv } from '../../harness/cli.js'
import { copyOfCheckout } from '../../harness/tree-copy.js'

const exec = promisify(execFile)

let clone: string
const env = isolatedEnv()
const childEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }) as NodeJS.ProcessEnv

beforeAll(async () => {
  clone = await copyOfCheckout('paybox-clone-')
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
        // The whole process group (npx, sh and the sandbox): none is left behind if the test failed early.
        process.kill(-sandbox.pid!, 'SIGTERM')
        await once(sandbox, 'exit')
      }
    })

    it('starts a sandbox and creates a payment on it', async () => {
      sandbox = spawn('npx', ['paybox', 'sandbox', 'start', '--port', '0', '--db', ':memory:', '--json'], {
        cwd: clone,
        env: childEnv(),
        detached: true,
      })
      let stderr = ''
      sandbox.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const banner = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: sandbox!.stdout! }).once('line', resolve)
        sandbox!.once('exit', (code) => reject(new Error(`sandbox start exited (${code}):\n${stderr}`)))
      })
      expect(JSON.parse(banner)).toHaveProperty('baseUrl')
      const { stdout } = await npxPaybox([
        'payments',
        'create',
        '--amount',
        '12.50',
        '--currency',
        'EUR',
        '--description',
        'Order #1042',
        '--json',
      ])
      expect(JSON.parse(stdout)).toMatchObject({ amount: { value: 1250, currency: 'EUR' }, description: 'Order #1042' })
    })
  })
})
