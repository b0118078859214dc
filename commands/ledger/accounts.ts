import { Flags } from '@oclif/core'
import { LEDGER_ROLES, type LedgerAccount, type LedgerAccountRole } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderLedgerAccounts } from '../../src/cli/render/ledger.js'

export default class LedgerAccounts extends ApiCommand<typeof LedgerAccounts> {
  static override summary = 'List the accounts on the sandbox ledger and their balances'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --role customer --json']
  static override flags = {
    role: Flags.string({ description: 'Only accounts with this role', options: [...LEDGER_ROLES] }),
  }

  public async run(): Promise<{ items: LedgerAccount[] }> {
    const result = await this.adminClient().ledger.accounts({ role: this.flags.role as LedgerAccountRole | undefined })
    this.print(renderLedgerAccounts(result.items))
    return result
  }
}
