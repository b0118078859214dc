// The Requests view: an inspector over the sandbox's request log (request-log/), like Stripe's
// request logs. A merchant sees its own requests, and those refused for a bad signature made
// with its API key (with what differed); an admin may look at everyone's. Another merchant's
// request is as unknown as a made-up id (404).
import { Router, type Request } from 'express'
import { z } from 'zod'
import { requestLogStreamQuery } from '../../src/api/contract/request-logs.js'
import { pageQuery } from '../../src/api/validation.js'
import type { RequestLogEntry } from '../../src/client/types.js'
import { notFound } from '../errors.js'
import { pageMeta } from '../http/pagination.js'
import { findMerchantById } from '../merchants/merchant-repository.js'
import { matchesFilter, type RequestDetail } from '../request-log/request-log.js'
import { diagnoseSignature } from '../request-log/signature-diagnosis.js'
import { pageRequest } from '../validation/common.js'
import type { DashboardKit } from './dashboard-kit.js'
import type { DashboardView } from './dashboard-view.js'
import { filledQuery, keptFilters } from './list-query.js'
import { REQUEST_METHODS, requestDetail, requestsList } from './request-detail-page.js'

const requestsQuery = requestLogStreamQuery.extend({
  ...pageQuery,
  method: z.enum(REQUEST_METHODS, { message: `must be one of ${REQUEST_METHODS.join(', ')}` }).optional(),
  scope: z.enum(['all'], { message: 'must be all, or left out' }).optional(),
})
const FILTER_FIELDS = ['status', 'path', 'method', 'scope', 'limit'] as const

/** The requests a session may see: its merchant's, and those refused for its key's bad signature; an admin's `all`: everyone's. */
function visibleTo(merchantId: string | undefined): (entry: RequestLogEntry, detail: Pick<RequestDetail, 'signatureMismatch'>) => boolean {
  if (merchantId === undefined) return () => true
  return (entry, detail) => entry.merchantId === merchantId || detail.signatureMismatch?.merchantId === merchantId
}

function requestRoutes(kit: DashboardKit): Router {
  const router = Router()
  /** Whose requests this session looks at: undefined is everyone's (an admin asking for all). */
  const scopeOf = (req: Request, all: boolean): string | undefined => {
    const session = kit.sessionOf(req)
    if (session.isAdmin && all) return undefined
    return kit.merchantOf(req).id
  }

  router.get(
    '/requests',
    kit.handle(async (req, res) => {
      const raw = filledQuery(req)
      const query = requestsQuery.parse(raw)
      const visible = visibleTo(scopeOf(req, query.scope === 'all'))
      const page = pageRequest(query)
      const { rows, total } = kit.requestLog?.inspect(
        (entry, detail) =>
          visible(entry, detail) &&
          matchesFilter(entry, { status: query.status, path: query.path }) &&
          (query.method === undefined || entry.method === query.method),
        (page.page - 1) * page.limit,
        page.limit,
      ) ?? { rows: [], total: 0 }
      const kept = keptFilters(raw, FILTER_FIELDS)
      await kit.page(req, res, {
        title: 'Requests',
        current: 'requests',
        body: requestsList({
          query: kept,
          rows: rows.map(({ entry }) => entry),
          meta: pageMeta(page, total, rows.length),
          isAdmin: kit.sessionOf(req).isAdmin,
        }),
      })
    }),
  )

  router.get(
    '/requests/:id',
    kit.handle(async (req, res) => {
      const id = String(req.params.id)
      const scope = scopeOf(req, req.query.scope === 'all')
      const found = kit.requestLog?.find(id)
      if (!found || !visibleTo(scope)(found.entry, found.detail)) throw notFound(`No request ${id.slice(0, 64)} in the log`)
      const mismatch = found.detail.signatureMismatch
      // The secret is read here to recompute signatures and goes no further than that.
      const secret = mismatch && (await findMerchantById(kit.ctx.db, mismatch.merchantId))?.api_secret
      await kit.page(req, res, {
        title: `Request ${found.entry.requestId}`,
        current: 'requests',
        body: requestDetail({ ...found, diagnosis: mismatch && secret !== undefined ? diagnoseSignature(mismatch, secret) : undefined }),
      })
    }),
  )
  return router
}

export const requestsView: DashboardView = { id: 'requests', title: 'Requests', path: '/requests', routes: requestRoutes }
