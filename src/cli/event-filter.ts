// `--events` of the live commands (`listen`, `webhooks tail`): which webhook events to show or
// forward, checked against the one list of event names, so a mistyped name is one clear line.
import { Flags } from '@oclif/core'
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../client/types.js'

export const eventsFlag = Flags.option({
  options: WEBHOOK_EVENT_TYPES,
  multiple: true,
  delimiter: ',',
  description: 'Only these events, comma-separated (default: all)',
})()

/** Whether an event of this type passes the filter (every type, without --events). */
export const eventFilter =
  (events: readonly WebhookEventType[] | undefined) =>
  (type: WebhookEventType): boolean =>
    events === undefined || events.length === 0 || events.includes(type)
