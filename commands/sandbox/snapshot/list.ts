import type { SandboxSnapshot } from '../../../src/client/types.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { renderSnapshots } from '../../../src/cli/render/sandbox.js'

export default class SandboxSnapshotList extends ApiCommand<typeof SandboxSnapshotList> {
  static override summary = "List the running sandbox's snapshots (needs the admin token)"
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  public async run(): Promise<{ items: SandboxSnapshot[] }> {
    const result = await this.adminClient().snapshots.list()
    this.print(
      result.items.length === 0 ? 'No snapshots yet (save one with: paybox sandbox snapshot save <name>)' : renderSnapshots(result.items),
    )
    return result
  }
}
