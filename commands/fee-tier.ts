import type { FeeTier } from '../src/client/types.js'
import { ApiCommand } from '../src/cli/base-command.js'
import { renderFeeTier } from '../src/cli/render/account.js'

export default class FeeTierShow extends ApiCommand<typeof FeeTierShow> {
  static override summary = "Show the merchant's fee tier, its rate and the volume to the next tier"
  static override description = 'The tier follows the USD volume settled over the trailing 30 days.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  public async run(): Promise<FeeTier> {
    const tier = await this.client().merchant.feeTier()
    this.print(renderFeeTier(tier))
    return tier
  }
}
