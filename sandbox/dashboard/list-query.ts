// What the dashboard's lists (payments, invoices, webhooks, requests) share: their query as a
// filter form sends it (empty fields are no filter), and the pager whose links keep the filters.
import type { Request } from 'express'
import { html } from 'ghtml'
import type { pageMeta } from '../http/pagination.js'
import { dashboardHref } from './dashboard-kit.js'

/** The request's query with empty fields left out (an untouched form sends them). */
export function filledQuery(req: Request): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
    if (typeof value !== 'string') query[name] = String(value)
    else if (value !== '') query[name] = value
  }
  return query
}

/** The fields of `query` a list reads, to carry into its pager's links. */
export function keptFilters(query: Record<string, string>, fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.filter((name) => query[name] !== undefined).map((name) => [name, query[name]!]))
}

/** Previous and next links to `path` with the same filters, and where the page is. */
export function pager(path: string, query: Record<string, string>, meta: ReturnType<typeof pageMeta>, noun: string): string {
  const kept = Object.fromEntries(Object.entries(query).filter(([name]) => name !== 'page'))
  const to = (page: number) => dashboardHref(path, { ...kept, page })
  const previous =
    meta.currentPage > 1 ? html`<a href="${to(meta.currentPage - 1)}" rel="prev" data-testid="page-previous">Previous</a>` : ''
  const next =
    meta.currentPage < meta.totalPages ? html`<a href="${to(meta.currentPage + 1)}" rel="next" data-testid="page-next">Next</a>` : ''
  return html`<nav class="pager" aria-label="Pages">!${previous}<span data-testid="page-position">Page ${meta.currentPage} of ${Math.max(1, meta.totalPages)} · ${meta.totalItems} ${noun}</span>!${next}</nav>`
}
