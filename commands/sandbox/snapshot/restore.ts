import { Args } from '@oclif/core'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { renderStateSwap, withoutSecrets, type PrintedStateSwap } from '../../../src/cli/render/sandbox.js'
import { updateLocalSandboxMerchants } from '../../../src/config/local-sandbox.js'

export default class SandboxSnapshotRestore extends ApiCommand<typeof SandboxSnapshotRestore> {
  static override args = {
    name: Args.string({ description: 'Snapshot name (see paybox sandbox snapshot list)', required: true }),
  }

  static override summary = "Replace the running sandbox's whole state with a snapshot's (needs the admin token)"
  static override description =
    'Requests wait while the state is swapped (well under a second), live streams reconnect, and everything made after the ' +
    "snapshot is gone. The admin token stays; merchants and their keys are the snapshot's, and the local state file is updated."

  static override examples = ['<%= config.bin %> <%= command.id %> seeded', '<%= config.bin %> <%= command.id %> seeded --json']

  public async run(): Promise<PrintedStateSwap> {
    const connection = this.connection()
    const result = await this.adminClient(connection).snapshots.restore(this.args.name)
    updateLocalSandboxMerchants(connection.baseUrl, result.merchants)
    const printed = withoutSecrets(result)
    this.print(renderStateSwap(`Restored snapshot "${this.args.name}"`, printed))
    return printed
  }
}
