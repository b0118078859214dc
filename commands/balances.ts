import { Args } from '@oclif/core'
import type { AccountBalances } from '../src/client/types.js'
import { ApiCommand } from '../src/cli/base-command.js'
import { details } from '../src/cli/output.js'
import { renderBalances } from '../src/cli/render/account.js'

export default class Balances extends ApiCommand<typeof Balances> {
  static override args = {
    asset: Args.string({ description: 'Only this asset: USDC, USDC:<issuer>, XLM or native' }),
  }

  static override summary = "Show the balances of the merchant's settlement account"
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> USDC',
    '<%= config.bin %> <%= command.id %> native --json',
  ]

  public async run(): Promise<AccountBalances | { balance: string }> {
    const client = this.client()
    const { asset } = this.args
    if (asset === undefined) {
      const balances = await client.balances.list()
      this.print(renderBalances(balances))
      return balances
    }
    const one = await client.balances.get(asset)
    this.print(
      details([
        ['Asset', asset],
        ['Balance', one.balance],
      ]),
    )
    return one
  }
}
