// The webhook body of spec 6, {"data": {...}}, as one serializer shared by the sandbox (which
// sends it) and `paybox webhooks test-receiver` (which imitates it), so both send the same bytes.
import type { WebhookBody } from '../client/types.js'

export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../client/types.js'

// amount.value and amount_paid are in the pricing currency's smallest unit; settlement_amount,
// settlement_fee, amount_received and amount_remaining in USDC.
export type WebhookData = WebhookBody['data']

/** Indentation of the body: what JSON.stringify without it would not reproduce (docs/webhooks.md). */
const BODY_INDENT = 2

/**
 * The exact text sent and signed. Fields are written in the spec's order, whatever the input's.
 * Indented, as Stripe's are: a receiver that verifies its own re-serialization of the body
 * instead of the raw bytes fails on the first real delivery, not only under test-receiver.
 */
export function serializeWebhookBody(data: WebhookData): string {
  return JSON.stringify(
    {
      data: {
        type: data.type,
        id: data.id,
        status: data.status,
        settlement_status: data.settlement_status,
        amount: { value: data.amount.value, currency: data.amount.currency },
        settlement_amount: data.settlement_amount,
        settlement_currency: data.settlement_currency,
        settlement_fee: data.settlement_fee,
        amount_paid: data.amount_paid,
        amount_received: data.amount_received,
        amount_remaining: data.amount_remaining,
        history: data.history,
        metadata: data.metadata,
      },
    },
    null,
    BODY_INDENT,
  )
}
