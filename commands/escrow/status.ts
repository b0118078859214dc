import { Args } from '@oclif/core'
import type { EscrowOrder } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderEscrowStatus } from '../../src/cli/render/escrow.js'

export default class EscrowStatus extends ApiCommand<typeof EscrowStatus> {
  static override args = {
    paymentId: Args.string({ description: 'Payment id (pt_…) of an escrow merchant', required: true }),
  }

  static override summary = 'Show an escrow order: its status, custody, payee, fee and ledger transactions'
  static override examples = ['<%= config.bin %> <%= command.id %> pt_0194…', '<%= config.bin %> <%= command.id %> pt_0194… --json']

  public async run(): Promise<EscrowOrder> {
    const order = await this.client().escrow.status(this.args.paymentId)
    this.print(renderEscrowStatus(order))
    return order
  }
}
