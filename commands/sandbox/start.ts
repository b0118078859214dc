// By subpath, as src/cli/run-command.ts: this command's bundle runs none of oclif's help and ux modules.
import { Command } from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'
import ms from 'ms'
import { z } from 'zod'
import { defaultDatabaseFile, snapshotsDir } from '../../src/config/paths.js'
import { commandLinePasswordNote } from '../../src/database-location.js'
import { flagNamesOf } from '../../src/cli/did-you-mean.js'
import { reportError } from '../../src/cli/errors.js'
import { renderBanner, type SandboxBanner } from '../../src/cli/render/sandbox.js'
import { collectStartUpGarbage, releaseYoungGeneration } from '../../src/cli/young-generation.js'
import { DEFAULT_HOST, DEFAULT_PORT } from '../../sandbox/defaults.js'

function parseLedgerClose(text: string): 'instant' | number | undefined {
  if (text === 'instant') return 'instant'
  const interval = ms(text as ms.StringValue)
  return typeof interval === 'number' && Number.isInteger(interval) && interval >= 10 ? interval : undefined
}

const isoDateTime = z.iso.datetime({ offset: true })

export default class SandboxStart extends Command {
  static override summary = 'Run the local sandbox server'
  static override description =
    "Starts the payments API sandbox on SQLite (or PostgreSQL, for a sandbox shared by several processes) and prints its base URL, admin token and the seeded merchants' keys. " +
    'With --json the first stdout line is one JSON object, printed once the server accepts connections. ' +
    'With --detach it runs in the background (pid and log file in the data folder), and the command exits 0 once it is ready; ' +
    'otherwise it stops by itself when the process that started it (through npx, too) exits. ' +
    "One with its own --db or --port 0 beside the data folder's running sandbox runs unregistered: the CLI keeps using the other."

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --port 0 --db :memory: --json',
    '<%= config.bin %> <%= command.id %> --detach --seed ci --api-key pk_test_ci --api-secret sk_test_ci',
    '<%= config.bin %> <%= command.id %> --seed ci --frozen-at 2026-01-01T00:00:00Z --ledger-close instant',
    '<%= config.bin %> <%= command.id %> --db postgres://paybox@127.0.0.1:5432/paybox --port 4243',
  ]

  static override flags = {
    port: Flags.integer({
      description: 'Port to listen on (0 = any free port)',
      default: DEFAULT_PORT,
      min: 0,
      max: 65535,
      env: 'PAYBOX_PORT',
    }),
    host: Flags.string({ description: 'Interface to bind', default: DEFAULT_HOST, env: 'PAYBOX_HOST' }),
    db: Flags.string({
      description:
        'SQLite database file, :memory:, or a postgres:// URL that several sandbox processes share (default: ~/.paybox/sandbox.db)',
      env: 'PAYBOX_DATABASE_URL',
    }),
    'public-url': Flags.string({ description: 'Base of hostedUrl, shortUrl and page links (default: http://HOST:PORT)' }),
    seed: Flags.string({ description: 'Make generated keys, ids and ledger keypairs deterministic' }),
    'frozen-at': Flags.string({
      description: 'A new database starts with business time frozen at this ISO 8601 instant, genesis included (reproducible runs)',
    }),
    'api-key': Flags.string({
      description: 'Fixed API key for the default direct merchant of a new database',
      env: 'PAYBOX_SANDBOX_API_KEY',
      dependsOn: ['api-secret'],
    }),
    'api-secret': Flags.string({
      description: 'Fixed API secret for the default direct merchant of a new database',
      env: 'PAYBOX_SANDBOX_API_SECRET',
      dependsOn: ['api-key'],
    }),
    'ledger-close': Flags.string({
      description: 'How often ledgers close: a duration (5s, like Stellar) or "instant" (one ledger per transaction, for tests)',
      default: '5s',
    }),
    durable: Flags.boolean({ description: 'synchronous=FULL: acknowledged writes also survive power loss (slower)' }),
    'require-https': Flags.boolean({ description: 'Skip (log, but do not send) webhooks to plain-http URLs' }),
    'allow-webhook-to': Flags.string({
      description: 'On a shared sandbox, a CIDR range, address or host webhooks may go to although internal (repeatable)',
      multiple: true,
    }),
    shared: Flags.boolean({
      description:
        'Stricter defaults for a sandbox others reach over a network: rate limits, tighter connection bounds, a private database (on for any non-loopback --host)',
    }),
    detach: Flags.boolean({
      description: 'Run in the background; print the banner once it is ready and exit (stop it with paybox sandbox stop)',
    }),
    json: Flags.boolean({ description: 'Print the startup information as one JSON line' }),
    quiet: Flags.boolean({ description: 'Do not print a line per API request on stderr (a detached sandbox never does)' }),
    // What --detach starts: it outlives the command that started it.
    'detached-child': Flags.boolean({ hidden: true }),
  }

  public async run(): Promise<void> {
    // oclif would blame --port for a bad PAYBOX_PORT, which the user never typed.
    const envPort = process.env.PAYBOX_PORT
    if (envPort && !this.argv.some((arg) => /^--port(=|$)/.test(arg)) && !(/^\d{1,5}$/.test(envPort) && Number(envPort) <= 65535)) {
      this.error(`PAYBOX_PORT must be a port number from 0 to 65535, got "${envPort}"`)
    }
    const { flags } = await this.parse(SandboxStart)
    if (
      flags['public-url'] !== undefined &&
      !/^https?:$/.test(URL.canParse(flags['public-url']) ? new URL(flags['public-url']).protocol : '')
    ) {
      this.error(`--public-url must be an absolute http(s) URL, got "${flags['public-url']}"`)
    }
    const ledgerClose = parseLedgerClose(flags['ledger-close'])
    if (ledgerClose === undefined)
      this.error(`--ledger-close must be "instant" or a duration such as 5s or 500ms, got "${flags['ledger-close']}"`)
    const frozenAt = flags['frozen-at']
    if (frozenAt !== undefined && !isoDateTime.safeParse(frozenAt).success) {
      this.error(`--frozen-at must be an ISO 8601 date-time with a zone, such as 2026-01-01T00:00:00Z, got "${frozenAt}"`)
    }
    // Given on the command line, the URL's password is in the process list (ps) for as long as it runs.
    const note = flags.db !== undefined && this.argv.some((arg) => arg.includes(flags.db!)) ? commandLinePasswordNote(flags.db) : undefined
    if (note !== undefined) process.stderr.write(`${note}\n`)
    if (flags.detach) return this.detach(flags.json)

    // Loaded here, not at the top: other commands must not pay for the server's modules.
    const [{ startSandbox }, { runSandbox, afterServing }] = await Promise.all([
      import('../../sandbox/server.js'),
      import('../../src/cli/sandbox-runner.js'),
    ])
    // bin/run.js held the young generation back while this loaded (young-generation.ts says why).
    const start: typeof startSandbox = (options) => startSandbox(options).finally(releaseYoungGeneration)
    afterServing(collectStartUpGarbage)
    await runSandbox(start, {
      options: {
        port: flags.port,
        host: flags.host,
        db: flags.db ?? defaultDatabaseFile(),
        publicUrl: flags['public-url'],
        seed: flags.seed,
        frozenAt: frozenAt === undefined ? undefined : Date.parse(frozenAt),
        snapshotDir: snapshotsDir(),
        durable: flags.durable,
        requireHttps: flags['require-https'],
        allowWebhookTo: flags['allow-webhook-to'],
        shared: flags.shared,
        ledgerClose,
        defaultCredentials:
          flags['api-key'] && flags['api-secret'] ? { apiKey: flags['api-key'], apiSecret: flags['api-secret'] } : undefined,
      },
      json: flags.json,
      quiet: flags.quiet,
      // The default sandbox (no --db, a fixed port) is the one the CLI finds: a second is refused.
      mayRunUnregistered: flags.db !== undefined || flags.port === 0,
      followParent: !flags['detached-child'],
      width: process.stdout.isTTY ? process.stdout.columns : undefined,
      log: (line) => this.log(line),
    })
  }

  /** Runs this same command again in the background, without --detach, and prints its banner once it is ready. */
  private async detach(json: boolean): Promise<void> {
    const { launchDetachedSandbox } = await import('../../src/config/sandbox-process.js')
    const path = await import('node:path')
    // From the sources (bin/dev.js, tests) or the build (bin/run.js): the same CLI as this one.
    const entry = path.join(this.config.root, 'bin', import.meta.url.endsWith('.ts') ? 'dev.js' : 'run.js')
    // A detached sandbox's log file would grow by a line per request: `paybox logs tail` shows them instead.
    const args = [...this.argv.filter((arg) => !/^--(detach|json|quiet)(=.*)?$/.test(arg)), '--quiet', '--detached-child']
    const started = await launchDetachedSandbox(entry, args)
    const banner = JSON.parse(started.bannerLine) as SandboxBanner
    const width = process.stdout.isTTY ? process.stdout.columns : undefined
    this.log(json ? JSON.stringify(banner) : renderBanner(banner, { detachedPid: started.pid, width }))
  }

  protected override async catch(error: Error & { code?: string }): Promise<void> {
    if (error.code === 'EEXIT') throw error
    // As BaseCommand: a failed parse still counts as parsed, or oclif's dev mode adds a warning line.
    Object.assign(this, { parsed: true })
    const message =
      error.code === 'EADDRINUSE'
        ? `${error.message}: another process uses that port (try --port 0)`
        : error.code === 'ESANDBOXCONFIG'
          ? error.message
          : reportError(error, { knownFlags: flagNamesOf(SandboxStart) }).message
    process.stderr.write(`Error: ${message}\n`)
    process.exitCode = 1
  }
}
