import type { RequestHandler } from 'express'
import { describe, expect, it } from 'vitest'
import { declaredRoutes, inMatchOrder, routesByOperationId } from '../../sandbox/http/declared-routes.js'
import type { Handlers, PublicHandlers } from '../../sandbox/openapi/handlers.js'
import type { Operation } from '../../sandbox/http/operation.js'

const op = (method: Operation['method'], path: string, operationId: string, beforeBodyParser?: true): Operation => ({
  method,
  path,
  operationId,
  beforeBodyParser,
  summary: '',
  tag: '',
  security: 'none',
  success: [],
  errors: [],
})
const answer: RequestHandler = (_req, res) => void res.end()
/** Handlers for made-up operations: the real map's type names the declared ones only. */
const handlers = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, answer])) as unknown as Handlers

describe('declared routes', () => {
  it('tries a literal segment before a parameter, and leaves out what answers before the body reader', () => {
    const order = inMatchOrder([
      op('get', '/things/:id', 'getThing'),
      op('get', '/things/stream', 'streamThings'),
      op('get', '/health', 'getHealth', true),
      op('get', '/things', 'listThings'),
    ]).map((operation) => operation.operationId)
    expect(order).toEqual(['streamThings', 'listThings', 'getThing'])
  })

  it('refuses an operation without a handler, and a handler without an operation', () => {
    const operations = [op('get', '/things', 'listThings'), op('post', '/things', 'createThing')]
    expect(() => declaredRoutes(operations, handlers(['listThings']))).toThrow('No handler for createThing')
    expect(() => declaredRoutes(operations, handlers(['listThings', 'createThing', 'deleteThing']))).toThrow(
      'Handlers without a declared operation: deleteThing',
    )
    expect(() => declaredRoutes(operations, handlers(['listThings', 'createThing']))).not.toThrow()
  })

  it('routes families a few at a time, under the path each is mounted at, and refuses at the end a handler no family used', () => {
    const pages = [op('get', '/pages/:id', 'getPage', true)]
    const horizon = [op('get', '/horizon', 'horizonRoot', true), op('post', '/horizon/things', 'postThing', true)]
    const byId = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, [answer, answer]])) as unknown as PublicHandlers
    const routes = routesByOperationId(byId(['getPage', 'horizonRoot', 'postThing', 'extra']))
    const paths = (router: { stack: Array<{ route?: { path: string } }> }) => router.stack.map((layer) => layer.route?.path)
    expect(paths(routes.routes(pages) as never)).toEqual(['/pages/:id'])
    expect(paths(routes.routes(horizon, '/horizon') as never)).toEqual(['/', '/things'])
    expect(() => routes.refuseUnused()).toThrow('Handlers without a declared operation: extra')
    expect(() => routesByOperationId(byId([])).routes(pages)).toThrow('No handler for getPage')
  })
})
