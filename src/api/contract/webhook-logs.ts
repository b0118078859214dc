// The merchant's webhook delivery log (spec 4.15), switching deliveries off and on, and the live
// streams of its deliveries and payment events.
import { z } from 'zod'
import { WEBHOOK_DELIVERY_STATUSES } from '../enumerations.js'
import { RESPONSE_SCHEMAS } from '../resources.js'
import { pageQuery, queryInteger } from '../validation.js'
import { endpoint, MERCHANT_ID } from './entry.js'

export const webhookLogQuery = z.strictObject({
  ...pageQuery,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { message: `must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` }).optional(),
  checkout_id: z.string().min(1).max(64).optional(),
})

export const eventsQuery = z.strictObject({ after: queryInteger(0, Number.MAX_SAFE_INTEGER).optional() })

const DELIVERY_ID = { ...MERCHANT_ID, id: 'Delivery id' }

export const webhooks = {
  /** Deliveries, newest first, without their payload and response body. */
  list: endpoint({
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/merchants/:merchantId/webhook-logs',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'The webhook delivery log, newest first',
    tag: 'Webhooks',
    pathParams: MERCHANT_ID,
    errors: [404],
    query: webhookLogQuery,
    response: RESPONSE_SCHEMAS.WebhookDeliveryPage,
  }),
  /** Each delivery as it finishes (success, failed or skipped), from the moment of connecting. */
  stream: endpoint({
    operationId: 'streamWebhookDeliveries',
    method: 'get',
    path: '/merchants/:merchantId/webhook-logs/stream',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Finished deliveries as they happen (server-sent events)',
    tag: 'Webhooks',
    pathParams: MERCHANT_ID,
    errors: [404],
    stream: { event: 'delivery', data: RESPONSE_SCHEMAS.WebhookDelivery },
    answer: '`event: delivery`, `id: <entry id>`, data the full entry, for each delivery that finishes while connected',
  }),
  /** One delivery with the exact payload sent and the receiver's answer. */
  get: endpoint({
    operationId: 'getWebhookDelivery',
    method: 'get',
    path: '/merchants/:merchantId/webhook-logs/:id',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: "One delivery, with its payload and the receiver's answer",
    tag: 'Webhooks',
    pathParams: DELIVERY_ID,
    errors: [404],
    response: RESPONSE_SCHEMAS.WebhookDelivery,
  }),
  /** Sends a delivery's payload again, byte for byte, signed with the current secret; returns the new entry. */
  resend: endpoint({
    operationId: 'resendWebhookDelivery',
    method: 'post',
    path: '/merchants/:merchantId/webhook-logs/:id/resend',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: "Send a delivery's payload again (10 a minute)",
    tag: 'Webhooks',
    pathParams: DELIVERY_ID,
    errors: [404, 429],
    response: RESPONSE_SCHEMAS.WebhookDelivery,
    answer: 'The new entry, once the receiver has answered',
  }),
  /** While paused, events are still logged, as skipped, but nothing is sent. */
  pause: endpoint({
    operationId: 'pauseWebhooks',
    method: 'post',
    path: '/merchants/:merchantId/webhooks/pause',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Log events as skipped instead of sending them',
    tag: 'Webhooks',
    pathParams: MERCHANT_ID,
    errors: [404],
    response: RESPONSE_SCHEMAS.WebhooksPausedState,
  }),
  resume: endpoint({
    operationId: 'resumeWebhooks',
    method: 'post',
    path: '/merchants/:merchantId/webhooks/resume',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Send webhooks again',
    tag: 'Webhooks',
    pathParams: MERCHANT_ID,
    errors: [404],
    response: RESPONSE_SCHEMAS.WebhooksPausedState,
  }),
}

/** The merchant's payment events, whether or not their payments have a webhookUrl. */
export const events = {
  /**
   * Every payment event from the moment of connecting or, given `lastEventId` (the sequence of
   * the last event seen), every event after it first: a dropped stream resumes without a gap.
   */
  stream: endpoint({
    operationId: 'streamPaymentEvents',
    method: 'get',
    path: '/merchants/:merchantId/events/stream',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: 'Every payment event of the merchant (server-sent events)',
    tag: 'Webhooks',
    description:
      'Starts with `event: ready` (data `{sequence}`); then `event: payment_event`, `id: <sequence>`. Resume with Last-Event-ID or ?after=.',
    pathParams: MERCHANT_ID,
    errors: [404],
    query: eventsQuery,
    stream: { event: 'payment_event', data: RESPONSE_SCHEMAS.PaymentEvent },
    answer: '`event: payment_event` for each payment event',
  }),
}
