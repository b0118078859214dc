import { Flags } from '@oclif/core'
import type { SandboxClock } from '../../../src/client/types.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { renderClock } from '../../../src/cli/render/sandbox.js'

export default class SandboxClockFreeze extends ApiCommand<typeof SandboxClockFreeze> {
  static override summary = 'Stop business time, for reproducible runs (needs the admin token)'
  static override description =
    'Business time stands still (at --at, or now) until unfrozen, across restarts too; `clock advance` still moves it. ' +
    'It only moves forward: --at may not be earlier than the current business time (start a new sandbox with --frozen-at for that).'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --at 2027-01-01T00:00:00Z --json']
  static override flags = {
    at: Flags.string({ description: 'The instant to stand still at, ISO 8601 with a zone (default: now)' }),
  }

  public async run(): Promise<SandboxClock> {
    const clock = await this.adminClient().sandbox.freezeClock({ at: this.flags.at })
    this.print(renderClock(clock))
    return clock
  }
}
