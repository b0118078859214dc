// The request log over HTTP: recent requests and a live stream of them (server-sent events),
// a merchant's own under /merchants/{merchantId}, everyone's (public and admin requests too)
// under /sandbox with the admin token. What `paybox logs tail` follows.
import type http from 'node:http'
import { type Request } from 'express'
import { requestLogListQuery, requestLogStreamQuery } from '../../src/api/contract/request-logs.js'
import type { RequestLogEntry } from '../../src/client/types.js'
import { currentMerchant } from '../http/auth.js'
import { notFound } from '../errors.js'
import { streamLiveItems } from '../http/event-stream.js'
import { matchesFilter, type RequestFilter, type RequestLog } from './request-log.js'
import type { Handlers } from '../openapi/handlers.js'

const DEFAULT_LIMIT = 100

export function requestLogHandlers(log: RequestLog) {
  /** The authenticated merchant's own requests; another merchant's log is 404. */
  const ownRequests = (req: Request): RequestFilter => {
    const merchant = currentMerchant(req)
    if (req.params.merchantId !== merchant.id) throw notFound(`No merchant ${String(req.params.merchantId).slice(0, 64)}`)
    return { merchantId: merchant.id }
  }

  const list = (req: Request, scope: RequestFilter) => {
    const { limit, ...query } = requestLogListQuery.parse(req.query)
    return { items: log.recent({ ...query, ...scope }, limit ?? DEFAULT_LIMIT) }
  }

  const stream = (req: http.IncomingMessage & Request, res: http.ServerResponse, scope: RequestFilter) => {
    const filter: RequestFilter = { ...requestLogStreamQuery.parse(req.query), ...scope }
    return streamLiveItems<RequestLogEntry>(
      req,
      res,
      (deliver) =>
        log.onRecord((entry) => {
          if (matchesFilter(entry, filter)) deliver(entry)
        }),
      (session, entry) => session.push(entry, 'request', entry.requestId),
    )
  }
  return {
    listRequests: (req, res) => void res.json(list(req, ownRequests(req))),
    streamRequests: (req, res) => stream(req, res, ownRequests(req)),
    listAllRequests: (req, res) => void res.json(list(req, {})),
    streamAllRequests: (req, res) => stream(req, res, {}),
  } satisfies Partial<Handlers>
}
