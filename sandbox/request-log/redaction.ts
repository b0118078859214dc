// What the request log keeps of bodies and headers: secret-bearing JSON fields, credential
// headers and tokens in URLs replaced by [redacted], then cut to a bound. The bytes around them
// stay as sent (nothing is re-serialized), so what is shown is what went over the wire, less secrets.
import { ADMIN_TOKEN_HEADER, DIGEST_HEADERS } from '../../src/api/headers.js'

export const REDACTED = '[redacted]'
/** A JSON field or header whose name says it holds a credential. */
const SECRET_NAME = /secret|token|password|passphrase|signature|authorization|cookie|private/i
/** Headers never kept: the digest signature (replayable), the admin token, cookies. */
const SECRET_HEADERS = new Set([
  DIGEST_HEADERS.signature,
  ADMIN_TOKEN_HEADER,
  'cookie',
  'set-cookie',
  'authorization',
  'proxy-authorization',
])
/** "name": value, a value cut short by truncation included. */
const JSON_FIELD = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*(?:"|$)|-?[\d.eE+-]+|true|false|null)/g
/** A credential in a URL's query: ?token=…, &api_secret=… */
const URL_SECRET = /([?&][\w-]*(?:secret|token|password)[\w-]*=)[^&"'\s#]+/gi

/** The text with secret-bearing JSON fields and URL parameters redacted. */
export function redactText(text: string): string {
  return text
    .replace(JSON_FIELD, (field, name: string, colon: string) => (SECRET_NAME.test(name) ? `"${name}"${colon}"${REDACTED}"` : field))
    .replace(URL_SECRET, `$1${REDACTED}`)
}

/** Cut to `limit` characters, saying so. */
export function bounded(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [cut: the log keeps the first ${limit} characters]`
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>, limits: { count: number; length: number }) {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers).slice(0, limits.count)) {
    if (value === undefined) continue
    const text = Array.isArray(value) ? value.join(', ') : value
    kept[name] = SECRET_HEADERS.has(name.toLowerCase()) || SECRET_NAME.test(name) ? REDACTED : bounded(redactText(text), limits.length)
  }
  return kept
}
