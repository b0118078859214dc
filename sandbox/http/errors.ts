// The one mapping of any error to an HTTP answer {statusCode, reason, message}: the domain's
// ApiErrors as they are, a ledger refusal no route mapped as a 400, zod and body-parser errors
// as 400s, anything else as a logged 500.
import type http from 'node:http'
import type { ErrorRequestHandler, Request, RequestHandler } from 'express'
import { ZodError } from 'zod'
import { ApiError } from '../errors.js'
import { LedgerError } from '../ledger/ledger-errors.js'
import { ledgerRefusal } from '../ledger/ledger-refusals.js'
import { sendJson } from './json-response.js'
import { requestIdOf } from './request-notes.js'

/** The 4xx status an error of body-parser and friends carries in `status`, if it is one. */
export function clientErrorStatus(error: unknown): number | undefined {
  const status = typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : Number.NaN
  return status >= 400 && status < 500 ? status : undefined
}

export interface ErrorBody {
  statusCode: number
  reason: string
  message: string
  /** The request's id (its Request-Id header), to find it in the request log. */
  requestId?: string
}

/** Long names sent by a client are shortened before they are echoed in a message. */
const echo = (text: string): string => (text.length > 64 ? `${text.slice(0, 61)}…` : text)

/** Names a client sent that were refused, as a message lists them: at most five, each shortened. */
export const echoNames = (names: readonly string[]): string => names.slice(0, 5).map(echo).join(', ') + (names.length > 5 ? ', …' : '')

/** Describes the first problems zod found, naming the field: "amount.value: must be an integer". */
export function describeZodError(error: ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const field = echo(issue.path.map(String).join('.'))
      if (issue.code === 'unrecognized_keys') {
        const where = field ? ` in ${field}` : ''
        return `unknown field${issue.keys.length > 1 ? 's' : ''}${where}: ${echoNames(issue.keys)}`
      }
      return field ? `${field}: ${issue.message}` : issue.message
    })
    .join('; ')
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
}

export const noRoute = (req: Pick<Request, 'method' | 'path'>): ApiError =>
  new ApiError(404, 'Not Found', `No route for ${req.method} ${req.path}`)

export const notFoundRoute: RequestHandler = (req, _res, next) => next(noRoute(req))

/** The answer to any error: its JSON body, and the headers an ApiError asks for (Retry-After…). */
export function errorResponse(error: unknown, log: (line: string) => void): { body: ErrorBody; headers: Record<string, string> } {
  return { body: toErrorBody(error, log), headers: error instanceof ApiError ? error.headers : {} }
}

/** Sends errorResponse's answer (the one error mapping of Express and the fast routes alike). */
export function sendError(res: http.ServerResponse, error: unknown, log: (line: string) => void): void {
  const { body, headers } = errorResponse(error, log)
  const requestId = requestIdOf(res)
  sendJson(res, body.statusCode, JSON.stringify(requestId === undefined ? body : { ...body, requestId }), headers)
}

export function errorMiddleware(log: (line: string) => void): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => sendError(res, error, log)
}

function toErrorBody(error: unknown, log: (line: string) => void): ErrorBody {
  if (error instanceof ApiError) return { statusCode: error.statusCode, reason: error.reason, message: error.message }
  if (error instanceof ZodError) return { statusCode: 400, reason: 'Bad Request', message: describeZodError(error) }
  // A movement no route mapped: still the caller's request that the ledger refused, never a 500.
  if (error instanceof LedgerError) return toErrorBody(ledgerRefusal(400, 'the request', error), log)
  // Errors raised by body-parser and friends carry a 4xx status and a type we can explain.
  const status = clientErrorStatus(error)
  if (status !== undefined) {
    const type = (error as { type?: string }).type
    const message =
      type === 'entity.too.large'
        ? `Request body exceeds the ${String((error as { limit?: number }).limit ?? '')} byte limit`
        : type === 'request.aborted'
          ? 'Request body was not fully received'
          : (REASONS[status] ?? 'Bad Request')
    return { statusCode: status, reason: REASONS[status] ?? 'Bad Request', message }
  }
  log(`Unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  return { statusCode: 500, reason: 'Internal Server Error', message: 'The sandbox hit an unexpected error' }
}
