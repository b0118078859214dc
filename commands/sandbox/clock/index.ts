import type { SandboxClock } from '../../../src/client/types.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { renderClock } from '../../../src/cli/render/sandbox.js'

export default class SandboxClockShow extends ApiCommand<typeof SandboxClockShow> {
  static override summary = "Show the sandbox's business time"
  static override description =
    'Business time drives expiry, due dates and escrow deadlines. It runs with the wall clock, plus however far it has been advanced, ' +
    'or stands still while frozen (paybox sandbox clock freeze).'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  public async run(): Promise<SandboxClock> {
    const clock = await this.adminClient().sandbox.clock()
    this.print(renderClock(clock))
    return clock
  }
}
