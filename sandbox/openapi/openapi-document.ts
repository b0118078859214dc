// Builds the OpenAPI 3.1 document of the sandbox from the operation table and the zod schemas
// the routes validate with (request bodies and queries converted with io "input": what a
// client sends, before transforms), so the document cannot disagree with the validation.
import { z } from 'zod'
import { ADMIN_TOKEN_HEADER, DIGEST_HEADERS, REQUEST_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '../../src/api/headers.js'
import { DIGEST_TOLERANCE_SECONDS } from '../../src/signing.js'
import { MAX_BODY_BYTES } from '../http/body.js'
import type { Operation, SuccessResponse } from '../http/operation.js'
import { OPERATIONS, REQUEST_SCHEMAS } from './documented-operations.js'
import { HORIZON_RESPONSE_SCHEMAS } from '../horizon/horizon-operations.js'
import { RESPONSE_SCHEMAS } from '../../src/api/contract/index.js'

type Json = Record<string, unknown>

export const SPEC_VERSION = '1.0'

const COMPONENT_REF = (name: string) => `#/components/schemas/${name}`
const ref = (name: string): Json => ({ $ref: COMPONENT_REF(name) })

/** Bounds zod adds to every integer; they say nothing a reader needs. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])

/**
 * Leaves out what is noise in a document: each component's own $schema and $id, the safe-integer
 * bounds, and (in responses, which the server writes) the long regular expressions that zod
 * attaches to formats such as date-time.
 */
function tidy(schema: unknown, dropFormatPatterns: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((item) => tidy(item, dropFormatPatterns))
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === '$id') continue
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue
    if (key === 'pattern' && dropFormatPatterns && 'format' in schema) continue
    out[key] = tidy(value, dropFormatPatterns)
  }
  return out
}

/**
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect) of zod schemas. Refinements (.refine, URL and
 * prefix checks) have no JSON Schema form and are left out, so the server may refuse a value
 * the document allows, never the other way round; anything zod cannot represent at all
 * becomes {} (`unrepresentable: 'any'`) rather than failing the document.
 */
function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  return tidy(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }), io === 'output') as Json
}

function componentSchemas(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>()
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id })
  const { schemas: converted } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, unrepresentable: 'any', uri: COMPONENT_REF })
  return Object.fromEntries(Object.entries(converted).map(([id, schema]) => [id, tidy(schema, io === 'output') as Json]))
}

/** Express's /payments/:id as OpenAPI's /payments/{id}. */
export const toOpenApiPath = (expressPath: string): string => expressPath.replace(/:(\w+)/g, '{$1}')

const DIGEST_DESCRIPTION = [
  'Digest authentication (spec 5). Every request carries three headers:',
  `\`${DIGEST_HEADERS.key}\` (the merchant's API key), \`${DIGEST_HEADERS.timestamp}\` (Unix seconds, within ${DIGEST_TOLERANCE_SECONDS} s of the server's clock) and`,
  `\`${DIGEST_HEADERS.signature}\`: lowercase hex HMAC-SHA256, keyed with the merchant's API secret, over`,
  '`path + timestamp + METHOD + body`, where path is the request path with its query string as sent,',
  'METHOD is upper case and body is the raw body text ("" when there is none). Also accepted: the path',
  'without its query string, and the body as compact JSON. A failed check is 401.',
].join(' ')

function securitySchemes(): Json {
  const digest = (name: string, what: string) => ({ type: 'apiKey', in: 'header', name, description: `${what}. ${DIGEST_DESCRIPTION}` })
  return {
    digestKey: digest(DIGEST_HEADERS.key, "The merchant's API key"),
    digestTimestamp: digest(DIGEST_HEADERS.timestamp, 'Unix seconds when the request was signed'),
    digestSignature: digest(DIGEST_HEADERS.signature, 'The request signature'),
    adminToken: {
      type: 'apiKey',
      in: 'header',
      name: ADMIN_TOKEN_HEADER,
      description:
        'The sandbox admin token printed by `paybox sandbox start` (and in `paybox sandbox keys`), for the sandbox-wide controls.',
    },
  }
}

const DIGEST_REQUIREMENT = { digestKey: [], digestTimestamp: [], digestSignature: [] }
const SECURITY: Record<Operation['security'], Json[]> = {
  digest: [DIGEST_REQUIREMENT],
  'optional-digest': [{}, DIGEST_REQUIREMENT],
  admin: [{ adminToken: [] }],
  'admin-or-digest': [{ adminToken: [] }, DIGEST_REQUIREMENT],
  none: [],
}

