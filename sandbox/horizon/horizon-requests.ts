// Where Horizon's API is mounted and the form its transaction submit takes: shared by its routes
// and its OpenAPI declarations, which must not import the routes (they import the route table).
import { z } from 'zod'

export { HORIZON_PATH } from '../../src/api/paths.js'

export const submitForm = z.strictObject({
  tx: z.string({ message: 'is required: the base64 XDR of a signed transaction envelope' }).min(1, { message: 'must not be empty' }),
})
