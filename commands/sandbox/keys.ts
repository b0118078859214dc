import { Flags } from '@oclif/core'
import type { SandboxMerchant } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { UserError } from '../../src/user-error.js'
import { renderKeys, renderKeysAsEnv } from '../../src/cli/render/sandbox.js'
import { defaultMerchant } from '../../src/config/local-sandbox.js'

export interface SandboxKeysResult {
  baseUrl: string
  adminToken: string
  merchants: SandboxMerchant[]
}

export default class SandboxKeys extends ApiCommand<typeof SandboxKeys> {
  static override summary = "Print the sandbox's admin token and merchants' keys, for scripts"
  static override description =
    "Asks the sandbox (admin token: the local sandbox's, or --admin-token / PAYBOX_ADMIN_TOKEN), so the keys are current " +
    'even after a secret rotation or a restore. --env prints shell exports for one merchant (the given one, or the first direct one).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> --json',
    '<%= config.bin %> <%= command.id %> --merchant "Acme Store" --json',
    'eval "$(<%= config.bin %> <%= command.id %> --env)"',
  ]

  static override flags = {
    merchant: Flags.string({ description: 'Only this merchant: its id or its name' }),
    env: Flags.boolean({ description: 'Print PAYBOX_* shell exports for one merchant instead', exclusive: ['json'] }),
  }

  public async run(): Promise<SandboxKeysResult> {
    const connection = this.connection()
    const all = (await this.adminClient(connection).sandbox.merchants()).items
    const wanted = this.flags.merchant
    const merchants = wanted === undefined ? all : all.filter((m) => m.id === wanted || m.name.toLowerCase() === wanted.toLowerCase())
    if (merchants.length === 0) {
      throw new UserError(`No merchant "${wanted}"`, `the sandbox has: ${all.map((m) => `${m.name} (${m.id})`).join(', ')}`)
    }
    const result: SandboxKeysResult = { baseUrl: connection.baseUrl, adminToken: connection.adminToken!, merchants }
    if (this.flags.env) {
      this.print(renderKeysAsEnv(result.baseUrl, result.adminToken, defaultMerchant(merchants)!))
    } else {
      this.print(renderKeys(result.baseUrl, result.adminToken, merchants))
    }
    return result
  }
}
