import { Args, Flags } from '@oclif/core'
import type { SandboxSnapshot } from '../../../src/client/types.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { renderSnapshots } from '../../../src/cli/render/sandbox.js'
import { sendsField } from '../../../src/cli/field-flags.js'

export default class SandboxSnapshotSave extends ApiCommand<typeof SandboxSnapshotSave> {
  static override args = {
    name: Args.string({ description: 'Snapshot name: letters, digits, dots, dashes, underscores', required: true }),
  }

  static override summary = "Save a consistent copy of the running sandbox's whole state (needs the admin token)"
  static override description =
    "Copies the database, ledger included, with SQLite's online backup while the sandbox keeps serving. Snapshots are " +
    'files in the snapshots folder of the data folder (~/.paybox/snapshots); restore one with paybox sandbox snapshot restore.'

  static override examples = ['<%= config.bin %> <%= command.id %> seeded', '<%= config.bin %> <%= command.id %> seeded --force --json']
  static override flags = {
    force: sendsField('replace', Flags.boolean({ description: 'Overwrite a snapshot of that name' })),
  }

  public async run(): Promise<SandboxSnapshot> {
    const snapshot = await this.adminClient().snapshots.save({ name: this.args.name, replace: this.flags.force })
    this.print(renderSnapshots([snapshot]))
    return snapshot
  }
}
