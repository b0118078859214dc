// The handler every declared operation needs, by its operation id, with req.params typed from its
// path: each *-routes.ts returns a part of one of these maps, and app/app.ts checks the whole of
// both, so a declared operation without a handler, or a handler of no operation, is a type error.
import type { RequestHandler } from 'express'
import type { RouteParameters } from 'express-serve-static-core'
import type { AnyEntry, EntryOf, OperationId } from '../../src/api/contract/index.js'
import type { HorizonHandlers } from '../horizon/horizon-operations.js'
import type { HandlerOf } from '../http/declared-routes.js'
import type { PAGE_OPERATIONS } from './operations.js'

/** Entries answered after the JSON body reader (the rest declare beforeBodyParser). */
type Routed = Exclude<AnyEntry, { beforeBodyParser: true }>['operationId']
/** A handler for every routed entry, by its operation id, with req.params typed from the declared path. */
export type Handlers = { [Id in Routed]: RequestHandler<RouteParameters<EntryOf<Id>['path']>> }

/** A handler for every operation answered before the JSON body reader. */
export type PublicHandlers = { [Id in Exclude<OperationId, Routed>]: HandlerOf<EntryOf<Id>['path']> } & {
  [Op in (typeof PAGE_OPERATIONS)[number] as Op['operationId']]: HandlerOf<Op['path']>
} & HorizonHandlers
