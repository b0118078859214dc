import { Command, Flags } from '@oclif/core'
import ms from 'ms'
import { defaultDatabaseFile } from '../../src/config/paths.js'
import { clearLocalSandbox, writeLocalSandbox } from '../../src/config/local-sandbox.js'
import { reportError } from '../../src/cli/errors.js'
import { renderBanner, type SandboxBanner } from '../../src/cli/render/sandbox.js'
import { DEFAULT_HOST, DEFAULT_PORT } from '../../sandbox/defaults.js'

function parseLedgerClose(text: string): 'instant' | number | undefined {
  if (text === 'instant') return 'instant'
  const interval = ms(text as ms.StringValue)
  return typeof interval === 'number' && Number.isInteger(interval) && interval >= 10 ? interval : undefined
}

export default class SandboxStart extends Command {
  static override summary = 'Run the local sandbox server'
  static override description =
    'Starts the payments API sandbox on SQLite and prints its base URL, admin token and the seeded merchants\' keys. ' +
    'With --json the first stdout line is one JSON object, printed once the server accepts connections.'

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --port 0 --db :memory: --json',
    '<%= config.bin %> <%= command.id %> --seed ci --api-key pk_test_ci --api-secret sk_test_ci',
  ]

  static override flags = {
    port: Flags.integer({ description: 'Port to listen on (0 = any free port)', default: DEFAULT_PORT, min: 0, max: 65535 }),
    host: Flags.string({ description: 'Interface to bind', default: DEFAULT_HOST }),
    db: Flags.string({ description: 'SQLite database file, or :memory: (default: ~/.paybox/sandbox.db)' }),
    'public-url': Flags.string({ description: 'Base of hostedUrl, shortUrl and page links (default: http://HOST:PORT)' }),
    seed: Flags.string({ description: 'Make generated keys, ids and ledger keypairs deterministic' }),
    'api-key': Flags.string({ description: 'Fixed API key for the default direct merchant of a new database', env: 'PAYBOX_SANDBOX_API_KEY', dependsOn: ['api-secret'] }),
    'api-secret': Flags.string({ description: 'Fixed API secret for the default direct merchant of a new database', env: 'PAYBOX_SANDBOX_API_SECRET', dependsOn: ['api-key'] }),
    'ledger-close': Flags.string({
      description: 'How often ledgers close: a duration (5s, like Stellar) or "instant" (one ledger per transaction, for tests)',
      default: '5s',
    }),
    durable: Flags.boolean({ description: 'synchronous=FULL: acknowledged writes also survive power loss (slower)' }),
    'require-https': Flags.boolean({ description: 'Skip (log, but do not send) webhooks to plain-http URLs' }),
    json: Flags.boolean({ description: 'Print the startup information as one JSON line' }),
  }

  public async run(): Promise<void> {
    const { flags } = await this.parse(SandboxStart)
    if (flags['public-url'] !== undefined && !/^https?:$/.test(URL.canParse(flags['public-url']) ? new URL(flags['public-url']).protocol : '')) {
      this.error(`--public-url must be an absolute http(s) URL, got "${flags['public-url']}"`, { exit: 2 })
    }
    const ledgerClose = parseLedgerClose(flags['ledger-close'])
    if (ledgerClose === undefined) this.error(`--ledger-close must be "instant" or a duration such as 5s or 500ms, got "${flags['ledger-close']}"`, { exit: 2 })
    const database = flags.db ?? defaultDatabaseFile()
    // Loaded here, not at the top: other commands must not pay for the server's modules.
    const { startSandbox } = await import('../../sandbox/server.js')
    const sandbox = await startSandbox({
      port: flags.port,
      host: flags.host,
      db: database,
      publicUrl: flags['public-url'],
      seed: flags.seed,
      durable: flags.durable,
      requireHttps: flags['require-https'],
      ledgerClose,
      defaultCredentials: flags['api-key'] && flags['api-secret'] ? { apiKey: flags['api-key'], apiSecret: flags['api-secret'] } : undefined,
    })
    const banner: SandboxBanner = {
      baseUrl: sandbox.url,
      adminToken: sandbox.identity.adminToken,
      networkPassphrase: sandbox.identity.networkPassphrase,
      database,
      merchants: sandbox.merchants,
    }
    // Listen for signals before announcing readiness: whoever reads the banner may signal at once.
    const stopRequested = new Promise<void>((resolve) => {
      const shutDown = (signal: NodeJS.Signals) => {
        process.stderr.write(`\n${signal} received: finishing in-flight requests and closing the database\n`)
        resolve()
      }
      process.once('SIGINT', shutDown)
      process.once('SIGTERM', shutDown)
    })
    writeLocalSandbox({ baseUrl: sandbox.url, adminToken: banner.adminToken, pid: process.pid, merchants: sandbox.merchants })
    this.log(flags.json ? JSON.stringify(banner) : renderBanner(banner))

    await stopRequested
    await sandbox.stop()
    clearLocalSandbox(process.pid)
  }

  protected override async catch(error: Error & { code?: string }): Promise<void> {
    if (error.code === 'EEXIT') throw error
    const message = error.code === 'EADDRINUSE' ? `${error.message}: another process uses that port (try --port 0)` : reportError(error).message
    process.stderr.write(`Error: ${message}\n`)
    process.exitCode = 1
  }
}
