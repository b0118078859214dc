// The strict-query rule for every JSON route, derived from the endpoint table: a query
// parameter a route does not declare is refused before the route runs, so `?amount=100` can
// never slip past a route that reads its amount from the body. Routes still validate the
// values of the parameters they declare.
import { Router, type RequestHandler } from 'express'
import type { Route } from './operation.js'
import { badRequest } from '../errors.js'
import { inMatchOrder } from './declared-routes.js'
import { echoNames } from './errors.js'

export function strictQuery(operations: readonly Route[]): RequestHandler {
  const router = Router()
  for (const operation of inMatchOrder(operations)) {
    const known = new Set(operation.queryNames)
    router[operation.method](operation.path, (req, _res, next) => {
      const unknown = Object.keys(req.query as Record<string, unknown>).filter((name) => !known.has(name))
      if (unknown.length > 0) return next(badRequest(`unknown query parameter${unknown.length > 1 ? 's' : ''}: ${echoNames(unknown)}`))
      // The rest of this table is not the route: Express goes on to the real one.
      next('router')
    })
  }
  return (req, res, next) => (req.originalUrl.includes('?') ? router(req, res, next) : next())
}
