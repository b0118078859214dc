// `paybox sandbox start` as a real child process (node bin/dev.js): its one-line JSON banner,
// the state file it leaves for the CLI, a clean exit on SIGTERM, and stable keys.
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Page, Payment } from '../../src/client/types.js'
import type { SandboxBanner } from '../../src/cli/render/sandbox.js'
import {
  expectOneLineFailure,
  isolatedEnv,
  linesOf,
  runCli,
  runCliJson,
  spawnCli,
  type CliEnv,
  type SpawnOptions,
  type SpawnedCli,
} from '../../harness/cli.js'
import { temporaryDir } from '../../harness/sandbox.js'
import { expectCommandJson } from '../../harness/json-contract.js'

const running: SpawnedCli[] = []

afterEach(async () => {
  // A failed test must not leave its sandbox running.
  for (const sandbox of running.splice(0)) {
    if (sandbox.child.exitCode === null && sandbox.child.signalCode === null) {
      sandbox.child.kill('SIGKILL')
      await sandbox.exited
    }
  }
})

async function start(
  db: string,
  env: CliEnv,
  extra: string[] = [],
  options: SpawnOptions = {},
): Promise<{ spawned: SpawnedCli; banner: SandboxBanner }> {
  const spawned = spawnCli(['sandbox', 'start', '--port', '0', '--db', db, '--json', ...extra], env, options)
  running.push(spawned)
  const line = await spawned.firstLine
  const banner = JSON.parse(line) as SandboxBanner
  expectCommandJson('sandbox:start', banner)
  return { spawned, banner }
}

async function stop(sandbox: SpawnedCli): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  sandbox.child.kill('SIGTERM')
  return sandbox.exited
}

/** What must stay the same across restarts and seeded starts. */
const identityOf = (banner: SandboxBanner) => ({
  adminToken: banner.adminToken,
  merchants: banner.merchants.map(({ id, name, apiKey, apiSecret, settlement_mode }) => ({ id, name, apiKey, apiSecret, settlement_mode })),
})

