// The error an API call was refused with, failing the test if it succeeded or threw anything else.
import { expect } from 'vitest'
import { PayboxApiError } from '../src/client/errors.js'

export async function refusal(promise: Promise<unknown>): Promise<PayboxApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(PayboxApiError)
  return error as PayboxApiError
}
