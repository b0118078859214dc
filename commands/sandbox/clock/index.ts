import type { SandboxClock } from '../../../src/client/types.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import { businessClock } from '../../../src/cli/business-clock.js'
import { clockMerchantFlag, clockMerchantOf } from '../../../src/cli/merchant-clock-flag.js'
import { renderClock } from '../../../src/cli/render/sandbox.js'

export default class SandboxClockShow extends ApiCommand<typeof SandboxClockShow> {
  static override summary = "Show the sandbox's business time"
  static override description =
    'Business time drives expiry, due dates and escrow deadlines. It runs with the wall clock, plus however far it has been advanced, ' +
    "or stands still while frozen (paybox sandbox clock freeze). With --merchant: that merchant's business time (a tenant's own clock)."

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
    const clock = await businessClock(merchant === undefined ? this.adminClient() : this.adminOrMerchantClient(), merchant).get()
    this.print(renderClock(clock))
    return clock
  }
}
