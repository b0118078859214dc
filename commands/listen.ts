import { Flags } from '@oclif/core'
import type { PaymentEvent } from '../src/client/types.js'
import { ApiCommand } from '../src/cli/base-command.js'
import { eventFilter, eventsFlag } from '../src/cli/event-filter.js'
import { doubleDeliveryWarning, forwardPayload, type ForwardedEvent, type ForwardTarget } from '../src/cli/event-forwarder.js'
import { httpUrlFlag } from '../src/cli/flag-values.js'
import { followStream, jsonLine, streamNotice, untilStopped } from '../src/cli/live-stream.js'
import { forwardLine, renderSigningSecret } from '../src/cli/render/webhooks.js'

export default class Listen extends ApiCommand<typeof Listen> {
  static override summary = 'Forward every payment event to a local webhook receiver, until Ctrl+C'
  static override description =
    "Subscribes to the merchant's payment events (payments with or without a webhookUrl) and POSTs each event's webhook body, " +
    "byte for byte, to --forward-to, signed with the merchant's API secret in X-WEBHOOK-AUTH exactly as the sandbox signs webhooks " +
    '(it names the merchant and the last characters of that secret on stderr as it starts). ' +
    "Prints one line per event with your receiver's answer; with --json, one JSON object per line. If the stream drops it " +
    'reconnects and resumes after the last event forwarded, so none is lost or sent twice.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> --forward-to http://localhost:3000/webhooks',
    '<%= config.bin %> <%= command.id %> --forward-to http://127.0.0.1:8080/hooks/paybox --json',
    '<%= config.bin %> <%= command.id %> --forward-to http://localhost:3000/webhooks --events transaction_updated,transaction_failed',
  ]

  static override flags = {
    'forward-to': Flags.string({ description: 'Your local webhook receiver (http or https URL)', required: true }),
    events: eventsFlag,
  }

  public async run(): Promise<void> {
    const url = httpUrlFlag(this.flags['forward-to'], 'forward-to')
    const connection = this.connection()
    const client = this.client(connection)
    const wanted = eventFilter(this.flags.events)
    // On stderr even with --json: its lines on stdout are forwarded events only.
    streamNotice(renderSigningSecret(await client.merchant.get(), connection.apiSecret!))
    // The sequence of the last event forwarded (or, before the first, the latest when the stream
    // opened): a reconnection resumes after it, so nothing is lost or forwarded twice.
    let lastSequence: number | undefined
    // Said once: a receiver that gets events twice is worth one line, not one per payment.
    let warnedOfDoubles = false
    await untilStopped((signal) => {
      const target: ForwardTarget = { url, secret: connection.apiSecret!, userAgent: `paybox-listen/${this.config.version}`, signal }
      const forward = async (event: PaymentEvent) => {
        if (lastSequence !== undefined && event.sequence <= lastSequence) return
        if (!wanted(event.event_type)) {
          // Filtered out is handled: a reconnection resumes after it too.
          lastSequence = event.sequence
          return
        }
        if (!warnedOfDoubles) {
          const warning = await doubleDeliveryWarning(client, event, url)
          if (warning !== undefined) {
            warnedOfDoubles = true
            streamNotice(warning)
          }
        }
        const outcome = await forwardPayload(target, event.payload)
        if (outcome === undefined) return // stopped mid-forward
        lastSequence = event.sequence
        const { payload: _payload, ...described } = event
        if (this.jsonEnabled()) jsonLine({ ...described, ...outcome } satisfies ForwardedEvent)
        else this.log(forwardLine(event, outcome, url))
      }
      return followStream(
        (onOpen) =>
          client.events.stream({
            signal,
            onOpen,
            lastEventId: lastSequence?.toString(),
            onReady: (sequence) => (lastSequence ??= sequence),
          }),
        forward,
        {
          signal,
          onOpen: (reconnected) =>
            streamNotice(
              reconnected
                ? 'Reconnected; resuming after the last event forwarded.'
                : `Ready: forwarding payment events to ${url} (Ctrl+C to stop)`,
            ),
          onDrop: (reason, retryInMs) => streamNotice(`Stream dropped (${reason}); reconnecting in ${retryInMs} ms`),
        },
      )
    })
  }
}
