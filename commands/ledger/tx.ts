import { Args } from '@oclif/core'
import type { LedgerTransaction } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { transactionHashArg } from '../../src/cli/flag-values.js'
import { renderLedgerTransaction } from '../../src/cli/render/ledger.js'

export default class LedgerTx extends ApiCommand<typeof LedgerTx> {
  static override args = {
    hash: Args.string({ description: "Transaction hash (64 hex digits), e.g. a payment's stellarTxId", required: true }),
  }

  static override summary = 'Show one ledger transaction with each of its operations'
  static override examples = ['<%= config.bin %> <%= command.id %> 3f9a…c210', '<%= config.bin %> <%= command.id %> 3f9a…c210 --json']

  public async run(): Promise<LedgerTransaction> {
    const hash = transactionHashArg(this.args.hash)
    const tx = await this.adminClient().ledger.transaction(hash)
    this.print(renderLedgerTransaction(tx))
    return tx
  }
}
