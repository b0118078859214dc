import { ApiCommand } from '../../src/cli/base-command.js'
import { eventFilter, eventsFlag } from '../../src/cli/event-filter.js'
import { followStream, jsonLine, streamNotice, untilStopped } from '../../src/cli/live-stream.js'
import { deliveryLine } from '../../src/cli/render/webhooks.js'

export default class WebhooksTail extends ApiCommand<typeof WebhooksTail> {
  static override summary = 'Print each webhook delivery as it finishes, until Ctrl+C'
  static override description =
    'One line per delivery: time, event, payment, status, HTTP status, duration, id. With --json, one JSON object per line ' +
    '(the full log entry, payload included) instead of one document. Reconnects by itself if the stream drops; deliveries ' +
    'that finish while it is disconnected are in paybox webhooks list.'

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --events transaction_updated,transaction_failed',
    '<%= config.bin %> <%= command.id %> --json | jq .status',
  ]

  static override flags = {
    events: eventsFlag,
  }

  public async run(): Promise<void> {
    const client = this.client()
    const wanted = eventFilter(this.flags.events)
    await untilStopped((signal) =>
      followStream(
        (onOpen) => client.webhooks.stream({ signal, onOpen }),
        (delivery) => {
          if (!wanted(delivery.event_type)) return
          if (this.jsonEnabled()) jsonLine(delivery)
          else this.log(deliveryLine(delivery))
        },
        {
          signal,
          onOpen: (reconnected) =>
            streamNotice(reconnected ? 'Reconnected.' : `Waiting for webhook deliveries from ${client.baseUrl} (Ctrl+C to stop)`),
          onDrop: (reason, retryInMs) => streamNotice(`Stream dropped (${reason}); reconnecting in ${retryInMs} ms`),
        },
      ),
    )
  }
}
