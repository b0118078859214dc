// Every endpoint as the OpenAPI document describes it: the contract's entries (src/api/contract/)
// with their schemas and prose, the checkout pages and Horizon, in the order of the routes.
// Loaded with the first GET /openapi.json, not at start (it loads every answer's schema).
import type { z } from 'zod'
import { IDEMPOTENCY_KEY_HEADER } from '../../src/api/headers.js'
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency/idempotency-service.js'
import { ENTRIES, type Entry, REQUEST_BODIES, RESPONSE_SCHEMAS } from '../../src/api/contract/index.js'
import { HORIZON_OPERATIONS, HORIZON_REQUEST_SCHEMAS } from '../horizon/horizon-operations.js'
import type { Operation, SuccessResponse } from '../http/operation.js'
import { PAGE_OPERATIONS } from './operations.js'

/** Request bodies as components: the schemas the routes parse with. */
export const REQUEST_SCHEMAS: Record<string, z.ZodType> = { ...REQUEST_BODIES, ...HORIZON_REQUEST_SCHEMAS }

/** The header every idempotent POST honours (sandbox/idempotency/idempotency-service.ts). */
const IDEMPOTENCY_KEY: NonNullable<Operation['headers']> = [
  {
    name: IDEMPOTENCY_KEY_HEADER,
    description:
      'Copies with the same key get the first answer and move nothing; the same key with another body or endpoint is 422, a key still in progress 409. ' +
      'The signature does not cover this header: a copy with another key or none is a new request (a shared sandbox refuses a reused signature with 409)',
    schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  },
]

/** The component name of a schema an entry holds: the document refers to it by name. */
function componentName(registry: Record<string, z.ZodType>, schema: z.ZodType, entry: Entry): string {
  const found = Object.entries(registry).find(([, registered]) => registered === schema)
  if (!found) throw new Error(`${entry.operationId}: a schema without a component name (register it in RESPONSE_SCHEMAS or REQUEST_BODIES)`)
  return found[0]
}

/** The operation of a contract entry. */
function operationOf(entry: Entry): Operation {
  const { method, path, operationId, security, query, body, response, status = 200, stream, idempotent, answer, otherAnswers = [] } = entry
  const { summary, tag, description, authReason, pathParams, errors, beforeBodyParser } = entry
  const described = answer ?? (status === 201 ? 'Created' : 'OK')
  const declared: SuccessResponse = stream
    ? { status, description: described, eventStream: componentName(RESPONSE_SCHEMAS, stream.data, entry) }
    : response
      ? { status, description: described, json: componentName(RESPONSE_SCHEMAS, response, entry) }
      : { status: 204, description: described, empty: true }
  const others = otherAnswers.map(({ status, description, response }) => ({
    status,
    description,
    json: componentName(RESPONSE_SCHEMAS, response, entry),
  }))
  // A POST or DELETE without a body schema takes none (or {}).
  const bodyName = body ? componentName(REQUEST_BODIES, body, entry) : method === 'get' ? undefined : 'NoBody'
  return {
    method,
    path,
    operationId,
    security,
    summary,
    tag,
    ...(description ? { description } : {}),
    ...(authReason ? { authReason } : {}),
    ...(pathParams ? { pathParams } : {}),
    ...(idempotent ? { headers: IDEMPOTENCY_KEY } : {}),
    ...(query ? { query } : {}),
    ...(bodyName ? { body: bodyName } : {}),
    ...(beforeBodyParser ? { beforeBodyParser } : {}),
    errors,
    success: [declared, ...others],
  }
}

const API_OPERATIONS = ENTRIES.map(operationOf)

/** In the order of the routes (operations.ts): the public ones before the JSON body reader first, then the API, then Horizon. */
export const OPERATIONS: readonly Operation[] = [
  ...API_OPERATIONS.filter((operation) => operation.beforeBodyParser),
  ...PAGE_OPERATIONS,
  ...API_OPERATIONS.filter((operation) => !operation.beforeBodyParser),
  ...HORIZON_OPERATIONS,
]
