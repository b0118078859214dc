// Where a sandbox keeps its state: an SQLite file (or :memory:) or a PostgreSQL URL, for a
// sandbox shared by several processes. Shared by the CLI and the sandbox.

export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location)
}

/** The location without a password, for banners, messages and logs. */
export function redactDatabaseLocation(location: string): string {
  if (!isPostgresUrl(location) || !URL.canParse(location)) return location
  const url = new URL(location)
  if (url.password) url.password = '***'
  return url.toString()
}
