import type { SandboxClock } from '../../../src/client/types.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { businessClock } from '../../../src/cli/business-clock.js'
import { clockMerchantFlag, clockMerchantOf } from '../../../src/cli/merchant-clock-flag.js'
import { renderClock } from '../../../src/cli/render/sandbox.js'

export default class SandboxClockUnfreeze extends ApiCommand<typeof SandboxClockUnfreeze> {
  static override summary = 'Let business time run again from where it stood (needs the admin token)'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --json',
    '<%= config.bin %> <%= command.id %> --merchant 3037996a-b7a9-4783-a00d-ff37d85b27a9',
  ]

  static override flags = {
    merchant: clockMerchantFlag,
  }

  public async run(): Promise<SandboxClock> {
    const merchant = clockMerchantOf(this.flags.merchant)
    const clock = await businessClock(merchant === undefined ? this.adminClient() : this.adminOrMerchantClient(), merchant).unfreeze()
    this.print(renderClock(clock))
    return clock
  }
}
