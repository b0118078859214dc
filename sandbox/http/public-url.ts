// Absolute links the sandbox hands out (hostedUrl, shortUrl, page links) are built here, on
// the public base URL, which may carry a path prefix when the sandbox sits behind a proxy.

export function publicLink(publicUrl: string, path: string, query: Record<string, string> = {}): string {
  const base = publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`
  const url = new URL(path.replace(/^\/+/, ''), base)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  return url.toString()
}
