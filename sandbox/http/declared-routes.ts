// The JSON API's Express routes, one per declared endpoint (src/api/endpoints.ts): each
// domain answers its operations by id, and only this module registers them, so the table that
// the document, authentication and strict queries read is the table Express serves.
import { Router, type RequestHandler } from 'express'
import type { RouteParameters } from 'express-serve-static-core'
import type { EndpointId, endpoints } from '../../src/api/endpoints.js'
import type { Operation } from '../openapi/operation.js'
import type { DOCUMENTATION } from '../openapi/operations.js'

/** Endpoints answered after the JSON body reader; the pages, Horizon, /health and the document have routers of their own. */
type Routed = { [Id in EndpointId]: (typeof DOCUMENTATION)[Id] extends { beforeBodyParser: true } ? never : Id }[EndpointId]
/** A handler for every routed endpoint, by its operation id, with req.params typed from the declared path. */
export type Handlers = { [Id in Routed]: RequestHandler<RouteParameters<(typeof endpoints)[Id]['path']>> }

const parameterCount = (operation: Operation) => (operation.path.match(/:/g) ?? []).length

/**
 * In the order Express must try them: a literal segment before a parameter (webhook-logs/stream
 * before webhook-logs/:id), otherwise as declared, so the payments, declared first, match first.
 */
export const inMatchOrder = (operations: readonly Operation[]): Operation[] =>
  operations.filter((operation) => !operation.beforeBodyParser).sort((a, b) => parameterCount(a) - parameterCount(b))

export function declaredRoutes(operations: readonly Operation[], handlers: Handlers): Router {
  const byId = new Map<string, RequestHandler>(Object.entries(handlers) as Array<[string, RequestHandler]>)
  const router = Router()
  for (const operation of inMatchOrder(operations)) {
    const handler = byId.get(operation.operationId)
    if (!handler) throw new Error(`No handler for ${operation.operationId}`)
    router[operation.method](operation.path, handler)
    byId.delete(operation.operationId)
  }
  if (byId.size > 0) throw new Error(`Handlers without a declared operation: ${[...byId.keys()].join(', ')}`)
  return router
}
