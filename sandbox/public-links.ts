// Absolute links the sandbox hands out (hostedUrl, shortUrl, page links) are built here, on
// the public base URL, which may carry a path prefix when the sandbox sits behind a proxy.

export function publicLink(publicUrl: string, path: string, query?: Record<string, string>): string {
  const base = publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`
  const relative = path.replace(/^\/+/, '')
  // One parse: each searchParams.set on a URL would re-serialize its whole query.
  const search = query === undefined ? '' : new URLSearchParams(query).toString()
  return new URL(search === '' ? relative : `${relative}?${search}`, base).href
}
