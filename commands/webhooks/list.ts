import { Flags } from '@oclif/core'
import { WEBHOOK_DELIVERY_STATUSES, type Page, type WebhookDelivery, type WebhookDeliveryStatus } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderDeliveryPage } from '../../src/cli/render/webhooks.js'
import { sendsField } from '../../src/cli/field-flags.js'

export default class WebhooksList extends ApiCommand<typeof WebhooksList> {
  static override summary = 'List webhook deliveries, newest first'
  static override description =
    "The delivery log of the merchant: one entry per event sent (or skipped) to a payment's webhookUrl, and per resend."
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --status failed',
    '<%= config.bin %> <%= command.id %> --payment pt_0194… --json',
  ]

  static override flags = {
    status: Flags.string({ description: 'Only deliveries with this status', options: [...WEBHOOK_DELIVERY_STATUSES] }),
    payment: sendsField('checkout_id', Flags.string({ description: 'Only deliveries about this payment (pt_…)' })),
    page: Flags.integer({ description: 'Page number', default: 1, min: 1 }),
    limit: Flags.integer({ description: 'Deliveries per page (1–100)', default: 20, min: 1, max: 100 }),
  }

  public async run(): Promise<Page<WebhookDelivery>> {
    const { flags } = this
    const page = await this.client().webhooks.list({
      status: flags.status as WebhookDeliveryStatus | undefined,
      checkout_id: flags.payment,
      page: flags.page,
      limit: flags.limit,
    })
    this.print(renderDeliveryPage(page))
    return page
  }
}
