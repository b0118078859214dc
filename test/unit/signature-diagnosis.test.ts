// What the request inspector tells about a refused digest signature: the exact string the sandbox
// signed, and the one part the client's signature was computed over differently, found by
// recomputing real signatures; nothing when no variation it can form matches.
import { describe, expect, it } from 'vitest'
import { signDigest, type DigestInput } from '../../src/signing.js'
import type { SignatureMismatch } from '../../sandbox/http/request-notes.js'
import { diagnoseSignature } from '../../sandbox/request-log/signature-diagnosis.js'

const SECRET = 'sk_test_diagnosis'
const sent: DigestInput = { path: '/payments?limit=5', timestamp: '1790000000', method: 'POST', body: '{"amount": {"value": 100}}' }

const mismatch = (signedOver: Partial<DigestInput>, secret = SECRET): SignatureMismatch => ({
  merchantId: 'm_1',
  method: sent.method,
  originalUrl: sent.path,
  timestamp: sent.timestamp,
  rawBody: sent.body,
  host: '127.0.0.1:4010',
  signature: signDigest(secret, { ...sent, ...signedOver }),
})

describe('diagnoseSignature', () => {
  it('shows the exact string to sign: path + timestamp + METHOD + body', () => {
    const { expected } = diagnoseSignature(mismatch({ method: 'PUT' }), SECRET)
    expect(expected.stringToSign).toBe('/payments?limit=51790000000POST{"amount": {"value": 100}}')
  })

  it.each<[string, Partial<DigestInput>, string]>([
    ['method', { method: 'PUT' }, 'PUT'],
    ['path', { path: '/payments/?limit=5' }, 'trailing slash'],
    ['path', { path: 'http://127.0.0.1:4010/payments?limit=5' }, 'full URL'],
    ['body', { body: JSON.stringify(JSON.parse(sent.body), null, 2) }, 'pretty-printed'],
    ['body', { body: '' }, 'empty body'],
    ['timestamp', { timestamp: '1790000007' }, '1790000007'],
    ['timestamp', { timestamp: '1790000000123' }, 'milliseconds'],
  ])('finds a signature over a different %s', (part, signedOver, words) => {
    const { finding } = diagnoseSignature(mismatch(signedOver), SECRET)
    expect(finding.part).toBe(part)
    expect(finding.explanation).toContain(words)
    expect(finding.signedInstead).toBe(
      `${signedOver.path ?? sent.path}${signedOver.timestamp ?? sent.timestamp}${signedOver.method ?? 'POST'}${signedOver.body ?? sent.body}`,
    )
  })

  it('says upper-case hex is the only problem when it is', () => {
    const m = mismatch({})
    const { finding } = diagnoseSignature({ ...m, signature: m.signature.toUpperCase() }, SECRET)
    expect(finding.part).toBe('signature')
  })

  it('claims nothing when no single-part variation matches (another secret)', () => {
    const { finding, tried } = diagnoseSignature(mismatch({}, 'sk_other'), SECRET)
    expect(finding.part).toBeUndefined()
    expect(finding.signedInstead).toBeUndefined()
    expect(tried).toBeGreaterThan(1000)
    expect(finding.explanation).toContain('secret differs')
    expect(finding.explanation).not.toContain(SECRET)
  })

  it('does not recompute over a body the log did not keep', () => {
    const { finding } = diagnoseSignature({ ...mismatch({ method: 'PUT' }), rawBody: undefined }, SECRET)
    expect(finding.part).toBeUndefined()
    expect(finding.explanation).toContain('too long')
  })
})
