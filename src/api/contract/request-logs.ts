// The sandbox's request log: the merchant's own API requests or, with the admin token, every
// request, public and admin ones included. No bodies or credentials.
import { z } from 'zod'
import { queryInteger } from '../validation.js'
import * as examples from '../examples.js'
import { dateTimeText, itemsOf } from '../resources.js'
import { endpoint, MERCHANT_ID } from './entry.js'

/** Records the request log keeps for its list endpoints; older ones are dropped. */
export const REQUEST_LOG_CAPACITY = 1_000

const requestFilterFields = {
  status: z
    .string()
    .regex(/^[1-5](xx|\d\d)$/, { message: 'must be a status class such as 4xx, or a status such as 404' })
    .optional(),
  path: z.string().max(256).regex(/^\//, { message: 'must start with /' }).optional(),
}

export const requestLogStreamQuery = z.strictObject(requestFilterFields)

export const requestLogListQuery = z.strictObject({ ...requestFilterFields, limit: queryInteger(1, REQUEST_LOG_CAPACITY).optional() })

const FILTERS = 'Filter with `status` (a class such as 4xx, or 404) and `path` (a prefix: /payments is /payments and /payments/…).'

const KEPT = `From the last ${REQUEST_LOG_CAPACITY} requests the sandbox kept.`

const EACH_REQUEST = '`event: request`, `id: <request id>`, for each request that finishes while connected'

const requestLogEntryExample = {
  requestId: 'req_25ac8f3e-e6cc-4c0b-a488-2c9f63ec03e5',
  time: '2026-11-24T12:56:10.459Z',
  method: 'POST',
  path: '/payments',
  status: 200,
  durationMs: 1.2,
  merchantId: examples.MERCHANT_ID,
  idempotencyKey: 'order-1042',
}

export const requestLogEntry = z
  .object({
    requestId: z.string().describe("As in the response's Request-Id header"),
    time: dateTimeText.describe('When the request arrived (real time)'),
    method: z.string(),
    path: z.string().describe('Without the query string'),
    status: z.number().int().min(0).max(599).describe('The response status; 0 when the client went away before an answer'),
    durationMs: z.number().min(0),
    merchantId: z.string().nullable().describe('The merchant whose key signed the request; null for public, admin and refused requests'),
    idempotencyKey: z.string().nullable(),
  })
  .describe('One API request in the request log: no body, query string or credential')
  .meta({ example: requestLogEntryExample })

export const requestLogList = itemsOf(requestLogEntry)

export const requestLogs = {
  /** The merchant's recent requests, newest first. */
  list: endpoint({
    operationId: 'listRequests',
    method: 'get',
    path: '/merchants/:merchantId/request-logs',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: "The merchant's recent API requests, newest first",
    tag: 'Requests',
    description: `${KEPT} ${FILTERS}`,
    pathParams: MERCHANT_ID,
    errors: [404],
    query: requestLogListQuery,
    response: requestLogList,
  }),
  /** Each of the merchant's requests as it finishes, from the moment of connecting. */
  stream: endpoint({
    operationId: 'streamRequests',
    method: 'get',
    path: '/merchants/:merchantId/request-logs/stream',
    security: 'digest',
    authReason: 'Signature verification failed',
    summary: "The merchant's API requests as they finish (server-sent events)",
    tag: 'Requests',
    description: FILTERS,
    pathParams: MERCHANT_ID,
    errors: [404],
    query: requestLogStreamQuery,
    stream: { event: 'request', data: requestLogEntry },
    answer: EACH_REQUEST,
  }),
  /** Every recent request, newest first (admin token). */
  listAll: endpoint({
    operationId: 'listAllRequests',
    method: 'get',
    path: '/sandbox/request-logs',
    security: 'admin',
    summary: 'Every recent API request (every merchant, public and admin ones), newest first',
    tag: 'Requests',
    description: `${KEPT} ${FILTERS}`,
    errors: [],
    query: requestLogListQuery,
    response: requestLogList,
  }),
  /** Every request as it finishes (admin token). */
  streamAll: endpoint({
    operationId: 'streamAllRequests',
    method: 'get',
    path: '/sandbox/request-logs/stream',
    security: 'admin',
    summary: 'Every API request as it finishes (server-sent events)',
    tag: 'Requests',
    description: FILTERS,
    errors: [],
    query: requestLogStreamQuery,
    stream: { event: 'request', data: requestLogEntry },
    answer: EACH_REQUEST,
  }),
}

/** The answers declared here, by the component name the OpenAPI document gives them. */
export const requestLogAnswers = { RequestLogEntry: requestLogEntry, RequestLogList: requestLogList }
