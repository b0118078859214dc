// What the dashboard's data-entry forms share: a problem named by the field it came from, the
// idempotency key a form carries (drawn when it was rendered), and which errors the person at
// the form can fix (a 4xx, shown back on the form) as opposed to faults (an error page).
import type { ZodError } from 'zod'
import { ApiError, badRequest } from '../errors.js'
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency/idempotency-service.js'

/** A problem with a form: the input it names ('' for the form as a whole) and what is wrong. */
export interface FormError {
  field: string
  message: string
}

/** The form's idempotency key, checked as the API checks an Idempotency-Key header. */
export function formIdempotencyKey(key: string | undefined): string {
  if (key === undefined || key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw badRequest('idempotency_key: missing or too long; reload the page and try again')
  }
  return key
}

/** A refusal the person filling the form can fix (a 4xx), as opposed to a fault. */
export const isRefusal = (error: unknown): error is ApiError => error instanceof ApiError && error.statusCode < 500

/** Places a message that names a field ("due_at: must be in the future") on the form input `fieldOf` gives for it. */
export function errorOnField(message: string, fieldOf: (named: string) => string): FormError {
  const prefix = /^([a-z_]+): /.exec(message)
  const field = prefix ? fieldOf(prefix[1]!) : ''
  return { field, message: prefix && field ? message.slice(prefix[0].length) : message }
}

/** A field name the form has, or '' (the form as a whole). */
export const oneOf =
  (fields: readonly string[]) =>
  (named: string): string =>
    fields.includes(named) ? named : ''

/** The API's validation problems, one per form input (the first problem of each), placed by `fieldOf`. */
export function issuesOnFields(error: ZodError, fieldOf: (path: readonly PropertyKey[]) => string, known: FormError[] = []): FormError[] {
  const errors = [...known]
  for (const issue of error.issues) {
    const field = fieldOf(issue.path)
    if (!errors.some((e) => e.field === field)) errors.push({ field, message: issue.message })
  }
  return errors
}
