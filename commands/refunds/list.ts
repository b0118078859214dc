import { Flags } from '@oclif/core'
import type { Page, Refund } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderRefundPage } from '../../src/cli/render/refunds.js'

export default class RefundsList extends ApiCommand<typeof RefundsList> {
  static override summary = 'List refunds, newest first'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --page 2 --limit 50 --json']
  static override flags = {
    page: Flags.integer({ description: 'Page number', default: 1, min: 1 }),
    limit: Flags.integer({ description: 'Refunds per page (1–100)', default: 20, min: 1, max: 100 }),
  }

  public async run(): Promise<Page<Refund>> {
    const page = await this.client().refunds.list({ page: this.flags.page, limit: this.flags.limit })
    this.print(renderRefundPage(page))
    return page
  }
}
