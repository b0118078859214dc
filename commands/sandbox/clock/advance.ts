import { Args } from '@oclif/core'
import ms from 'ms'
import type { SandboxClock } from '../../../src/client/types.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { UserError } from '../../../src/user-error.js'
import { renderClockAdvance } from '../../../src/cli/render/sandbox.js'

export default class SandboxClockAdvance extends ApiCommand<typeof SandboxClockAdvance> {
  static override args = {
    duration: Args.string({ description: 'How far to move business time: 90s, 30m, 2h, 7d', required: true }),
  }

  static override summary = 'Move business time forward and process everything that came due'
  static override examples = ['<%= config.bin %> <%= command.id %> 31m', '<%= config.bin %> <%= command.id %> 7d --json']

  public async run(): Promise<SandboxClock & { processed: Record<string, number> }> {
    const milliseconds = parseDuration(this.args.duration)
    const result = await this.adminClient().sandbox.advanceClock(milliseconds / 1000)
    this.print(renderClockAdvance(result))
    return result
  }
}

function parseDuration(text: string): number {
  const milliseconds = /^\d+$/.test(text) ? Number(text) * 1000 : ms(text as ms.StringValue)
  if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds) || milliseconds < 1000 || milliseconds % 1000 !== 0) {
    throw new UserError(`Invalid duration "${text}"`, 'a whole number of seconds or a duration such as 90s, 30m, 2h, 7d')
  }
  return milliseconds
}
