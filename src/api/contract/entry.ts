// The shape of one entry of the contract: everything about one endpoint, side by side. Its wire
// (method, path, who may call it), its behaviour (the reason of its 401s, whether it is answered
// before the JSON body reader, whether it honours Idempotency-Key), what documents it, and the
// zod schemas of its query, body and answer. The sandbox routes, authenticates and documents from
// these; the client is derived from them (src/client/paybox-client.ts, through src/api/wire.ts).
import type { z } from 'zod'

/** Who may call an endpoint: digest auth (spec 5), digest auth only when sent, the admin token, either of those two, anyone. */
export type Security = 'digest' | 'optional-digest' | 'admin' | 'admin-or-digest' | 'none'

/** The reason of a 401 under digest auth (spec 7 differs by endpoint family). */
export type AuthReason = 'Unauthorized' | 'Signature verification failed'

export interface Entry {
  /** The OpenAPI operation id, and the name of the sandbox's handler. */
  operationId: string
  method: 'get' | 'post' | 'delete'
  /** As Express registers it: /payments/:id. */
  path: string
  security: Security
  /** Behaviour: the reason of its 401s; every digest endpoint names one. */
  authReason?: AuthReason
  /** Behaviour: answered before the JSON body reader (so it cannot produce 413 or 415). */
  beforeBodyParser?: true
  /** Behaviour: copies with the same Idempotency-Key get the first answer and move nothing. */
  idempotent?: true
  summary: string
  tag: string
  description?: string
  /** Each path parameter's description. */
  pathParams?: Record<string, string>
  /** Error statuses besides those every JSON route can answer (400, 413, 415, 500) and 401 from its security. */
  errors: readonly number[]
  query?: z.ZodObject
  body?: z.ZodType
  /** The JSON answer on success, and its status when not 200. */
  response?: z.ZodType
  status?: 201 | 204
  /** The description of the success answer (default OK, or Created for a 201). */
  answer?: string
  /** Success answers besides the declared one (/health's 503). */
  otherAnswers?: readonly { status: number; description: string; response: z.ZodType }[]
  /** A server-sent-event stream instead of JSON: the name of its events and each one's data. */
  stream?: { event: string; data: z.ZodType }
}

/** One entry, its literal types kept (method, path, security, schemas): the client and the routes are typed from them. */
export const endpoint = <const E extends Entry>(entry: E): E => entry

/** Path parameter descriptions several resources share. */
export const PAYMENT_ID = { id: 'Payment id (pt_…)' }

export const QUOTE_ID = { quoteId: 'Quote id (qt_…)' }

export const MERCHANT_ID = { merchantId: "The authenticated merchant's id (GET /merchant); another merchant's id is 404" }

/**
 * An entry without its schemas or prose (src/api/wire.ts holds one per entry): what the client
 * sends with, and what the sandbox routes, authenticates and checks queries with, so neither
 * loads the answers' schemas to start.
 */
export interface EntryWire {
  operationId: string
  method: Entry['method']
  path: string
  security: Security
  authReason?: AuthReason
  beforeBodyParser?: true
  /** It takes a JSON body (a POST without one takes none, or {}). */
  body?: true
  /** The names of the query parameters it declares. */
  query?: readonly string[]
  idempotent?: true
  /** The name of the events a stream's data comes in. */
  stream?: string
}

export function wireOf(entry: Entry): EntryWire {
  const { operationId, method, path, security, authReason, beforeBodyParser, body, query, idempotent, stream } = entry
  return {
    operationId,
    method,
    path,
    security,
    ...(authReason ? { authReason } : {}),
    ...(beforeBodyParser ? { beforeBodyParser } : {}),
    ...(body ? { body: true } : {}),
    ...(query ? { query: Object.keys(query.shape) } : {}),
    ...(idempotent ? { idempotent } : {}),
    ...(stream ? { stream: stream.event } : {}),
  }
}
