import { Args } from '@oclif/core'
import type { SandboxClock } from '../../../src/client/types.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { UserError } from '../../../src/user-error.js'
import { renderClockAdvance } from '../../../src/cli/render/sandbox.js'
import { ADVANCE_DURATION_HINT, parseAdvanceSeconds } from '../../../src/duration.js'

export default class SandboxClockAdvance extends ApiCommand<typeof SandboxClockAdvance> {
  static override args = {
    duration: Args.string({ description: 'How far to move business time: 90s, 30m, 2h, 7d', required: true }),
  }

  static override summary = 'Move business time forward and process everything that came due'
  static override examples = ['<%= config.bin %> <%= command.id %> 31m', '<%= config.bin %> <%= command.id %> 7d --json']

  public async run(): Promise<SandboxClock & { processed: Record<string, number> }> {
    const seconds = parseAdvanceSeconds(this.args.duration)
    if (seconds === undefined) throw new UserError(`Invalid duration "${this.args.duration}"`, ADVANCE_DURATION_HINT)
    const result = await this.adminClient().sandbox.advanceClock({ seconds })
    this.print(renderClockAdvance(result))
    return result
  }
}
