import { ApiCommand } from '../../src/cli/base-command.js'
import { renderStateSwap, withoutSecrets, type PrintedStateSwap } from '../../src/cli/render/sandbox.js'
import { updateLocalSandboxMerchants } from '../../src/config/local-sandbox.js'

export default class SandboxReset extends ApiCommand<typeof SandboxReset> {
  static override summary = 'Return the running sandbox to a fresh genesis (needs the admin token)'
  static override description =
    'Everything is discarded (payments, invoices, webhooks, merchants made since, ledger history) and genesis runs again ' +
    'with the options the sandbox started with: the same --seed gives the same keys and ids, --api-key/--api-secret the ' +
    'same fixed keys, --frozen-at the same instant. The admin token stays. Snapshots are kept. It does not ask: a sandbox is disposable. ' +
    'It prints the API keys, never the secrets (paybox sandbox keys prints those).'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  public async run(): Promise<PrintedStateSwap> {
    const connection = this.connection()
    const result = await this.adminClient(connection).sandbox.reset()
    updateLocalSandboxMerchants(connection.baseUrl, result.merchants)
    const printed = withoutSecrets(result)
    this.print(renderStateSwap('Reset the sandbox to its genesis', printed))
    return printed
  }
}
