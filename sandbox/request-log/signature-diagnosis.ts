// Why a digest signature did not match, told to the key's merchant in the request inspector: the
// exact string the sandbox signed (src/signing.ts, the one rule), and which single part of it the
// client's signature was computed over differently, found by recomputing signatures over the
// variations the sandbox can know. Nothing is guessed: when none matches, it says what was tried.
import { DIGEST_TOLERANCE_SECONDS, digestStringToSign, signaturesMatch, signDigest, type DigestInput } from '../../src/signing.js'
import type { SignatureMismatch } from '../http/request-notes.js'

export type DigestPart = 'path' | 'timestamp' | 'method' | 'body' | 'signature'

export interface SignatureFinding {
  /** The part that differed, or none found. */
  part: DigestPart | undefined
  /** What the client's signature matches instead, in words. */
  explanation: string
  /** The string the client's signature was computed over, when one was found. */
  signedInstead: string | undefined
}

export interface SignatureDiagnosis {
  /** The string to sign of the request as received (the exact form). */
  expected: DigestInput & { stringToSign: string }
  finding: SignatureFinding
  /** How many variations were recomputed. */
  tried: number
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

interface Candidate {
  part: DigestPart
  input: DigestInput
  explanation: string
}

function percentDecoded(path: string): string | undefined {
  try {
    return decodeURIComponent(path)
  } catch {
    return undefined
  }
}

function* candidates(m: SignatureMismatch, exact: DigestInput): Generator<Candidate> {
  const url = m.originalUrl
  const queryAt = url.indexOf('?')
  const path = queryAt === -1 ? url : url.slice(0, queryAt)
  const query = queryAt === -1 ? '' : url.slice(queryAt)
  const paths: Array<[string, string]> = [
    [path.endsWith('/') ? path.slice(0, -1) + query : `${path}/${query}`, 'the path with its trailing slash toggled'],
    [url.replace(/^\//, ''), 'the path without its leading slash'],
  ]
  if (m.host !== undefined) {
    paths.push([`http://${m.host}${url}`, 'the full URL (scheme and host) instead of the path'])
    paths.push([`https://${m.host}${url}`, 'the full https URL instead of the path'])
  }
  const decoded = percentDecoded(path)
  if (decoded !== undefined && decoded !== path) paths.push([decoded + query, 'the path percent-decoded'])
  for (const [p, why] of paths) yield { part: 'path', input: { ...exact, path: p }, explanation: `It was signed over ${why}: "${p}"` }

  for (const method of METHODS)
    if (method !== exact.method.toUpperCase())
      yield {
        part: 'method',
        input: { ...exact, method },
        explanation: `It was signed with the method ${method}, but the request was ${exact.method}`,
      }

  if (m.rawBody !== undefined) {
    const bodies: Array<[string, string]> = [['', 'an empty body, though a body was sent']]
    try {
      const parsed: unknown = JSON.parse(m.rawBody)
      bodies.push([JSON.stringify(parsed, null, 2), 'the JSON pretty-printed, not the bytes sent'])
    } catch {
      // Not JSON: only the byte-level variations below. (Compact re-serialization and the path
      // without its query are forms the sandbox accepts, so they cannot be why it failed.)
    }
    bodies.push([m.rawBody.trim(), 'the body without its surrounding whitespace'])
    bodies.push([`${m.rawBody}\n`, 'the body with a trailing newline that was not sent'])
    for (const [body, why] of bodies)
      if (body !== m.rawBody) yield { part: 'body', input: { ...exact, body }, explanation: `It was signed over ${why}` }
  }

  // Another timestamp than the one sent: re-read from the clock between signing and sending, or milliseconds.
  const sent = Number(m.timestamp)
  for (let delta = 1; delta <= DIGEST_TOLERANCE_SECONDS; delta++)
    for (const other of [sent - delta, sent + delta])
      yield {
        part: 'timestamp',
        input: { ...exact, timestamp: String(other) },
        explanation: `It was signed with the timestamp ${other}, but ${m.timestamp} was sent in x-digest-timestamp`,
      }
  for (let ms = 0; ms < 1000; ms++) {
    const millis = String(sent * 1000 + ms)
    yield {
      part: 'timestamp',
      input: { ...exact, timestamp: millis },
      explanation: `It was signed with the timestamp in milliseconds (${millis}); x-digest-timestamp (${m.timestamp}) and the signature must use the same Unix seconds`,
    }
  }
}

/** Recomputes signatures with `secret` (never shown) over the variations of the request; the first that matches is the finding. */
export function diagnoseSignature(m: SignatureMismatch, secret: string): SignatureDiagnosis {
  const exact: DigestInput = { path: m.originalUrl, timestamp: m.timestamp, method: m.method, body: m.rawBody ?? '' }
  const expected = { ...exact, stringToSign: digestStringToSign(exact) }
  const none = (explanation: string, tried = 0): SignatureDiagnosis => ({
    expected,
    tried,
    finding: { part: undefined, explanation, signedInstead: undefined },
  })
  if (m.rawBody === undefined) return none('The body was too long for the log to keep, so the sandbox cannot recompute the signature.')
  if (/^[0-9A-F]{64}$/i.test(m.signature) && m.signature !== m.signature.toLowerCase()) {
    if (signaturesMatch(signDigest(secret, exact), m.signature.toLowerCase()))
      return {
        expected,
        tried: 1,
        finding: {
          part: 'signature',
          explanation: 'The signature is right but in upper-case hex: send it in lower case.',
          signedInstead: undefined,
        },
      }
  }
  if (!/^[0-9a-f]{64}$/.test(m.signature))
    return none(`x-digest-signature is not 64 lower-case hex digits (an HMAC-SHA256 in hex): it has ${m.signature.length} characters.`)
  let tried = 0
  for (const candidate of candidates(m, exact)) {
    tried++
    if (signaturesMatch(signDigest(secret, candidate.input), m.signature))
      return {
        expected,
        tried,
        finding: { part: candidate.part, explanation: candidate.explanation, signedInstead: digestStringToSign(candidate.input) },
      }
  }
  return none(
    `No variation of one part the sandbox can form matches (${tried} tried: path forms, other methods, body re-serializations, timestamps within ${DIGEST_TOLERANCE_SECONDS} s and in milliseconds). ` +
      "The secret differs (signed with another merchant's or a rotated secret), or more than one part differs.",
    tried,
  )
}