/** The error answers every route shares, by name; each is the Error body. */
const ERROR_RESPONSES: Record<string, { status: number; description: string; headers?: Json }> = {
  BadRequest: { status: 400, description: 'Bad Request: invalid body, query or path (the message names the field), malformed JSON' },
  Unauthorized: { status: 401, description: 'Unauthorized: missing or wrong digest headers (reason "Unauthorized")' },
  SignatureVerificationFailed: { status: 401, description: 'Missing or wrong digest headers (reason "Signature verification failed")' },
  AdminUnauthorized: { status: 401, description: `Missing or wrong ${ADMIN_TOKEN_HEADER}` },
  Forbidden: {
    status: 403,
    description: "Forbidden: a merchant key on another merchant's clock, or on its own where the sandbox does not allow it",
  },
  NotFound: { status: 404, description: 'Not Found: no such resource for this merchant' },
  Conflict: {
    status: 409,
    description: 'Conflict: the resource is not in a state that allows this (or an Idempotency-Key still in progress)',
  },
  PayloadTooLarge: { status: 413, description: `Payload Too Large: the body exceeds ${MAX_BODY_BYTES} bytes` },
  UnsupportedMediaType: { status: 415, description: 'Unsupported Media Type: bodies must be application/json' },
  UnprocessableEntity: {
    status: 422,
    description: 'Idempotency-Key reused for a different request (POST /payments), or a snapshot the sandbox cannot use',
  },
  TooManyRequests: {
    status: 429,
    description:
      'Too Many Requests: at most 10 resends a minute; under --shared, a rate limit (per API key, or admin-token failures per address); an open-stream bound (docs/security.md)',
    headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
  },
  InternalServerError: { status: 500, description: 'Internal Server Error: an unexpected failure (logged by the sandbox)' },
}

const ERROR_RESPONSE_BY_STATUS: Record<number, string> = {
  400: 'BadRequest',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableEntity',
  429: 'TooManyRequests',
  500: 'InternalServerError',
}

function errorResponseName(status: number, operation: Operation): string {
  if (status === 401) {
    if (operation.security === 'admin') return 'AdminUnauthorized'
    return operation.authReason === 'Signature verification failed' ? 'SignatureVerificationFailed' : 'Unauthorized'
  }
  const name = ERROR_RESPONSE_BY_STATUS[status]
  if (!name) throw new Error(`No error response for status ${status} (${operation.operationId})`)
  return name
}

/** Statuses an operation can answer with an error, in order. */
export function errorStatuses(operation: Operation): number[] {
  const statuses = new Set(operation.errors)
  const readsInput = operation.pathParams !== undefined || operation.query !== undefined
  // Every route after the JSON body reader can refuse a malformed, oversized or non-JSON body.
  if (!operation.beforeBodyParser) for (const status of [400, 413, 415]) statuses.add(status)
  else if (readsInput || operation.form || operation.formBody) statuses.add(400)
  if (operation.security !== 'none') statuses.add(401)
  // Rate limits (--shared) count authenticated requests and admin-token failures; streams are bounded.
  if (
    operation.security !== 'none' ||
    operation.success.some((response) => 'eventStream' in response && response.eventStream !== undefined)
  )
    statuses.add(429)
  statuses.add(500)
  return [...statuses].sort((a, b) => a - b)
}

function parameters(operation: Operation): Json[] {
  const params: Json[] = []
  for (const name of operation.path.match(/:(\w+)/g)?.map((p) => p.slice(1)) ?? []) {
    params.push({ name, in: 'path', required: true, description: operation.pathParams?.[name], schema: { type: 'string' } })
  }
  if (operation.query) {
    const schema = toJsonSchema(operation.query, 'input') as { properties?: Record<string, Json>; required?: string[] }
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const { description, ...rest } = property
      params.push({
        name,
        in: 'query',
        required: schema.required?.includes(name) ?? false,
        ...(description ? { description } : {}),
        schema: rest,
      })
    }
  }
  for (const header of operation.headers ?? []) params.push({ in: 'header', required: false, ...header })
  return params
}

function requestBody(operation: Operation): Json | undefined {
  if (operation.form) {
    const properties = Object.fromEntries(
      Object.entries(operation.form).map(([name, description]) => [name, { type: 'string', description }]),
    )
    return { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties } } } }
  }
  const name = operation.body ?? operation.formBody
  if (!name) return undefined
  const schema = REQUEST_SCHEMAS[name]
  if (!schema) throw new Error(`No request schema ${name} (${operation.operationId})`)
  const type = operation.formBody ? 'application/x-www-form-urlencoded' : 'application/json'
  return {
    required: !schema.safeParse(undefined).success,
    ...(name === 'NoBody' ? { description: 'No body, or an empty JSON object' } : {}),
    content: { [type]: { schema: ref(name) } },
  }
}

function successResponse(response: SuccessResponse): Json {
  const stream = (component: string) => ({
    'text/event-stream': {
      schema: { type: 'string', description: `Each event's data is a JSON ${component} (${COMPONENT_REF(component)})` },
    },
  })
  if ('json' in response) {
    const content = { 'application/json': { schema: ref(response.json) }, ...(response.eventStream ? stream(response.eventStream) : {}) }
    return { description: response.description, content }
  }
  if ('html' in response) return { description: response.description, content: { 'text/html': { schema: { type: 'string' } } } }
  if ('eventStream' in response) return { description: response.description, content: stream(response.eventStream) }
  if ('empty' in response) return { description: response.description }
  return { description: response.description, headers: { Location: { description: 'Where to go', schema: { type: 'string' } } } }
}

