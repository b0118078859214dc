// The CI life cycle of a background sandbox, through the real CLI: start --detach returns once
// the sandbox is ready, wait sees it healthy, commands find it, logs show it, keys print it,
// stop ends it, and afterwards wait fails. Nothing here sleeps: each step waits on the last.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import type { SandboxBanner } from '../../src/cli/render/sandbox.js'
import { isProcessAlive, readSandboxPid } from '../../src/config/sandbox-process.js'
import { expectOneLineFailure, isolatedEnv, linesOf, runCli, runCliJson, spawnCli, type CliEnv } from '../../harness/cli.js'
import { temporaryDir } from '../../harness/sandbox.js'

const homes: CliEnv[] = []

afterEach(() => {
  // A failed test must not leave its sandbox running: kill what its pid file names.
  for (const env of homes.splice(0)) {
    const pid = readSandboxPid(env)
    if (pid !== undefined && isProcessAlive(pid)) process.kill(pid, 'SIGKILL')
  }
})

function newEnv(extra: CliEnv = {}): ReturnType<typeof isolatedEnv> {
  const env = isolatedEnv(extra)
  homes.push(env)
  return env
}

/** `paybox sandbox start --detach …` as its own process, which must exit 0 once the sandbox is ready. */
async function startDetached(env: CliEnv, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const spawned = spawnCli(['sandbox', 'start', '--detach', '--port', '0', ...args], env)
  let stdout = ''
  spawned.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  const { code } = await spawned.exited
  return { code, stdout, stderr: spawned.stderr() }
}

