// The Express routes of every declared operation (sandbox/openapi/operations.ts): each is answered
// by the handler its operation id names, and only this module registers them, so the table that
// the document, authentication and strict queries read is the table Express serves. The JSON
// API's routes follow the body reader; the public ones before it (health, the document, short
// links, the checkout pages, Horizon) come in families with middleware of their own (app/app.ts).
import { Router, type ErrorRequestHandler, type RequestHandler } from 'express'
import type { RouteParameters } from 'express-serve-static-core'
import type { Route } from './operation.js'

/** What answers an operation: a handler, or middleware then the handler, with req.params typed from the path. */
export type HandlerOf<Path extends string> =
  RequestHandler<RouteParameters<Path>> | ReadonlyArray<RequestHandler<RouteParameters<Path>> | ErrorRequestHandler<RouteParameters<Path>>>
type AnyHandler = RequestHandler | ErrorRequestHandler

const parameterCount = (operation: Route) => (operation.path.match(/:/g) ?? []).length

/**
 * In the order Express must try them: a literal segment before a parameter (webhook-logs/stream
 * before webhook-logs/:id), otherwise as declared, so the payments, declared first, match first.
 */
const byMatchOrder = (operations: readonly Route[]): Route[] => [...operations].sort((a, b) => parameterCount(a) - parameterCount(b))

/** The JSON API's operations (after the body reader), in the order Express must try them. */
export const inMatchOrder = (operations: readonly Route[]): Route[] =>
  byMatchOrder(operations.filter((operation) => !operation.beforeBodyParser))

/**
 * Routes operations by the handlers their ids name, a few operations at a time: an operation
 * without a handler is refused when routed, a handler no operation names by `refuseUnused`.
 * The map's type is checked where it is built (openapi/handlers.ts).
 */
export function routesByOperationId(handlers: object) {
  const unused = new Map(Object.entries(handlers) as Array<[string, AnyHandler | readonly AnyHandler[]]>)
  return {
    /** A router of these operations, its paths relative to `mount` (where it will be mounted). */
    routes(operations: readonly Route[], mount = ''): Router {
      const router = Router()
      for (const operation of byMatchOrder(operations)) {
        const handler = unused.get(operation.operationId)
        if (!handler) throw new Error(`No handler for ${operation.operationId}`)
        if (!operation.path.startsWith(mount)) throw new Error(`${operation.path} is not under ${mount}`)
        router[operation.method](operation.path.slice(mount.length) || '/', ...[handler].flat())
        unused.delete(operation.operationId)
      }
      return router
    },
    refuseUnused(): void {
      if (unused.size > 0) throw new Error(`Handlers without a declared operation: ${[...unused.keys()].join(', ')}`)
    },
  }
}

export function declaredRoutes(operations: readonly Route[], handlers: object): Router {
  const routes = routesByOperationId(handlers)
  const router = routes.routes(inMatchOrder(operations))
  routes.refuseUnused()
  return router
}