describe('paybox sandbox start', () => {
  it('prints one JSON line when ready, serves, leaves a state file, and exits 0 on SIGTERM removing it', async () => {
    const env = isolatedEnv()
    const db = path.join(temporaryDir(), 'sandbox.db')
    const stateFile = path.join(env.PAYBOX_HOME, 'sandbox.json')
    const pidFile = path.join(env.PAYBOX_HOME, 'sandbox.pid')
    const { spawned: sandbox, banner } = await start(db, env)

    expect(banner.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(banner.horizonUrl).toBe(`${banner.baseUrl}/horizon`)
    expect(new URL(banner.baseUrl).port).not.toBe('0')
    expect(banner.adminToken).toMatch(/^adm_[0-9a-f]{48}$/)
    expect(banner.database).toBe(db)
    expect(banner.joined).toBe(false)
    expect(banner.merchants).toHaveLength(2)
    expect(banner.merchants.map((m) => m.settlement_mode)).toEqual(['direct', 'escrow'])
    expect(banner.merchants.map((m) => m.name)).toEqual(['Acme Store', 'Bazaar Marketplace'])
    for (const merchant of banner.merchants) {
      expect(merchant.apiKey).toMatch(/^pk_test_[0-9a-f]{32}$/)
      expect(merchant.apiSecret).toMatch(/^sk_test_[0-9a-f]{48}$/)
    }

    const health = await fetch(`${banner.baseUrl}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'ok' }, ledger: { status: 'ok' }, webhooks: { status: 'ok' } },
    })

    // The state file describes this process, privately; the database (secrets too) and its WAL are private.
    expect(fs.statSync(stateFile).mode & 0o777).toBe(0o600)
    expect(fs.statSync(db).mode & 0o777).toBe(0o600)
    expect(fs.statSync(`${db}-wal`).mode & 0o777).toBe(0o600)
    expect(JSON.parse(fs.readFileSync(stateFile, 'utf8'))).toEqual({
      baseUrl: banner.baseUrl,
      adminToken: banner.adminToken,
      pid: sandbox.child.pid,
      merchants: banner.merchants,
    })
    expect(fs.readFileSync(pidFile, 'utf8')).toBe(`${sandbox.child.pid}\n`)
    // With no flags, env or profile, the CLI finds the running sandbox through that file.
    const list = await runCliJson<Page<Payment>>(['payments', 'list'], {
      PAYBOX_HOME: env.PAYBOX_HOME,
      PAYBOX_CONFIG_DIR: env.PAYBOX_CONFIG_DIR,
    })
    expect(list.exitCode).toBe(0)
    expect(list.json.meta.totalItems).toBe(0)

    expect(await stop(sandbox)).toEqual({ code: 0, signal: null })
    expect(fs.existsSync(stateFile)).toBe(false)
    expect(fs.existsSync(pidFile)).toBe(false)
    expect(sandbox.stderr()).toContain('SIGTERM received')

    // A second start on the same database has the same admin token and keys.
    const again = await start(db, env)
    expect(identityOf(again.banner)).toEqual(identityOf(banner))
    expect(again.banner.joined).toBe(true)
    expect(await stop(again.spawned)).toEqual({ code: 0, signal: null })
    expect(fs.existsSync(stateFile)).toBe(false)
  })

  it('--seed gives identical ids and keys on two fresh databases', async () => {
    const [first, second] = await Promise.all([
      start(path.join(temporaryDir(), 'a.db'), isolatedEnv(), ['--seed', 'ci']),
      start(path.join(temporaryDir(), 'b.db'), isolatedEnv(), ['--seed', 'ci']),
    ])
    expect(first.banner.merchants).toHaveLength(2)
    expect(identityOf(second.banner)).toEqual(identityOf(first.banner))
    expect(first.banner.baseUrl).not.toBe(second.banner.baseUrl)
    const [stoppedFirst, stoppedSecond] = await Promise.all([stop(first.spawned), stop(second.spawned)])
    expect(stoppedFirst).toEqual({ code: 0, signal: null })
    expect(stoppedSecond).toEqual({ code: 0, signal: null })
  })

  it('refuses a second default sandbox from the same data folder in one line, so neither loses track of the other', async () => {
    const env = isolatedEnv()
    const stateFile = path.join(env.PAYBOX_HOME, 'sandbox.json')
    const pidFile = path.join(env.PAYBOX_HOME, 'sandbox.pid')
    const first = await start(path.join(temporaryDir(), 'first.db'), env)
    const state = fs.readFileSync(stateFile, 'utf8')

    // The default database and port: one that would register too.
    const second = spawnCli(['sandbox', 'start'], env)
    running.push(second)
    expect((await second.exited).code).toBe(1)
    expect(second.stderr()).toBe(
      `Error: A sandbox from ${env.PAYBOX_HOME} is already running at ${first.banner.baseUrl} (pid ${first.spawned.child.pid}) ` +
        '(stop it first with paybox sandbox stop, or give another one its own data folder: PAYBOX_HOME=<folder> paybox sandbox start --port <port>)\n',
    )
    // The first sandbox's files are untouched, and the CLI still finds and stops it.
    expect(fs.readFileSync(stateFile, 'utf8')).toBe(state)
    expect(fs.readFileSync(pidFile, 'utf8')).toBe(`${first.spawned.child.pid}\n`)
    const stopped = await runCliJson<{ pid: number; baseUrl: string }>(['sandbox', 'stop'], env)
    expect(stopped.json).toEqual({ pid: first.spawned.child.pid, baseUrl: first.banner.baseUrl })
    expect((await first.spawned.exited).code).toBe(0)
  })

  it("runs a test harness's sandbox (its own --db, port 0) beside the registered one, unregistered, saying so in one line", async () => {
    const env = isolatedEnv()
    const stateFile = path.join(env.PAYBOX_HOME, 'sandbox.json')
    const pidFile = path.join(env.PAYBOX_HOME, 'sandbox.pid')
    const first = await start(path.join(temporaryDir(), 'first.db'), env)
    const state = fs.readFileSync(stateFile, 'utf8')

    const harness = await start(':memory:', env)
    expect(harness.banner.baseUrl).not.toBe(first.banner.baseUrl)
    expect(linesOf(harness.spawned.stderr()).filter((line) => /regist/i.test(line))).toEqual([
      `Not registered: ${first.banner.baseUrl} (pid ${first.spawned.child.pid}) is ${env.PAYBOX_HOME}'s sandbox, which the CLI uses ` +
        `by default; reach this one with --base-url ${harness.banner.baseUrl} and its keys`,
    ])
    expect((await fetch(`${harness.banner.baseUrl}/health`)).status).toBe(200)
    // The registered sandbox's files are untouched, while the harness's runs and after it stops.
    expect(fs.readFileSync(stateFile, 'utf8')).toBe(state)
    expect(fs.readFileSync(pidFile, 'utf8')).toBe(`${first.spawned.child.pid}\n`)
    expect(await stop(harness.spawned)).toEqual({ code: 0, signal: null })
    expect(fs.readFileSync(stateFile, 'utf8')).toBe(state)
    expect(fs.readFileSync(pidFile, 'utf8')).toBe(`${first.spawned.child.pid}\n`)
    expect(await stop(first.spawned)).toEqual({ code: 0, signal: null })
  })

  it('takes its port and interface from PAYBOX_PORT and PAYBOX_HOST, which flags beat', async () => {
    const free = net.createServer()
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.2', resolve))
    const port = (free.address() as net.AddressInfo).port
    await new Promise((resolve) => free.close(resolve))
    const env = isolatedEnv({ PAYBOX_PORT: String(port), PAYBOX_HOST: '127.0.0.2' })

    const fromEnv = spawnCli(['sandbox', 'start', '--db', ':memory:', '--json'], env)
    running.push(fromEnv)
    expect(JSON.parse(await fromEnv.firstLine).baseUrl).toBe(`http://127.0.0.2:${port}`)
    expect(await stop(fromEnv)).toEqual({ code: 0, signal: null })

    const { spawned, banner } = await start(':memory:', env, ['--host', '127.0.0.1'])
    expect(banner.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(banner.baseUrl).not.toBe(`http://127.0.0.1:${port}`)
    expect(await stop(spawned)).toEqual({ code: 0, signal: null })

    expectOneLineFailure(
      await runCli(['sandbox', 'start', '--db', ':memory:'], isolatedEnv({ PAYBOX_PORT: '42x' })),
      'PAYBOX_PORT must be a port number from 0 to 65535, got "42x" (see --help)',
    )
  })

  it('says that a password in --db shows in the process list, and to use PAYBOX_DATABASE_URL; not when it comes from there', async () => {
    const url = 'postgres://paybox:s3cret-word@127.0.0.1:1/paybox'
    const note =
      'Note: the password in --db is shown as *** here (postgres://paybox:***@127.0.0.1:1/paybox), but any user of this machine ' +
      'can read it in the process list: pass the URL in PAYBOX_DATABASE_URL instead'
    for (const argv of [
      ['sandbox', 'start', '--port', '0', '--db', url],
      ['sandbox', 'migrate', '--db', url],
    ]) {
      const given = await runCli(argv, isolatedEnv())
      expect(given.exitCode).toBe(1)
      expect(linesOf(given.stderr)[0]).toBe(note)
      expect(given.stderr).not.toContain('s3cret')
      const fromEnv = await runCli(argv.slice(0, -2), isolatedEnv({ PAYBOX_DATABASE_URL: url }))
      expect(fromEnv.exitCode).toBe(1)
      expect(fromEnv.stderr).not.toContain('Note:')
      expect(fromEnv.stderr).not.toContain('s3cret')
    }
  })

  it('starts over the files of a sandbox whose process is gone', async () => {
    const env = isolatedEnv()
    const dead = spawnCli(['--version'], env)
    await dead.exited
    fs.mkdirSync(env.PAYBOX_HOME, { recursive: true })
    fs.writeFileSync(path.join(env.PAYBOX_HOME, 'sandbox.pid'), `${dead.child.pid}\n`)
    fs.writeFileSync(
      path.join(env.PAYBOX_HOME, 'sandbox.json'),
      JSON.stringify({ baseUrl: 'http://127.0.0.1:1', adminToken: 'adm_x', pid: dead.child.pid, merchants: [] }),
    )
    const { spawned, banner } = await start(path.join(temporaryDir(), 'sandbox.db'), env)
    expect(fs.readFileSync(path.join(env.PAYBOX_HOME, 'sandbox.pid'), 'utf8')).toBe(`${spawned.child.pid}\n`)
    expect(JSON.parse(fs.readFileSync(path.join(env.PAYBOX_HOME, 'sandbox.json'), 'utf8')).baseUrl).toBe(banner.baseUrl)
    expect(await stop(spawned)).toEqual({ code: 0, signal: null })
  })

  it('leaves no pid file behind when it cannot start, so the next start is not refused', async () => {
    const env = isolatedEnv()
    const taken = net.createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    try {
      const port = (taken.address() as net.AddressInfo).port
      const failed = spawnCli(['sandbox', 'start', '--port', String(port), '--db', ':memory:'], env)
      running.push(failed)
      expect((await failed.exited).code).toBe(1)
      expect(failed.stderr()).toContain('another process uses that port')
      expect(fs.existsSync(path.join(env.PAYBOX_HOME, 'sandbox.pid'))).toBe(false)
    } finally {
      taken.close()
    }
    const { spawned } = await start(':memory:', env)
    expect(await stop(spawned)).toEqual({ code: 0, signal: null })
  })

  it('refuses a malformed --allow-webhook-to in one line, before starting', async () => {
    const result = await runCli(
      ['sandbox', 'start', '--port', '0', '--db', ':memory:', '--allow-webhook-to', '127.0.0.0/8', '--allow-webhook-to', '10.0.0.0/33'],
      isolatedEnv(),
    )
    expectOneLineFailure(result, '--allow-webhook-to "10.0.0.0/33" is not a CIDR range (10.0.0.0/8), an address or a host name')
  })

  describe('refuses what the user can fix, in one line with exit 1', () => {
    /** Runs a start expected to fail: what it printed and how it exited (a start that serves instead is stopped). */
    async function failedStart(args: string[], options: SpawnOptions = {}) {
      const spawned = spawnCli(['sandbox', 'start', '--port', '0', '--json', ...args], isolatedEnv(), options)
      running.push(spawned)
      const served = await spawned.firstLine.then(
        () => true,
        () => false,
      )
      if (served) spawned.child.kill('SIGKILL')
      const exit = await spawned.exited
      return { served, exit, stderr: spawned.stderr() }
    }

    const expectUserError = (result: Awaited<ReturnType<typeof failedStart>>, says: RegExp) => {
      expect(result.served).toBe(false)
      expect(result.exit).toEqual({ code: 1, signal: null })
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toMatch(says)
      expect(result.stderr).not.toMatch(/bug/i)
    }

    it('a --db file that is not a database', async () => {
      const file = path.join(temporaryDir(), 'garbage.db')
      fs.writeFileSync(file, 'this is not a database, just some text long enough to be read as a header\n'.repeat(20))
      expectUserError(await failedStart(['--db', file]), /^Error: --db .*garbage\.db is not a paybox database.*name another file/)
    })

    it('a --db naming a folder', async () => {
      const dir = temporaryDir()
      expectUserError(
        await failedStart(['--db', dir]),
        new RegExp(`^Error: --db ${dir} is a folder: name a database file, such as ${dir}/sandbox.db`),
      )
    })

    it('a --host that is no address', async () => {
      expectUserError(
        await failedStart(['--db', ':memory:', '--host', '999.1.1.1']),
        /^Error: --host 999\.1\.1\.1 is not an IP address or a host name that resolves/,
      )
    })

    it('a SQLite URI as --db, creating nothing', async () => {
      const cwd = temporaryDir()
      expectUserError(
        await failedStart(['--db', 'file:sandbox.db?mode=ro'], { cwd }),
        /^Error: --db file:sandbox\.db\?mode=ro: SQLite URIs are not supported/,
      )
      expect(fs.readdirSync(cwd)).toEqual([])
    })

    it('--shared with a database file others may read', async () => {
      const db = path.join(temporaryDir(), 'open.db')
      fs.writeFileSync(db, '')
      fs.chmodSync(db, 0o644)
      expectUserError(
        await failedStart(['--db', db, '--shared']),
        new RegExp(`^Error: ${db} has mode 0644, readable by other users: .*chmod 600 ${db}`),
      )
      expect(fs.statSync(db).mode & 0o777).toBe(0o644)
    })
  })

  it('makes an existing database readable by others private', async () => {
    const env = isolatedEnv()
    const db = path.join(temporaryDir(), 'sandbox.db')
    const first = await start(db, env)
    expect(await stop(first.spawned)).toEqual({ code: 0, signal: null })
    for (const file of [db, `${db}-wal`, `${db}-shm`]) if (fs.existsSync(file)) fs.chmodSync(file, 0o644)

    const again = await start(db, env)
    expect(fs.statSync(db).mode & 0o777).toBe(0o600)
    for (const file of [`${db}-wal`, `${db}-shm`]) if (fs.existsSync(file)) expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    expect(await stop(again.spawned)).toEqual({ code: 0, signal: null })
  })

  it('says in one line that a non-loopback --host turns shared mode on', async () => {
    const db = path.join(temporaryDir(), 'sandbox.db')
    const { spawned, banner } = await start(db, isolatedEnv(), ['--host', '0.0.0.0'])
    expect(banner.baseUrl).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/)
    const notes = linesOf(spawned.stderr()).filter((line) => /shared mode/.test(line))
    expect(notes).toEqual(['Note: 0.0.0.0 is not a loopback address, so shared mode is on (rate limits, tighter bounds: docs/security.md)'])
    expect(await stop(spawned)).toEqual({ code: 0, signal: null })
  })
})
