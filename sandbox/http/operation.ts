// One endpoint as the sandbox routes it (Route: from the contract's wire, and the pages) and
// documents it (Operation: documented-operations.ts, from the contract's entries, and the pages).
import type { z } from 'zod'
import type { AuthReason, Security } from '../../src/api/contract/entry.js'

export type { Security }

/** What an endpoint answers on success. */
export type SuccessResponse =
  | { status: number; description: string; json: string; eventStream?: string }
  | { status: number; description: string; html: true }
  | { status: number; description: string; eventStream: string }
  | { status: 302 | 303; description: string; redirect: true }
  | { status: 204; description: string; empty: true }

/** What routing, authentication and the strict-query rule read of an operation: no schema, no prose. */
export interface Route {
  method: 'get' | 'post' | 'delete'
  /** As Express registers it: /payments/:id. */
  path: string
  operationId: string
  security: Security
  /** The reason of a 401 on this endpoint (spec 7 differs by endpoint family). */
  authReason?: AuthReason
  /** Answered before the JSON body reader: it cannot produce 413 or 415. */
  beforeBodyParser?: boolean
  /** The names of the query parameters it declares; any other is refused. */
  queryNames?: readonly string[]
}

export interface Operation extends Route {
  summary: string
  description?: string
  tag: string
  pathParams?: Record<string, string>
  query?: z.ZodObject
  /** Extra request headers. */
  headers?: ReadonlyArray<{ name: string; description: string; schema: Record<string, unknown> }>
  /** The request body, by its component name in REQUEST_SCHEMAS. */
  body?: string
  /** A form body (the checkout's buttons): field → description. */
  form?: Record<string, string>
  /** A form body described by a request schema component (Horizon's submit). */
  formBody?: string
  success: readonly SuccessResponse[]
  /** Error statuses the route can answer besides those every JSON route can (400, 413, 415, 500) and 401 from its security. */
  errors: readonly number[]
  /** The error answers are HTML pages instead of JSON (the checkout). */
  htmlErrors?: boolean
  /** The component its errors are, when not the shared Error (Horizon's problem documents). */
  errorSchema?: string
}
