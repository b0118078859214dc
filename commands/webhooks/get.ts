import { Args } from '@oclif/core'
import type { WebhookDelivery } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { renderDelivery } from '../../src/cli/render/webhooks.js'

export default class WebhooksGet extends ApiCommand<typeof WebhooksGet> {
  static override args = {
    id: Args.string({ description: 'Delivery id, from paybox webhooks list', required: true }),
  }

  static override summary = "Show one webhook delivery: the exact payload sent and the receiver's answer"
  static override examples = ['<%= config.bin %> <%= command.id %> 5b0e…', '<%= config.bin %> <%= command.id %> 5b0e… --json']

  public async run(): Promise<WebhookDelivery> {
    const delivery = await this.client().webhooks.get(this.args.id)
    this.print(renderDelivery(delivery))
    return delivery
  }
}
