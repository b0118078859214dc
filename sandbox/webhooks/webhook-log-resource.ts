// The JSON shape of a webhook delivery log entry (spec 2.8). Lists leave out request_payload
// and response_body; the single-entry read has both. http_status is null when there was no
// HTTP answer (connection refused, timed out, skipped); `pending` means not attempted yet.
import { toIso } from '../clock.js'
import type { WebhookDeliveryRow } from '../db/schema.js'
import { paymentIdOf } from './webhook-events.js'

export function toDeliveryResource(row: WebhookDeliveryRow, detail: 'summary' | 'full'): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    id: row.id,
    merchant_id: row.merchant_id,
    checkout_id: paymentIdOf(row),
    event_type: row.event_type,
    url: row.url,
    status: row.status,
    http_status: row.http_status,
    error_message: row.error_message,
    attempt_count: row.attempt_count,
    duration_ms: row.duration_ms,
    resend_of: row.resend_of,
    last_attempt_at: row.last_attempt_at === null ? null : toIso(row.last_attempt_at),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  }
  if (detail === 'full') Object.assign(entry, { request_payload: row.request_payload, response_body: row.response_body })
  return entry
}
