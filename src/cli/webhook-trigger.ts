// `paybox trigger`: a payment reporting to the given URL, driven through the states that emit the
// event, until every delivery of it is logged as finished.
import type { PayboxClient } from '../client/paybox-client.js'
import type { Payment, WebhookDelivery, WebhookEventType } from '../client/types.js'
import { UserError } from '../user-error.js'
import { pollUntil } from './poll.js'

export const TRIGGER_STATUSES = ['underpaid', 'paid', 'settled'] as const
export type TriggerStatus = (typeof TRIGGER_STATUSES)[number]

export interface TriggerRequest {
  event: WebhookEventType
  /** For transaction_updated: the state the update reports. */
  status?: TriggerStatus
  webhookUrl: string
  /** Smallest units of `currency`. */
  amount: number
  currency: string
  /** How long to wait for the settlement and the deliveries. */
  timeoutMs: number
}

export interface TriggerResult {
  /** The payment as it is once its deliveries have finished. */
  payment: Payment
  /** Its deliveries, oldest first, each with the payload sent and the receiver's answer. */
  deliveries: WebhookDelivery[]
}

export async function triggerEvent(client: PayboxClient, request: TriggerRequest): Promise<TriggerResult> {
  const { event, status } = request
  if (status === 'settled' && (await client.merchant.get()).settlement_mode !== 'direct') {
    throw new UserError('--status settled needs a direct merchant', 'an escrow payment settles only when its escrow order is released')
  }
  const label = event === 'transaction_updated' ? `${event} (${status ?? 'paid'})` : event
  let payment = await client.payments.create({
    amount: { value: request.amount, currency: request.currency },
    description: `paybox trigger ${label}`,
    webhookUrl: request.webhookUrl,
  })
  if (event === 'transaction_failed') {
    payment = await client.sandbox.fail(payment.id, { reason: 'Simulated by paybox trigger' })
  } else if (event === 'transaction_updated') {
    // Underpaid: half of the amount arrives. Paid and settled: all of it; its settlement's events
    // follow (settled also insists that the settlement completes).
    payment = await client.sandbox.pay(payment.id, status === 'underpaid' ? { underpay: true } : {})
    if (status === 'settled') payment = await settled(client, payment.id, request.timeoutMs)
  }
  const id = payment.id
  const { current, deliveries } = await pollUntil(
    `the webhook deliveries of ${id} to finish`,
    () => finishedDeliveries(client, id),
    request.timeoutMs,
  )
  return { payment: current, deliveries }
}

/**
 * The payment and its deliveries, in full and oldest first, once the sandbox says they are
 * quiet (no event of it still to come, every delivery finished); undefined until then.
 */
async function finishedDeliveries(
  client: PayboxClient,
  id: string,
): Promise<{ current: Payment; deliveries: WebhookDelivery[] } | undefined> {
  if (!(await client.sandbox.webhooksState(id)).quiet) return undefined
  const current = await client.payments.get(id)
  const { items } = await client.webhooks.list({ checkout_id: id, limit: 100 })
  if (items.length === 0) return undefined
  const deliveries = await Promise.all(items.reverse().map((item) => client.webhooks.get(item.id)))
  return { current, deliveries }
}

async function settled(client: PayboxClient, id: string, timeoutMs: number): Promise<Payment> {
  return pollUntil(
    `the settlement of ${id}`,
    async () => {
      const payment = await client.payments.get(id)
      if (payment.settlement_status === 'failed') throw new UserError(`The settlement of ${id} failed`)
      return payment.settlement_status === 'paid' ? payment : undefined
    },
    timeoutMs,
  )
}

/** One line when a delivery got no 2xx answer; undefined when every one did. */
export function undeliveredProblem({ payment, deliveries }: TriggerResult): string | undefined {
  const failed = deliveries.filter((delivery) => delivery.status !== 'success')
  if (failed.length === 0) return undefined
  const reasons = new Set(failed.map((d) => (d.http_status !== null ? `HTTP ${d.http_status}` : (d.error_message ?? d.status))))
  const url = payment.webhookUrl ?? failed[0]!.url
  return `${failed.length} of ${deliveries.length} webhook deliveries to ${url} did not get a 2xx answer (${[...reasons].join('; ')})`
}
