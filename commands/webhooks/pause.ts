import type { WebhooksPausedState } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'

export default class WebhooksPause extends ApiCommand<typeof WebhooksPause> {
  static override summary = 'Stop sending webhooks: events are logged as skipped until resumed'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']

  public async run(): Promise<WebhooksPausedState> {
    const state = await this.client().webhooks.pause()
    this.print(
      `Webhooks are paused for merchant ${state.merchant_id}: new events are logged as skipped, not sent. Undo with: paybox webhooks resume`,
    )
    return state
  }
}
