import { Flags } from '@oclif/core'
import type { LedgerTransaction } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { accountAddressFlag } from '../../src/cli/flag-values.js'
import { renderLedgerTransactions } from '../../src/cli/render/ledger.js'

export default class LedgerTransactions extends ApiCommand<typeof LedgerTransactions> {
  static override summary = 'List transactions on the sandbox ledger'
  static override description =
    'Oldest first by default. To page on, pass the position of the last transaction shown (--json shows it) as --after.'

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --account GCUST… --order desc --limit 10',
    '<%= config.bin %> <%= command.id %> --after 40 --json',
  ]

  static override flags = {
    account: Flags.string({ description: 'Only transactions this account (G…) sent, or that pay to or from it' }),
    limit: Flags.integer({ description: 'Transactions to show (1–200)', default: 20, min: 1, max: 200 }),
    order: Flags.string({ description: 'By position on the ledger', options: ['asc', 'desc'], default: 'asc' }),
    after: Flags.integer({ description: 'Only transactions past this position, in the chosen order', min: 0 }),
  }

  public async run(): Promise<{ items: LedgerTransaction[] }> {
    const { flags } = this
    const client = this.adminClient()
    const account = flags.account === undefined ? undefined : await accountAddressFlag(flags.account, 'account')
    const result = await client.ledger.transactions({
      account,
      limit: flags.limit,
      order: flags.order as 'asc' | 'desc',
      after: flags.after,
    })
    this.print(renderLedgerTransactions(result.items))
    return result
  }
}
