// The request log in the terminal: `paybox logs tail` (a real child process against a sandbox in
// this process) and the stderr line per request of a foreground `paybox sandbox start`.
import { afterEach, describe, expect, it } from 'vitest'
import type { RequestLogEntry } from '../../src/client/types.js'
import type { SandboxBanner } from '../../src/cli/render/sandbox.js'
import { isolatedEnv, linesOf, merchantEnv, runCli, spawnCli, type CliEnv, type SpawnedCli } from '../../harness/cli.js'
import { startRunning, stopRunning, type Running } from '../../harness/long-running-cli.js'
import { rawRequest, sandboxForSuite } from '../../harness/sandbox.js'
import { waitFor } from '../../harness/wait.js'
import { expectCommandJson } from '../../harness/json-contract.js'

const tail = (args: string[], env: CliEnv): Promise<Running> => startRunning(['logs', 'tail', ...args], env, 'Waiting for requests')
const order = JSON.stringify({ amount: { value: 1250, currency: 'USD' }, description: 'Tailed' })

describe('paybox logs tail', () => {
  const sandbox = sandboxForSuite()
  const me = () => sandbox.merchants[0]!

  it('prints a line per request of the merchant: time, method, path, status, duration, merchant, idempotency key, request id', async () => {
    const running = await tail([], merchantEnv(sandbox, 'direct', { PAYBOX_ADMIN_TOKEN: undefined }))
    const created = await rawRequest(sandbox.url, {
      method: 'POST',
      path: '/payments',
      body: order,
      as: me(),
      headers: { 'idempotency-key': 'tail-1' },
    })
    await rawRequest(sandbox.url, { method: 'GET', path: '/payments?limit=1', as: sandbox.merchants[1]! })
    const requestId = created.headers.get('request-id')!
    const line = await waitFor('the POST line', () => running.lines.find((l) => l.includes(requestId)))
    const merchantId = (await sandbox.direct.merchant.get()).id
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT\S+Z {2}POST {4}\/payments {2}200 +\d+\.\d ms {2}/)
    expect(line).toContain(`${merchantId}  idempotency-key=tail-1  ${requestId}`)
    // The other merchant's request is not shown; the tail's own stream request is not finished.
    await rawRequest(sandbox.url, { method: 'GET', path: '/payments/pt_last', as: me() })
    await waitFor('the last line', () => running.lines.some((l) => l.includes('/payments/pt_last')))
    expect(running.lines.filter((l) => l.includes(merchantId))).toHaveLength(running.lines.length)
    expect(await stopRunning(running)).toEqual({ code: 0, signal: null })
  })

  it('--status and --path filter, --all shows everyone, --json prints one object per line', async () => {
    const running = await tail(['--all', '--status', '4xx', '--path', '/payments', '--json'], merchantEnv(sandbox))
    await rawRequest(sandbox.url, { method: 'GET', path: '/payments/pt_mine', as: me() })
    await rawRequest(sandbox.url, { method: 'GET', path: '/refunds/rf_other', as: me() })
    await rawRequest(sandbox.url, { method: 'POST', path: '/payments', body: order, as: me() })
    await rawRequest(sandbox.url, { method: 'GET', path: '/payments' })
    await waitFor('the unauthenticated 401', () => running.lines.some((l) => (JSON.parse(l) as RequestLogEntry).status === 401))
    const entries = running.lines.map((l) => JSON.parse(l) as RequestLogEntry)
    expect(entries.map((e) => [e.path, e.status])).toEqual([
      ['/payments/pt_mine', 404],
      ['/payments', 401],
    ])
    expect(entries[1]!.merchantId).toBeNull()
    for (const entry of entries) expectCommandJson('logs:tail', entry)
    expect(await stopRunning(running)).toEqual({ code: 0, signal: null })
  })

  it('refuses a bad --status or --path with one line and exit 1, as every refused command line', async () => {
    for (const [flag, value] of [
      ['--status', 'bad'],
      ['--path', 'payments'],
    ] as const) {
      const result = await runCli(['logs', 'tail', flag, value], merchantEnv(sandbox))
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toContain(flag)
    }
  })
})

describe('paybox sandbox start in the foreground', () => {
  const running: SpawnedCli[] = []
  afterEach(async () => {
    for (const spawned of running.splice(0)) {
      if (spawned.child.exitCode === null) {
        spawned.child.kill('SIGKILL')
        await spawned.exited
      }
    }
  })
  const start = async (extra: string[]) => {
    const spawned = spawnCli(['sandbox', 'start', '--port', '0', '--db', ':memory:', '--json', ...extra], isolatedEnv())
    running.push(spawned)
    return { spawned, banner: JSON.parse(await spawned.firstLine) as SandboxBanner }
  }

  it('prints a line per request on stderr, and none with --quiet', { timeout: 60_000 }, async () => {
    const loud = await start([])
    const answer = await fetch(`${loud.banner.baseUrl}/payments/pt_x`)
    const requestId = answer.headers.get('request-id')!
    const line = await waitFor('the request line', () => linesOf(loud.spawned.stderr()).find((l) => l.includes(requestId)), 20_000)
    expect(line).toMatch(/GET {5}\/payments\/pt_x {2}401 +\d+\.\d ms {2}- {2}- {2}req_/)

    const quiet = await start(['--quiet'])
    const unheard = await fetch(`${quiet.banner.baseUrl}/payments/pt_x`)
    expect(unheard.status).toBe(401)
    quiet.spawned.child.kill('SIGTERM')
    await quiet.spawned.exited
    expect(quiet.spawned.stderr()).not.toContain('/payments/pt_x')
    expect(quiet.spawned.stderr()).not.toContain('req_')
  })
})
