// Errors a request can end in, thrown by the domain: each carries the HTTP status and the
// reason the API answers with (spec 7); sandbox/http/errors.ts turns them into the answer.
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly reason: string,
    message?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? reason)
    this.name = 'ApiError'
  }
}

export const badRequest = (message: string, reason = 'Bad Request') => new ApiError(400, reason, message)
export const unauthorized = (reason: string, message: string) => new ApiError(401, reason, message)
export const notFound = (message = 'Not Found') => new ApiError(404, 'Not Found', message)
export const conflict = (reason: string, message?: string) => new ApiError(409, reason, message)
export const unprocessable = (reason: string, message?: string) => new ApiError(422, reason, message)
