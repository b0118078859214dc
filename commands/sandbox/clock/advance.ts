import { Args } from '@oclif/core'
import type { AdvancedClock } from '../../../src/client/types.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { businessClock } from '../../../src/cli/business-clock.js'
import { clockMerchantFlag, clockMerchantOf } from '../../../src/cli/merchant-clock-flag.js'
import { UserError } from '../../../src/user-error.js'
import { renderClockAdvance } from '../../../src/cli/render/sandbox.js'
import { ADVANCE_DURATION_HINT, parseAdvanceSeconds } from '../../../src/duration.js'

export default class SandboxClockAdvance extends ApiCommand<typeof SandboxClockAdvance> {
  static override args = {
    duration: Args.string({ description: 'How far to move business time: 90s, 30m, 2h, 7d', required: true }),
  }

  static override summary = 'Move business time forward and process everything that came due'
  static override description =
    "Moves the whole sandbox's business time, or with --merchant one merchant's own (a tenant's): only that merchant's payments, " +
    'invoices and escrow orders come due.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> 31m',
    '<%= config.bin %> <%= command.id %> 7d --json',
    '<%= config.bin %> <%= command.id %> 31m --merchant 3037996a-b7a9-4783-a00d-ff37d85b27a9',
  ]

  static override flags = {
    merchant: clockMerchantFlag,
  }

  public async run(): Promise<AdvancedClock> {
    const merchant = clockMerchantOf(this.flags.merchant)
    const seconds = parseAdvanceSeconds(this.args.duration)
    if (seconds === undefined) throw new UserError(`Invalid duration "${this.args.duration}"`, ADVANCE_DURATION_HINT)
    const result = await businessClock(merchant === undefined ? this.adminClient() : this.adminOrMerchantClient(), merchant).advance(
      seconds,
    )
    this.print(renderClockAdvance(result))
    return result
  }
}
