// The body of a webhook (spec 6): {"data": {...}} with the payment as it is after the event,
// serialized by src/webhooks/webhook-body.ts (shared with the CLI's receiver grader).
import { serializeWebhookBody, type WebhookData, type WebhookEventType } from '../../src/webhooks/webhook-body.js'
import type { PaymentRow } from '../db/schema.js'
import { USDC_ASSET_CODE } from '../ledger/ledger-accounts.js'
import { usdcNumber } from '../payments/payment-resource.js'

export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../src/webhooks/webhook-body.js'

/** The exact text sent and signed: serialized once, stored, and replayed byte for byte. */
export function webhookPayload(type: WebhookEventType, payment: PaymentRow): string {
  const remaining = Math.max(0, payment.usdc_amount - payment.usdc_received)
  return serializeWebhookBody({
    type,
    id: payment.id,
    status: payment.status,
    settlement_status: payment.settlement_status,
    amount: { value: payment.amount_value, currency: payment.amount_currency },
    settlement_amount: usdcNumber(payment.settlement_amount),
    settlement_currency: USDC_ASSET_CODE,
    settlement_fee: usdcNumber(payment.settlement_fee),
    amount_paid: payment.amount_paid,
    amount_received: usdcNumber(payment.usdc_received),
    amount_remaining: usdcNumber(remaining),
    history: JSON.parse(payment.history) as WebhookData['history'],
    metadata: payment.metadata === null ? {} : (JSON.parse(payment.metadata) as WebhookData['metadata']),
  })
}