function errorResponse(status: number, operation: Operation): Json {
  const name = errorResponseName(status, operation)
  if (operation.htmlErrors) {
    return {
      description: `${ERROR_RESPONSES[name]!.description.split(':')[0]} (an HTML page)`,
      content: { 'text/html': { schema: { type: 'string' } } },
    }
  }
  if (operation.errorSchema)
    return { description: ERROR_RESPONSES[name]!.description, content: { 'application/json': { schema: ref(operation.errorSchema) } } }
  return { $ref: `#/components/responses/${name}` }
}

function responses(operation: Operation): Json {
  const out: Json = {}
  for (const response of operation.success) out[String(response.status)] = successResponse(response)
  for (const status of errorStatuses(operation)) out[String(status)] = errorResponse(status, operation)
  return out
}

function operationObject(operation: Operation): Json {
  const body = requestBody(operation)
  const params = parameters(operation)
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [operation.tag],
    security: SECURITY[operation.security],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(operation),
  }
}

const TAGS = [
  { name: 'Payments', description: 'Payments and cross-chain quotes (spec 4.1–4.5)' },
  { name: 'Refunds', description: 'Refunds (spec 2.4, 4.6)' },
  { name: 'Invoices', description: 'Invoices and their numbering (spec 4.7–4.11)' },
  { name: 'Account', description: 'The merchant, its balances, fee tier and currencies (spec 4.12–4.14)' },
  { name: 'Webhooks', description: 'The webhook delivery log (spec 4.15) and live streams' },
  { name: 'Requests', description: 'The request log: every API request with its id, status and duration, recent and live' },
  { name: 'Checkout', description: 'The hosted payment page and short links (HTML, no authentication)' },
  {
    name: 'Sandbox',
    description: 'Sandbox extensions: simulations, escrow controls, the clock, the ledger, wallets, snapshots and merchants',
  },
  { name: 'Horizon', description: 'A Horizon-compatible API over the sandbox ledger, for @stellar/stellar-sdk (no authentication)' },
]

export interface OpenApiDocumentOptions {
  /** The sandbox's public base URL, the document's server. */
  serverUrl: string
}

const REQUEST_ID = {
  [REQUEST_ID_HEADER]: {
    description: "The request's id in the request log (also the requestId of an error body)",
    schema: { type: 'string' },
  },
}

/** The whole document. Pure: the same table and schemas always give the same document. */
export function buildOpenApiDocument(options: OpenApiDocumentOptions, operations: readonly Operation[] = OPERATIONS): Json {
  const paths: Record<string, Json> = {}
  for (const operation of operations) {
    const path = toOpenApiPath(operation.path)
    paths[path] = { ...paths[path], [operation.method]: operationObject(operation) }
  }
  const errorResponses = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([name, response]) => [
      name,
      {
        description: response.description,
        headers: { ...response.headers, ...REQUEST_ID },
        content: { 'application/json': { schema: ref('Error') } },
      },
    ]),
  )
  return {
    openapi: '3.1.0',
    info: {
      title: 'paybox sandbox: merchant payments and invoicing API',
      version: SPEC_VERSION,
      description:
        'The Stellar/USDC merchant payments and invoicing API (spec version 1.0) as the paybox sandbox serves it, with its sandbox extensions. ' +
        'Generated from the request schemas the server validates with. Errors are always {statusCode, reason, message, requestId}. ' +
        `Every answer carries a ${REQUEST_ID_HEADER} header, the request's id in the request log.`,
    },
    servers: [{ url: options.serverUrl.replace(/\/+$/, '') }],
    tags: TAGS,
    security: [DIGEST_REQUIREMENT],
    paths,
    webhooks: {
      paymentEvent: {
        post: {
          operationId: 'receivePaymentEvent',
          summary: "What the sandbox POSTs to a payment's webhookUrl (spec 6)",
          description:
            `Signed in \`${WEBHOOK_SIGNATURE_HEADER}\`: lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the merchant's API secret. ` +
            'Verify it over the raw bytes, not re-serialized JSON. Answer 2xx within 10 s. Deduplicate by payment id (and payment id plus status for resends).',
          parameters: [
            { name: WEBHOOK_SIGNATURE_HEADER, in: 'header', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookBody') } } },
          responses: { '200': { description: 'Received (any 2xx counts as delivered)' } },
        },
      },
    },
    components: {
      schemas: {
        ...componentSchemas({ ...RESPONSE_SCHEMAS, ...HORIZON_RESPONSE_SCHEMAS }, 'output'),
        ...componentSchemas(REQUEST_SCHEMAS, 'input'),
      },
      responses: errorResponses,
      securitySchemes: securitySchemes(),
    },
  }
}
