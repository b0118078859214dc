import type { OriginChains } from '../src/client/types.js'
import { ApiCommand } from '../src/cli/base-command.js'
import { renderOriginChains } from '../src/cli/render/cross-chain.js'

export default class Chains extends ApiCommand<typeof Chains> {
  static override summary = 'List the chains and tokens a payment can be paid from through the bridge'
  static override description =
    "What paybox payments quote takes as --origin-chain and --origin-token, with each token's decimals and sandbox USD rate, " +
    'and the bridge fee (GET /cross-chain/chains).'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  public async run(): Promise<OriginChains> {
    const chains = await this.client().crossChain.chains()
    this.print(renderOriginChains(chains))
    return chains
  }
}
