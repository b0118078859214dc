import { Args } from '@oclif/core'
import { PayboxApiError } from '../../src/client/errors.js'
import type { WebhookDelivery } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { UserError } from '../../src/user-error.js'
import { renderDelivery } from '../../src/cli/render/webhooks.js'

export default class WebhooksResend extends ApiCommand<typeof WebhooksResend> {
  static override args = {
    id: Args.string({ description: 'Delivery id, from paybox webhooks list', required: true }),
  }

  static override summary = 'Send a webhook delivery again'
  static override description =
    "Sends the stored payload again, byte for byte, to the same URL, signed with the merchant's current secret, and prints the new " +
    'log entry. The sandbox allows 10 resends a minute.'

  static override examples = ['<%= config.bin %> <%= command.id %> 5b0e…', '<%= config.bin %> <%= command.id %> 5b0e… --json']

  public async run(): Promise<WebhookDelivery> {
    const delivery = await this.client()
      .webhooks.resend(this.args.id)
      .catch((error: unknown) => {
        if (error instanceof PayboxApiError && error.statusCode === 429) {
          const wait = error.retryAfterSeconds === undefined ? 'in a minute' : `in ${error.retryAfterSeconds} s`
          throw new UserError('Too many resends: the sandbox allows 10 a minute', `retry ${wait}`)
        }
        throw error
      })
    this.print(renderDelivery(delivery))
    return delivery
  }
}
