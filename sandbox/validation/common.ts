// The sandbox's side of request validation: the shared pieces of src/api/validation.ts, and the
// page a list query asks for.
import type { PageRequest } from '../db/paginate.js'

export {
  httpUrl,
  isoDateOrDateTime,
  isoDateTime,
  metadata,
  noBody,
  optionalText,
  pageQuery,
  queryInteger,
} from '../../src/api/validation.js'

const DEFAULT_PAGE_SIZE = 20

/** The page a list query asks for: the first, of DEFAULT_PAGE_SIZE items, unless it says otherwise. */
export const pageRequest = (query: { page?: number; limit?: number }): PageRequest => ({
  page: query.page ?? 1,
  limit: query.limit ?? DEFAULT_PAGE_SIZE,
})