describe('paybox sandbox start --detach, wait, logs, keys, stop', () => {
  it('runs a sandbox in the background from start to stop', async () => {
    const env = newEnv()
    const started = await startDetached(env, ['--json', '--seed', 'detach'])
    expect(started.code).toBe(0)
    const banner = JSON.parse(started.stdout) as SandboxBanner
    expect(linesOf(started.stdout)).toHaveLength(1)
    expect(banner.horizonUrl).toBe(`${banner.baseUrl}/horizon`)
    expect(banner.database).toBe(path.join(env.PAYBOX_HOME, 'sandbox.db'))

    // The sandbox outlives the command that started it, with its pid and log files in the data folder.
    const pid = readSandboxPid(env)!
    expect(isProcessAlive(pid)).toBe(true)
    expect(fs.statSync(path.join(env.PAYBOX_HOME, 'sandbox.pid')).mode & 0o777).toBe(0o600)
    expect(fs.statSync(path.join(env.PAYBOX_HOME, 'sandbox.log')).mode & 0o777).toBe(0o600)

    const waited = await runCliJson<{ baseUrl: string; status: string }>(['sandbox', 'wait', '--timeout', '30s'], env)
    expect(waited.exitCode).toBe(0)
    expect(waited.json).toMatchObject({ baseUrl: banner.baseUrl, status: 'ok' })

    // Commands find it with no flags at all, through the state file.
    const created = await runCliJson<Payment>(['payments', 'create', '--amount', '5.00', '--description', 'Detached'], env)
    expect(created.exitCode).toBe(0)
    expect((await runCliJson<Payment>(['payments', 'get', created.json.id], env)).json.status).toBe('open')

    const keys = await runCliJson<{
      baseUrl: string
      adminToken: string
      merchants: Array<{ name: string; apiKey: string; apiSecret: string }>
    }>(['sandbox', 'keys', '--merchant', 'acme store'], env)
    expect(keys.exitCode).toBe(0)
    expect(keys.json.baseUrl).toBe(banner.baseUrl)
    expect(keys.json.adminToken).toBe(banner.adminToken)
    expect(keys.json.merchants.map((m) => [m.name, m.apiKey, m.apiSecret])).toEqual([
      [banner.merchants[0]!.name, banner.merchants[0]!.apiKey, banner.merchants[0]!.apiSecret],
    ])

    const logs = await runCli(['sandbox', 'logs'], env)
    expect(logs.exitCode).toBe(0)
    expect(logs.stdout).toContain(`Sandbox listening on ${banner.baseUrl} (pid ${pid}`)
    // The log holds no keys: the banner went elsewhere.
    expect(logs.stdout).not.toContain(banner.adminToken)
    expect(logs.stdout).not.toContain(banner.merchants[0]!.apiSecret)

    const again = await startDetached(env)
    expect(again.code).toBe(1)
    expect(again.stderr).toBe(
      `Error: A sandbox from ${env.PAYBOX_HOME} is already running at ${banner.baseUrl} (pid ${pid}) ` +
        '(stop it first with paybox sandbox stop, or give another one its own data folder: PAYBOX_HOME=<folder> paybox sandbox start --port <port>)\n',
    )

    const stopped = await runCliJson<{ pid: number; baseUrl: string }>(['sandbox', 'stop'], env)
    expect(stopped.exitCode).toBe(0)
    expect(stopped.json).toEqual({ pid, baseUrl: banner.baseUrl })
    expect(isProcessAlive(pid)).toBe(false)
    expect(fs.existsSync(path.join(env.PAYBOX_HOME, 'sandbox.pid'))).toBe(false)
    expect(fs.existsSync(path.join(env.PAYBOX_HOME, 'sandbox.json'))).toBe(false)
    expect((await runCli(['sandbox', 'logs'], env)).stdout).toContain(
      'SIGTERM received: finishing in-flight requests and closing the database\nSandbox stopped\n',
    )

    const gone = await runCli(['sandbox', 'wait', '--timeout', '300ms', '--url', banner.baseUrl], env)
    expect(gone.exitCode).toBe(1)
    expect(gone.stderr).toMatch(
      new RegExp(`^Error: The sandbox at ${banner.baseUrl} was not healthy within 0\\.3 s: no answer \\(connect ECONNREFUSED [^)]+\\)\\n$`),
    )
  })

  it('stop fails clearly when no sandbox runs', async () => {
    const env = newEnv()
    expectOneLineFailure(
      await runCli(['sandbox', 'stop'], env),
      `No sandbox is running from ${env.PAYBOX_HOME} (no pid file: nothing to stop)`,
    )
    // A pid file whose process is gone is cleaned up and reported as such.
    fs.mkdirSync(env.PAYBOX_HOME, { recursive: true })
    const dead = spawnCli(['--version'], env)
    await dead.exited
    fs.writeFileSync(path.join(env.PAYBOX_HOME, 'sandbox.pid'), `${dead.child.pid}\n`)
    expectOneLineFailure(
      await runCli(['sandbox', 'stop'], env),
      `No sandbox is running from ${env.PAYBOX_HOME} (process ${dead.child.pid} of its pid file is gone; removed the stale files)`,
    )
    expect(fs.existsSync(path.join(env.PAYBOX_HOME, 'sandbox.pid'))).toBe(false)
    expectOneLineFailure(
      await runCli(['sandbox', 'logs'], env),
      `No sandbox log in ${path.join(env.PAYBOX_HOME, 'sandbox.log')} (logs are kept for sandboxes started with paybox sandbox start --detach)`,
    )
  })

  it('fixed CI credentials come from the environment, and a database made with other keys is refused clearly', async () => {
    const db = path.join(temporaryDir(), 'ci.db')
    const env = newEnv({ PAYBOX_SANDBOX_API_KEY: 'pk_test_ci_fixed', PAYBOX_SANDBOX_API_SECRET: 'sk_test_ci_fixed_secret' })
    const started = await startDetached(env, ['--json', '--db', db])
    expect(started.code).toBe(0)
    const banner = JSON.parse(started.stdout) as SandboxBanner
    expect(banner.merchants[0]).toMatchObject({ name: 'Acme Store', apiKey: 'pk_test_ci_fixed', apiSecret: 'sk_test_ci_fixed_secret' })
    // Scripts can hard-code them.
    const listed = await runCli(
      ['payments', 'list', '--api-key', 'pk_test_ci_fixed', '--api-secret', 'sk_test_ci_fixed_secret', '--base-url', banner.baseUrl],
      env,
    )
    expect(listed.exitCode).toBe(0)
    expect((await runCli(['sandbox', 'stop'], env)).exitCode).toBe(0)

    // Same keys on the same database: fine. Other keys: the sandbox refuses, and --detach says why.
    const other = newEnv({ PAYBOX_SANDBOX_API_KEY: 'pk_test_other', PAYBOX_SANDBOX_API_SECRET: 'sk_test_other_secret' })
    const refused = await startDetached(other, ['--db', db])
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toBe(
      `Error: The sandbox did not start: ${db} was created with other keys: --api-key/--api-secret only apply to a new database ` +
        `(start on a new --db, or run paybox sandbox reset once it runs) (its log: ${path.join(other.PAYBOX_HOME, 'sandbox.log')})\n`,
    )
    expect(readSandboxPid(other)).toBeUndefined()
  })
})
