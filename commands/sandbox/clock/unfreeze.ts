import type { SandboxClock } from '../../../src/client/types.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { renderClock } from '../../../src/cli/render/sandbox.js'

export default class SandboxClockUnfreeze extends ApiCommand<typeof SandboxClockUnfreeze> {
  static override summary = 'Let business time run again from where it stood (needs the admin token)'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  public async run(): Promise<SandboxClock> {
    const clock = await this.adminClient().sandbox.unfreezeClock()
    this.print(renderClock(clock))
    return clock
  }
}
