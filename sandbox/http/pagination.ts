// The page envelope of spec 2.9: meta for every list, links (absolute URLs) for payment and
// refund lists.
import type { PageLinks, PageMeta } from '../../src/client/types.js'
import type { PageRequest } from '../db/paginate.js'
import { publicLink } from '../public-links.js'

// The envelope types are the client's: what the server sends is exactly what clients read.
export type { PageLinks, PageMeta }

export function pageMeta(request: PageRequest, totalItems: number, itemCount: number): PageMeta {
  return {
    totalItems,
    itemCount,
    itemsPerPage: request.limit,
    totalPages: Math.ceil(totalItems / request.limit),
    currentPage: request.page,
  }
}

/**
 * Links to the first, previous, next and last pages, keeping the caller's other query values.
 * previous and next are "" when there is no such page.
 */
export function pageLinks(publicUrl: string, path: string, query: Record<string, string>, meta: PageMeta): PageLinks {
  const lastPage = Math.max(1, meta.totalPages)
  const link = (page: number): string => {
    const kept = Object.fromEntries(Object.entries(query).filter(([name]) => name !== 'page' && name !== 'limit'))
    return publicLink(publicUrl, path, { ...kept, page: String(page), limit: String(meta.itemsPerPage) })
  }
  return {
    first: link(1),
    previous: meta.currentPage > 1 ? link(Math.min(meta.currentPage - 1, lastPage)) : '',
    next: meta.currentPage < lastPage ? link(meta.currentPage + 1) : '',
    last: link(lastPage),
  }
}
