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

/**
 * For a PostgreSQL URL with a password given as --db: where the password is masked and why that is
 * not enough. Undefined for any other location.
 */
export function commandLinePasswordNote(location: string): string | undefined {
  if (!isPostgresUrl(location) || !URL.canParse(location) || new URL(location).password === '') return undefined
  return (
    `Note: the password in --db is shown as *** here (${redactDatabaseLocation(location)}), but any user of this machine ` +
    'can read it in the process list: pass the URL in PAYBOX_DATABASE_URL instead'
  )
}
