import { Flags } from '@oclif/core'
import type { Page, Payment } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { fetchPrecisions, renderPaymentPage } from '../../src/cli/render/payments.js'
import { PAYMENT_STATUSES } from '../../src/api/enumerations.js'
import { sendsField } from '../../src/cli/field-flags.js'

export default class PaymentsList extends ApiCommand<typeof PaymentsList> {
  static override summary = 'List payments, newest first'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --status paid --since 2026-11-01 --limit 50',
    '<%= config.bin %> <%= command.id %> --store-id berlin --page 2 --json',
  ]

  static override flags = {
    status: Flags.string({ description: 'Only payments with this status', options: [...PAYMENT_STATUSES] }),
    since: sendsField('startDate', Flags.string({ description: 'Created at or after (ISO 8601 date or date-time)' })),
    until: sendsField('endDate', Flags.string({ description: 'Created at or before (ISO 8601 date or date-time)' })),
    'store-id': Flags.string({ description: 'Only payments of this store' }),
    page: Flags.integer({ description: 'Page number', default: 1, min: 1 }),
    limit: Flags.integer({ description: 'Payments per page (1–100)', default: 20, min: 1, max: 100 }),
  }

  public async run(): Promise<Page<Payment>> {
    const client = this.client()
    const page = await client.payments.list({
      page: this.flags.page,
      limit: this.flags.limit,
      status: this.flags.status,
      startDate: this.flags.since,
      endDate: this.flags.until,
      storeId: this.flags['store-id'],
    })
    if (!this.jsonEnabled()) this.print(renderPaymentPage(page, await fetchPrecisions(client)))
    return page
  }
}
