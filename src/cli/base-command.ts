// What every paybox command shares. BaseCommand: --json, output helpers and one error handler
// that prints a single line and exits non-zero. ApiCommand adds the connection flags (flags
// beat env beat profile beat the local sandbox) and a ready PayboxClient.
import { Command, Flags, type Interfaces } from '@oclif/core'
import { nodeHttpTransport } from '../client/node-http-transport.js'
import { PayboxConnectionError } from '../client/errors.js'
import { PayboxClient } from '../client/paybox-client.js'
import { resolveConnection, type Connection } from '../config/connection.js'
import { flagNamesOf } from './did-you-mean.js'
import { reportError, START_SANDBOX_HINT } from './errors.js'
import { flagsByField } from './field-flags.js'
import { UserError } from '../user-error.js'
import { chalk, fitTablesTo } from './output.js'

type AnyFlags = Interfaces.FlagInput
export type CommandFlags<T extends typeof Command, B extends AnyFlags> = Interfaces.InferredFlags<B & T['flags']>
export type CommandArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>

/** Flags of every command's output. */
export const outputFlags = {
  wide: Flags.boolean({ helpGroup: 'GLOBAL', description: 'Draw tables whole, however wide (on a terminal they are cut to fit it)' }),
}

export abstract class BaseCommand<T extends typeof Command, B extends AnyFlags = typeof outputFlags> extends Command {
  static override enableJsonFlag = true
  static override baseFlags: AnyFlags = outputFlags

  protected flags!: CommandFlags<T, B>
  protected args!: CommandArgs<T>

  public override async init(): Promise<void> {
    await super.init()
    const { args, flags } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: this.ctor.baseFlags,
      enableJsonFlag: this.ctor.enableJsonFlag,
      args: this.ctor.args,
      strict: this.ctor.strict,
    })
    this.flags = flags as CommandFlags<T, B>
    this.args = args as CommandArgs<T>
    // A terminal shows tables cut to its width; piped output stays whole for whoever reads it.
    const wide = (this.flags as { wide?: boolean }).wide === true
    fitTablesTo(!wide && !this.jsonEnabled() && process.stdout.isTTY ? process.stdout.columns : undefined)
  }

  /** Writes human output; with --json nothing but the returned result reaches stdout. */
  protected print(text: string): void {
    if (!this.jsonEnabled()) this.log(text)
  }

  /** Notices go to stderr so stdout stays parseable. */
  protected notice(text: string): void {
    this.logToStderr(text)
  }

  /** One line on stderr and exit 1, while the result is still printed (the --json document) for the details. */
  protected reportFailure(message: string): void {
    process.exitCode = 1
    process.stderr.write(`${chalk.red('Error:')} ${message}\n`)
  }

  protected override async catch(error: Interfaces.CommandError): Promise<void> {
    // this.exit() inside a command travels as an error too: let it through untouched.
    if ((error as { code?: string }).code === 'EEXIT') throw error
    // A failed parse still counts as parsed; otherwise oclif's dev mode warns that it never ran.
    Object.assign(this, { parsed: true })
    const report = reportError(await trueCause(error), {
      knownFlags: flagNamesOf(this.ctor),
      flagOfField: flagsByField(this.ctor.flags ?? {}, this.flags),
    })
    process.exitCode = report.exitCode
    if (this.jsonEnabled()) {
      this.logJson({ error: { message: report.message, statusCode: report.statusCode, reason: report.reason } })
    }
    process.stderr.write(`${chalk.red('Error:')} ${report.message}\n`)
  }
}

/** No keys or token for a base URL: what to pass, unless no sandbox runs there at all (trueCause). */
class MissingCredentials extends UserError {
  constructor(
    readonly baseUrl: string,
    message: string,
    hint: string,
  ) {
    super(message, hint)
  }
}

// A new user with no sandbox running has no keys either: the missing sandbox is what to fix first.
async function trueCause(error: unknown): Promise<unknown> {
  if (!(error instanceof MissingCredentials) || (await answersAt(error.baseUrl))) return error
  return new UserError(`Nothing answers at ${error.baseUrl}`, `is the sandbox running? ${START_SANDBOX_HINT}`)
}

/** Whether anything answers HTTP at `baseUrl` (any answer, even an error, counts). */
async function answersAt(baseUrl: string): Promise<boolean> {
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS)
  const probe = new PayboxClient({ baseUrl, fetch: (url, init) => nodeHttpTransport(url, { ...init, signal }) })
  try {
    await probe.sandbox.health()
    return true
  } catch (error) {
    return !(error instanceof PayboxConnectionError)
  }
}

const PROBE_TIMEOUT_MS = 2_000

export const connectionFlags = {
  'base-url': Flags.string({ helpGroup: 'CONNECTION', description: 'API base URL [env: PAYBOX_BASE_URL]' }),
  'api-key': Flags.string({ helpGroup: 'CONNECTION', description: 'Merchant API key [env: PAYBOX_API_KEY]' }),
  'api-secret': Flags.string({ helpGroup: 'CONNECTION', description: 'Merchant API secret [env: PAYBOX_API_SECRET]' }),
  'admin-token': Flags.string({
    helpGroup: 'CONNECTION',
    description: 'Sandbox admin token, for /sandbox controls [env: PAYBOX_ADMIN_TOKEN]',
  }),
  profile: Flags.string({ helpGroup: 'CONNECTION', description: 'Profile from the config file [env: PAYBOX_PROFILE]' }),
}

export abstract class ApiCommand<T extends typeof Command> extends BaseCommand<T, typeof outputFlags & typeof connectionFlags> {
  static override baseFlags: AnyFlags = { ...outputFlags, ...connectionFlags }

  /** The resolved connection settings of this invocation. */
  protected connection(): Connection {
    return resolveConnection({
      baseUrl: this.flags['base-url'],
      apiKey: this.flags['api-key'],
      apiSecret: this.flags['api-secret'],
      adminToken: this.flags['admin-token'],
      profile: this.flags.profile,
    })
  }

  protected client(connection: Connection = this.connection()): PayboxClient {
    if (!connection.apiKey || !connection.apiSecret) {
      throw new MissingCredentials(
        connection.baseUrl,
        `No API key and secret for ${connection.baseUrl}`,
        'pass --api-key and --api-secret, set PAYBOX_API_KEY and PAYBOX_API_SECRET, or run: paybox login',
      )
    }
    return newClient(connection)
  }

  /** A client for the sandbox's own controls, which take the admin token instead of keys. */
  protected adminClient(connection: Connection = this.connection()): PayboxClient {
    if (!connection.adminToken) {
      throw new MissingCredentials(
        connection.baseUrl,
        `No sandbox admin token for ${connection.baseUrl}`,
        'pass --admin-token, set PAYBOX_ADMIN_TOKEN, or run: paybox login --from-sandbox',
      )
    }
    return newClient(connection)
  }

  /** For what the admin token or the merchant's own keys may do (a merchant's clock): the token when there is one, else the keys. */
  protected adminOrMerchantClient(connection: Connection = this.connection()): PayboxClient {
    return connection.adminToken ? newClient(connection) : this.client(connection)
  }
}

// node:http rather than global fetch: undici's load is most of a command's cold start (docs/performance.md).
const newClient = (connection: Connection): PayboxClient => new PayboxClient({ ...connection, fetch: nodeHttpTransport })
