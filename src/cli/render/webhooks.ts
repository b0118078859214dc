// How webhook deliveries, forwarded events and triggered events look in the terminal: the log
// as a table, one entry in full, and the one-line-per-item output of `webhooks tail` and `listen`.
import type { Merchant, Page, PaymentEvent, SandboxMerchant, WebhookDelivery } from '../../client/types.js'
import { maskSecret } from '../../config/profiles.js'
import type { ForwardOutcome } from '../event-forwarder.js'
import type { TriggerResult } from '../webhook-trigger.js'
import { chalk, counted, details, pageLine, table } from '../output.js'

const DELIVERY_COLOURS: Record<string, (text: string) => string> = {
  success: chalk.green,
  failed: chalk.red,
  skipped: chalk.yellow,
  pending: chalk.gray,
}

/** A delivery status in its colour, padded to `width` before colouring so columns line up. */
export const colourDelivery = (status: string, width = 0): string => (DELIVERY_COLOURS[status] ?? String)(status.padEnd(width))

const httpOf = (delivery: WebhookDelivery): string => (delivery.http_status === null ? '—' : String(delivery.http_status))
const durationOf = (ms: number | null): string => (ms === null ? '—' : `${ms} ms`)

/** "paid/processing": the payment's status and settlement status as the event reported them. */
export function paymentStateIn(payload: string | undefined): string | undefined {
  if (payload === undefined) return undefined
  try {
    const { data } = JSON.parse(payload) as { data?: { status?: unknown; settlement_status?: unknown } }
    return typeof data?.status === 'string' ? `${data.status}/${String(data.settlement_status)}` : undefined
  } catch {
    return undefined
  }
}

export function renderDeliveryPage(page: Page<WebhookDelivery>): string {
  if (page.items.length === 0) return 'No webhook deliveries match.'
  const rows = page.items.map((d) => [
    d.created_at,
    d.event_type,
    d.checkout_id,
    colourDelivery(d.status),
    httpOf(d),
    durationOf(d.duration_ms),
    d.id,
  ])
  return `${table(['Time', 'Event', 'Payment', 'Status', 'HTTP', 'Duration', 'Id'], rows)}\n${pageLine(page.meta, 'delivery', 'deliveries')}`
}

/** Every field of one entry, then the payload as pretty JSON and the receiver's answer. */
export function renderDelivery(delivery: WebhookDelivery): string {
  const summary = details([
    ['Id', delivery.id],
    ['Event', delivery.event_type],
    ['Payment', delivery.checkout_id],
    ['Payment status', paymentStateIn(delivery.request_payload)],
    ['URL', delivery.url],
    ['Status', colourDelivery(delivery.status)],
    ['HTTP status', httpOf(delivery)],
    ['Error', delivery.error_message ?? undefined],
    ['Duration', durationOf(delivery.duration_ms)],
    ['Attempt', delivery.attempt_count],
    ['Resend of', delivery.resend_of ?? undefined],
    ['Merchant', delivery.merchant_id],
    ['Created', delivery.created_at],
    ['Last attempt', delivery.last_attempt_at ?? 'never'],
    ['Updated', delivery.updated_at],
  ])
  const sections = [summary]
  if (delivery.request_payload !== undefined) sections.push(chalk.bold('Request payload'), prettyJson(delivery.request_payload))
  if (delivery.response_body !== undefined) {
    const body =
      delivery.response_body === null
        ? chalk.gray('(no answer)')
        : delivery.response_body === ''
          ? chalk.gray('(empty)')
          : delivery.response_body
    sections.push(chalk.bold('Response body'), body)
  }
  return sections.join('\n')
}

/** The payload indented for reading; as sent when it is not JSON. The signature covers the compact original. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

/** One line per finished delivery, for `webhooks tail`. */
export function deliveryLine(delivery: WebhookDelivery): string {
  const time = delivery.last_attempt_at ?? delivery.updated_at
  const columns = [
    chalk.gray(time),
    delivery.event_type.padEnd(19),
    delivery.checkout_id,
    colourDelivery(delivery.status, 7),
    httpOf(delivery).padStart(3),
    durationOf(delivery.duration_ms).padStart(8),
    chalk.gray(delivery.id),
  ]
  if (delivery.error_message) columns.push(delivery.error_message)
  return columns.join('  ')
}

/** One line per forwarded event, for `listen`: what the local receiver answered. */
export function forwardLine(event: PaymentEvent, outcome: ForwardOutcome, url: string): string {
  const answer =
    outcome.status === null
      ? chalk.red(`failed: ${outcome.error}`)
      : (outcome.status >= 200 && outcome.status < 300 ? chalk.green : chalk.red)(`[${outcome.status}]`)
  const state = paymentStateIn(event.payload)
  return [
    chalk.gray(event.created_at),
    event.event_type.padEnd(19),
    event.checkout_id,
    (state ?? '').padEnd(16),
    `→ POST ${url}`,
    answer,
    chalk.gray(`${outcome.duration_ms} ms`),
  ].join('  ')
}

export function renderTriggerResult(result: TriggerResult): string {
  const { payment, deliveries } = result
  const rows = deliveries.map((d) => [
    d.created_at,
    d.event_type,
    paymentStateIn(d.request_payload) ?? '',
    colourDelivery(d.status),
    httpOf(d),
    durationOf(d.duration_ms),
    d.id,
  ])
  return [
    `Payment ${chalk.bold(payment.id)} (${payment.status}, settlement ${payment.settlement_status}) emitted ${counted(deliveries.length, 'webhook event')} to ${payment.webhookUrl ?? 'its webhook URL'}:`,
    table(['Time', 'Event', 'Payment status', 'Delivery', 'HTTP', 'Duration', 'Id'], rows),
  ].join('\n')
}

export function renderRotatedSecret(merchant: SandboxMerchant): string {
  return details([
    ['Merchant', merchant.name],
    ['Id', merchant.id],
    ['Mode', merchant.settlement_mode],
    ['API key', merchant.apiKey],
    ['API secret', merchant.apiSecret],
    ['Account', merchant.account],
  ])
}

/**
 * What `listen` says once, on stderr, before it forwards anything: whose secret signs the
 * bodies (masked) and how a receiver checks them, as `stripe listen` names its signing secret.
 */
export function renderSigningSecret(merchant: Pick<Merchant, 'id' | 'name'>, secret: string): string {
  return [
    `Signing with the API secret of merchant ${merchant.name} (${merchant.id}): ${maskSecret(secret)}`,
    '  Verify X-WEBHOOK-AUTH over the raw body with it: verifyWebhook(rawBody, signature, secret) from paybox,',
    '  or paybox webhooks verify --secret <it> --signature <header> --file <body> (paybox sandbox keys prints it in full)',
  ].join('\n')
}
