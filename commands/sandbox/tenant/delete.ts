import { Args } from '@oclif/core'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { chalk } from '../../../src/cli/output.js'
import type { ArchivedTenant } from '../../../src/client/types.js'

export default class SandboxTenantDelete extends ApiCommand<typeof SandboxTenantDelete> {
  static override args = {
    id: Args.string({ description: 'The tenant (merchant) id', required: true }),
  }

  static override summary = 'Archive a tenant: its keys stop working and its objects leave lists and sweeps (needs the admin token)'
  static override description =
    'The ledger keeps every transaction it made. Deleting an archived tenant again succeeds and changes nothing.'

  static override examples = ['<%= config.bin %> <%= command.id %> 3037996a-b7a9-4783-a00d-ff37d85b27a9']

  public async run(): Promise<ArchivedTenant> {
    const archived = await this.adminClient().sandbox.archiveTenant(this.args.id)
    this.print(`${chalk.green('Archived')} tenant ${archived.id} at ${archived.archivedAt}`)
    return archived
  }
}
