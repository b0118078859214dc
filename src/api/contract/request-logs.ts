// The sandbox's request log: the merchant's own API requests or, with the admin token, every
// request, public and admin ones included. No bodies or credentials.
import { QUERIES } from '../requests.js'
import { RESPONSE_SCHEMAS } from '../resources.js'
import { endpoint, MERCHANT_ID } from './entry.js'

const FILTERS = 'Filter with `status` (a class such as 4xx, or 404) and `path` (a prefix: /payments is /payments and /payments/…).'
const KEPT = 'From the last 1000 requests the sandbox kept.'
const EACH_REQUEST = '`event: request`, `id: <request id>`, for each request that finishes while connected'

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
    query: QUERIES.RequestLogListQuery,
    response: RESPONSE_SCHEMAS.RequestLogList,
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
    query: QUERIES.RequestLogStreamQuery,
    stream: { event: 'request', data: RESPONSE_SCHEMAS.RequestLogEntry },
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
    query: QUERIES.RequestLogListQuery,
    response: RESPONSE_SCHEMAS.RequestLogList,
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
    query: QUERIES.RequestLogStreamQuery,
    stream: { event: 'request', data: RESPONSE_SCHEMAS.RequestLogEntry },
    answer: EACH_REQUEST,
  }),
}
