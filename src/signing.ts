// Digest-auth signatures (spec section 5) and webhook signatures, shared by the client,
// the sandbox's verifier and integrators' receivers so that all three agree byte for byte.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

export { DIGEST_HEADERS, WEBHOOK_SIGNATURE_HEADER } from './api/headers.js'

/** How far x-digest-timestamp may stray from the server's wall clock, in seconds. */
export const DIGEST_TOLERANCE_SECONDS = 300

export interface DigestInput {
  /** Request path relative to the base URL, with its query string as sent. */
  path: string
  /** Unix seconds, as the text sent in x-digest-timestamp. */
  timestamp: string
  method: string
  /** The raw request body text; "" when there is none. */
  body: string
}

export function hmacSha256Hex(secret: string, payload: string | Buffer): string {
  return createHmac('sha256', secret).update(payload).digest('hex')
}

/** The exact text a digest signature covers: path + timestamp + METHOD + body. */
export function digestStringToSign(input: DigestInput): string {
  return `${input.path}${input.timestamp}${input.method.toUpperCase()}${input.body}`
}

/** The signature a client sends: HMAC-SHA256 over the string to sign. */
export function signDigest(secret: string, input: DigestInput): string {
  return hmacSha256Hex(secret, digestStringToSign(input))
}

/** Compares two lowercase hex signatures without leaking where they differ. */
export function signaturesMatch(expectedHex: string, receivedHex: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(receivedHex)) return false
  const expected = Buffer.from(expectedHex, 'hex')
  const received = Buffer.from(receivedHex, 'hex')
  return expected.length === received.length && timingSafeEqual(expected, received)
}

/**
 * Compares a secret token (admin token, checkout auth_token) with what a caller sent, in time
 * that depends on neither: both are hashed to equal length first.
 */
export function secretsMatch(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(expected), digest(given))
}

/** Signs a webhook body exactly as the sandbox does: hex HMAC-SHA256 over the raw bytes. */
export function signWebhook(rawBody: string | Buffer, secret: string): string {
  return hmacSha256Hex(secret, rawBody)
}

/**
 * Checks an X-WEBHOOK-AUTH header against the raw body as received (never re-serialized JSON),
 * in constant time. Use it in your receiver before trusting a delivery.
 */
export function verifyWebhook(rawBody: string | Buffer, signature: string | undefined, secret: string): boolean {
  if (typeof signature !== 'string') return false
  return signaturesMatch(signWebhook(rawBody, secret), signature)
}
