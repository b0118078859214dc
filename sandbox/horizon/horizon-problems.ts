// Horizon's problem documents for every error under /horizon, with the sandbox's own
// {statusCode, reason, message} too, and the one error handler of the Horizon routes.
import type { ErrorRequestHandler, RequestHandler } from 'express'
import { ZodError } from 'zod'
import { ApiError } from '../errors.js'
import { clientErrorStatus, describeZodError } from '../http/errors.js'
import type { LedgerError } from '../ledger/ledger-errors.js'
import type { LedgerTransaction } from '../ledger/ledger-types.js'
import { appliedResultXdr, failureResultXdr } from './horizon-results.js'

const PROBLEM_TYPE_BASE = 'https://stellar.org/horizon-errors/'

const HTTP_REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  406: 'Not Acceptable',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
}

export class HorizonProblem extends Error {
  constructor(
    readonly status: number,
    /** Horizon's problem type: the last segment of its `type` URL. */
    readonly type: string,
    readonly title: string,
    readonly detail: string,
    readonly extras?: Record<string, unknown>,
  ) {
    super(detail)
    this.name = 'HorizonProblem'
  }
}

export const notFoundProblem = (detail: string) =>
  new HorizonProblem(404, 'not_found', 'Resource Missing', `The resource at the url requested was not found. ${detail}`)

export const badRequestProblem = (detail: string, invalidField?: string) =>
  new HorizonProblem(400, 'bad_request', 'Bad Request', `The request you sent was invalid in some way. ${detail}`, {
    ...(invalidField === undefined ? {} : { invalid_field: invalidField }),
    reason: detail,
  })

export function ledgerProblem(error: LedgerError, envelopeXdr: string): HorizonProblem {
  if (error.code === 'tx_malformed') {
    return new HorizonProblem(
      400,
      'transaction_malformed',
      'Transaction Malformed',
      `Horizon could not decode the transaction envelope in this request. ${error.message}`,
      {
        envelope_xdr: envelopeXdr,
      },
    )
  }
  const operations = error.code === 'tx_failed' ? { operations: error.operationCodes ?? [] } : {}
  return new HorizonProblem(
    400,
    'transaction_failed',
    'Transaction Failed',
    `The transaction failed when submitted to the sandbox ledger: ${error.message}`,
    {
      envelope_xdr: envelopeXdr,
      result_codes: { transaction: error.code, ...operations },
      result_xdr: failureResultXdr(error.code, error.operationCodes),
    },
  )
}

/** Horizon answers a transaction included as failed as it answers a refusal, but the result XDR charges the fee. */
export function failedTransactionProblem(tx: LedgerTransaction): HorizonProblem {
  const operations = tx.operationResults ?? []
  return new HorizonProblem(
    400,
    'transaction_failed',
    'Transaction Failed',
    `The transaction failed in ledger ${tx.ledgerSequence}: its fee was charged and its sequence number used; its operations changed nothing.`,
    {
      envelope_xdr: tx.envelopeXdr,
      result_codes: { transaction: 'tx_failed', operations },
      result_xdr: appliedResultXdr(tx.feeCharged, operations.length, operations),
    },
  )
}

/** The document for a problem: Horizon's fields, then the sandbox's own error fields. */
export function problemDocument(problem: HorizonProblem) {
  return {
    type: `${PROBLEM_TYPE_BASE}${problem.type}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    ...(problem.extras === undefined ? {} : { extras: problem.extras }),
    statusCode: problem.status,
    reason: HTTP_REASONS[problem.status] ?? problem.title,
    message: problem.detail,
  }
}

/** Any error of a Horizon route as a problem, or undefined for a bug (left to the app's handler, which logs it). */
function toProblem(error: unknown): HorizonProblem | undefined {
  if (error instanceof HorizonProblem) return error
  if (error instanceof ZodError) {
    const field = error.issues[0]?.path.map(String).join('.')
    return badRequestProblem(describeZodError(error), field || undefined)
  }
  if (error instanceof ApiError && error.statusCode < 500) {
    const type = error.statusCode === 404 ? 'not_found' : error.statusCode === 429 ? 'rate_limit_exceeded' : 'bad_request'
    return new HorizonProblem(error.statusCode, type, error.reason, error.message)
  }
  // Body parsing and path decoding fail with a 4xx status and a type we can explain.
  const status = clientErrorStatus(error)
  if (status !== undefined) {
    const type = (error as { type?: string }).type
    if (status === 413 || type === 'entity.too.large' || type === 'parameters.too.many') {
      return new HorizonProblem(
        413,
        'request_entity_too_large',
        'Request Entity Too Large',
        'The request body is larger than the sandbox accepts.',
      )
    }
    if (status === 415)
      return new HorizonProblem(
        415,
        'unsupported_media_type',
        'Unsupported Media Type',
        'The request body is in an encoding or charset the sandbox does not read.',
      )
    return badRequestProblem(type === 'request.aborted' ? 'The request body was not fully received.' : 'The request could not be read.')
  }
  return undefined
}

/** For paths under /horizon that no route serves. */
export const horizonNotFound: RequestHandler = (req, _res, next) => {
  next(notFoundProblem(`The sandbox's Horizon has no ${req.method} ${req.baseUrl}${req.path.slice(0, 200)}.`))
}

export const horizonErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  const problem = toProblem(error)
  if (!problem) return next(error)
  // Retry-After on a 429, like every other error's headers.
  if (error instanceof ApiError) res.set(error.headers)
  res.status(problem.status).json(problemDocument(problem))
}
