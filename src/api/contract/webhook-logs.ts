// The merchant's webhook delivery log (spec 4.15), switching deliveries off and on, and the live
// streams of its deliveries and payment events.
import { z } from 'zod'
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from '../enumerations.js'
import { pageQuery, queryInteger } from '../validation.js'
import * as examples from '../examples.js'
import { dateTimeText, pageOf, without } from '../resources.js'
import { endpoint, MERCHANT_ID } from './entry.js'

export const webhookLogQuery = z.strictObject({
  ...pageQuery,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { message: `must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` }).optional(),
  checkout_id: z.string().min(1).max(64).optional(),
})

export const eventsQuery = z.strictObject({ after: queryInteger(0, Number.MAX_SAFE_INTEGER).optional() })

const DELIVERY_ID = { ...MERCHANT_ID, id: 'Delivery id' }

const deliveryFields = {
  id: z.string(),
  merchant_id: z.string(),
  checkout_id: z.string().describe('The payment the event is about'),
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  url: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  http_status: z.number().int().nullable().describe('null when there was no HTTP answer'),
  error_message: z.string().nullable(),
  attempt_count: z.number().int(),
  duration_ms: z.number().int().nullable(),
  resend_of: z.string().nullable(),
  last_attempt_at: dateTimeText.nullable(),
  created_at: dateTimeText,
  updated_at: dateTimeText,
}

const webhookDeliveryExample = {
  id: '67866d4b-6f4e-54a4-8c0d-b595e435f5ec',
  merchant_id: examples.MERCHANT_ID,
  checkout_id: examples.PAYMENT_ID,
  event_type: 'transaction_created',
  url: 'https://shop.example/webhooks/paybox',
  status: 'success',
  http_status: 200,
  error_message: null,
  attempt_count: 1,
  duration_ms: 9,
  resend_of: null,
  last_attempt_at: '2026-11-24T12:56:10.373Z',
  created_at: '2026-11-24T12:56:10.167Z',
  updated_at: '2026-11-24T12:56:10.373Z',
  request_payload: `{\n  "data": {\n    "type": "transaction_created",\n    "id": "${examples.PAYMENT_ID}",\n    "status": "open"\n  }\n}`,
  response_body: 'ok',
}

export const webhookDeliverySummary = z
  .object(deliveryFields)
  .describe('A webhook delivery log entry as lists show it (spec 2.8)')
  .meta({ example: without(webhookDeliveryExample, ['request_payload', 'response_body']) })

export const webhookDeliveryPage = pageOf(webhookDeliverySummary, false)

export const webhookDelivery = z
  .object({
    ...deliveryFields,
    request_payload: z.string().describe('The exact JSON text sent and signed'),
    response_body: z.string().nullable().describe("The receiver's answer, first 4096 bytes"),
  })
  .describe('One webhook delivery log entry in full (spec 2.8)')
  .meta({ example: webhookDeliveryExample })

const webhooksPausedStateExample = { merchant_id: examples.MERCHANT_ID, webhooks_paused: true }

export const webhooksPausedState = z
  .object({ merchant_id: z.string(), webhooks_paused: z.boolean() })
  .meta({ example: webhooksPausedStateExample })

const paymentEventExample = {
  sequence: 17,
  event_type: 'transaction_updated',
  checkout_id: examples.PAYMENT_ID,
  payload: `{\n  "data": {\n    "type": "transaction_updated",\n    "id": "${examples.PAYMENT_ID}",\n    "status": "paid"\n  }\n}`,
  created_at: '2026-11-24T12:56:06.405Z',
}

export const paymentEvent = z
  .object({
    sequence: z.number().int(),
    event_type: z.enum(WEBHOOK_EVENT_TYPES),
    checkout_id: z.string(),
    payload: z.string().describe('The exact webhook body text'),
    created_at: dateTimeText,
  })
  .describe('A payment event, as the events stream sends it')
  .meta({ example: paymentEventExample })

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
    response: webhookDeliveryPage,
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
    stream: { event: 'delivery', data: webhookDelivery },
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
    response: webhookDelivery,
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
    response: webhookDelivery,
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
    response: webhooksPausedState,
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
    response: webhooksPausedState,
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
    stream: { event: 'payment_event', data: paymentEvent },
    answer: '`event: payment_event` for each payment event',
  }),
}

/** The answers declared here, by the component name the OpenAPI document gives them. */
export const webhookLogAnswers = {
  WebhookDelivery: webhookDelivery,
  WebhookDeliverySummary: webhookDeliverySummary,
  WebhookDeliveryPage: webhookDeliveryPage,
  WebhooksPausedState: webhooksPausedState,
  PaymentEvent: paymentEvent,
}
