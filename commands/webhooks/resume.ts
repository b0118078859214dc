import type { WebhooksPausedState } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'

export default class WebhooksResume extends ApiCommand<typeof WebhooksResume> {
  static override summary = 'Send webhooks again after a pause'
  static override description = 'Events from now on are sent. Those skipped while paused are not: resend them with paybox webhooks resend.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  public async run(): Promise<WebhooksPausedState> {
    const state = await this.client().webhooks.resume()
    this.print(`Webhooks are sent again for merchant ${state.merchant_id}.`)
    return state
  }
}
