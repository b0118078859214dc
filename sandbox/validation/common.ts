// The sandbox's side of list queries: the page one asks for (the schemas are src/api's).
import type { PageRequest } from '../db/paginate.js'

const DEFAULT_PAGE_SIZE = 20

/** The page a list query asks for: the first, of DEFAULT_PAGE_SIZE items, unless it says otherwise. */
export const pageRequest = (query: { page?: number; limit?: number }): PageRequest => ({
  page: query.page ?? 1,
  limit: query.limit ?? DEFAULT_PAGE_SIZE,
})
