// Sends a hostile case exactly as written, signed like an outside client.
import { signDigest } from '../../src/signing.js'
import { readResponse, type RawResponse } from '../sandbox.js'
import type { HostileCase, HostileCredentials } from './hostile-case.js'

export type SendCredentials = Pick<HostileCredentials, 'direct' | 'escrow'>

/** A case whose answer takes longer than this failed: a stream opened, or the server hangs. */
export const RESPONSE_TIMEOUT_MS = 5_000

/**
 * Sends a case exactly as written: its bytes, its headers in order (a name may repeat), signed
 * like an outside client by `signAs` unless the case sets x-digest-* itself. In header values,
 * {{now}} is the current Unix time and {{sig}} the correct signature of this request by
 * `signAs` ({{sig:/path}}: signed over another path). Rejects when no answer comes within
 * RESPONSE_TIMEOUT_MS.
 */
export async function sendHostile(baseUrl: string, c: HostileCase, creds: SendCredentials): Promise<RawResponse> {
  const signer = c.signAs ? creds[c.signAs] : undefined
  const names = c.headers.map(([name]) => name.toLowerCase())
  const ownDigest = names.some((name) => name.startsWith('x-digest-k') || name.startsWith('x-digest-t') || name.startsWith('x-digest-s'))
  const now = String(Math.floor(Date.now() / 1000))
  const bodyText = c.signBody ?? (typeof c.body === 'string' ? c.body : c.body === undefined ? '' : Buffer.from(c.body).toString('utf8'))
  const sign = (path: string) => (signer ? signDigest(signer.apiSecret, { path, timestamp: now, method: c.method, body: bodyText }) : '')
  const headers = new Headers()
  for (const [name, value] of c.headers) {
    headers.append(
      name,
      value.replaceAll('{{now}}', now).replace(/\{\{sig(?::([^}]*))?\}\}/g, (_m, path?: string) => sign(path ?? c.path)),
    )
  }
  if (typeof c.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json')
  if (signer && !ownDigest) {
    headers.set('x-digest-key', signer.apiKey)
    headers.set('x-digest-timestamp', now)
    headers.set('x-digest-signature', sign(c.path))
  }
  const response = await fetch(`${baseUrl}${c.path}`, {
    method: c.method,
    headers,
    body: c.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
  })
  return readResponse(response)
}
