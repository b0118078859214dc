// Errors a PayboxClient raises: the API said no (PayboxApiError), or it could not be reached.

export class PayboxApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly reason: string,
    message: string,
    readonly body: unknown,
    /** Seconds to wait before retrying, from a Retry-After header (429). */
    readonly retryAfterSeconds?: number,
    /** The request's id in the sandbox's request log (its Request-Id header). */
    readonly requestId?: string,
  ) {
    super(message)
    this.name = 'PayboxApiError'
  }
}

export class PayboxConnectionError extends Error {
  constructor(
    readonly baseUrl: string,
    cause: unknown,
  ) {
    super(
      `Could not reach ${baseUrl}: ${cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause)}`,
    )
    this.name = 'PayboxConnectionError'
  }
}
