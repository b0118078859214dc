import { PayboxClient } from '../../src/client/paybox-client.js'
import type { SandboxMerchant } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderStatus } from '../../src/cli/render/sandbox.js'

export interface SandboxStatusResult {
  baseUrl: string
  status: string
  merchants?: SandboxMerchant[]
}

export default class SandboxStatus extends ApiCommand<typeof SandboxStatus> {
  static override summary = 'Check that the sandbox is up and list its merchants'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --base-url http://127.0.0.1:4242 --json',
  ]
  public async run(): Promise<SandboxStatusResult> {
    const connection = this.connection()
    const client = new PayboxClient(connection)
    const health = await client.sandbox.health()
    const merchants = connection.adminToken ? (await client.sandbox.merchants()).items : undefined
    const result: SandboxStatusResult = { baseUrl: client.baseUrl, status: health.status, merchants }
    this.print(renderStatus(result.baseUrl, result.status, merchants))
    if (!merchants) this.notice('Pass --admin-token (or set PAYBOX_ADMIN_TOKEN) to list merchants.')
    return result
  }
}
