import { Args } from '@oclif/core'
import type { Refund } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderRefund } from '../../src/cli/render/refunds.js'

export default class RefundsGet extends ApiCommand<typeof RefundsGet> {
  static override args = {
    id: Args.string({ description: 'Refund id (rf_…)', required: true }),
  }

  static override summary = 'Show one refund'
  static override examples = ['<%= config.bin %> <%= command.id %> rf_0194…', '<%= config.bin %> <%= command.id %> rf_0194… --json']

  public async run(): Promise<Refund> {
    const refund = await this.client().refunds.get(this.args.id)
    this.print(renderRefund(refund))
    return refund
  }
}
