import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { secretsMatch, signDigest, signaturesMatch, signWebhook, verifyWebhook } from '../../src/signing.js'
import { signedPayloadVariants } from '../../sandbox/http/auth.js'

const SECRET = 'sk_test_secret'

describe('signDigest', () => {
  it('is lowercase hex HMAC-SHA256 over path + timestamp + METHOD + body', () => {
    const expected = createHmac('sha256', SECRET).update('/payments?page=21700000000POST{"a":1}').digest('hex')
    expect(signDigest(SECRET, { path: '/payments?page=2', timestamp: '1700000000', method: 'post', body: '{"a":1}' })).toBe(expected)
    expect(expected).toMatch(/^[0-9a-f]{64}$/)
  })

  it('changes with every input', () => {
    const base = { path: '/payments', timestamp: '1700000000', method: 'GET', body: '' }
    const signature = signDigest(SECRET, base)
    expect(signDigest(SECRET, { ...base, path: '/payments/x' })).not.toBe(signature)
    expect(signDigest(SECRET, { ...base, timestamp: '1700000001' })).not.toBe(signature)
    expect(signDigest(SECRET, { ...base, method: 'POST' })).not.toBe(signature)
    expect(signDigest(SECRET, { ...base, body: ' ' })).not.toBe(signature)
    expect(signDigest('sk_test_other', base)).not.toBe(signature)
  })
})

describe('signaturesMatch', () => {
  const good = signDigest(SECRET, { path: '/x', timestamp: '1', method: 'GET', body: '' })

  it('accepts the identical signature', () => {
    expect(signaturesMatch(good, good)).toBe(true)
  })

  it.each([
    ['uppercase hex', good.toUpperCase()],
    ['truncated', good.slice(0, 63)],
    ['one extra character', `${good}0`],
    ['one digit changed', `${good.slice(0, -1)}${good.endsWith('0') ? '1' : '0'}`],
    ['empty', ''],
    ['not hex', 'z'.repeat(64)],
  ])('refuses a near miss: %s', (_name, candidate) => {
    expect(signaturesMatch(good, candidate)).toBe(false)
  })
})

describe('secretsMatch', () => {
  it('accepts only the identical token, whatever its length or type', () => {
    expect(secretsMatch('adm_123', 'adm_123')).toBe(true)
    expect(secretsMatch('adm_123', 'adm_124')).toBe(false)
    expect(secretsMatch('adm_123', 'adm_1234')).toBe(false)
    expect(secretsMatch('adm_123', '')).toBe(false)
    expect(secretsMatch('adm_123', undefined)).toBe(false)
    expect(secretsMatch('adm_123', ['adm_123'])).toBe(false)
  })
})

describe('signedPayloadVariants', () => {
  it('offers the exact form first, then the path without query and the compact JSON body', () => {
    const variants = signedPayloadVariants({
      originalUrl: '/payments?limit=5',
      rawBody: '{ "a": 1 }',
      body: { a: 1 },
    })
    expect(variants).toEqual({ paths: ['/payments?limit=5', '/payments'], bodies: ['{ "a": 1 }', '{"a":1}'] })
  })

  it('signs an empty object as the empty string and adds nothing twice', () => {
    expect(signedPayloadVariants({ originalUrl: '/payments', rawBody: '{}', body: {} })).toEqual({
      paths: ['/payments'],
      bodies: ['{}', ''],
    })
    expect(signedPayloadVariants({ originalUrl: '/payments', rawBody: '{"a":1}', body: { a: 1 } }).bodies).toEqual(['{"a":1}'])
    expect(signedPayloadVariants({ originalUrl: '/payments', rawBody: '', body: undefined }).bodies).toEqual([''])
  })
})

describe('webhook signatures', () => {
  const body = '{"data":{"id":"pt_1","status":"paid"}}'

  it('verifies the signature over the raw bytes', () => {
    const signature = signWebhook(body, SECRET)
    expect(signature).toBe(createHmac('sha256', SECRET).update(body).digest('hex'))
    expect(verifyWebhook(body, signature, SECRET)).toBe(true)
    expect(verifyWebhook(Buffer.from(body), signature, SECRET)).toBe(true)
  })

  it('rejects re-serialized JSON, another secret, and a missing header', () => {
    const signature = signWebhook(body, SECRET)
    expect(verifyWebhook(JSON.stringify(JSON.parse(body), null, 2), signature, SECRET)).toBe(false)
    expect(verifyWebhook(body, signature, 'sk_test_other')).toBe(false)
    expect(verifyWebhook(body, undefined, SECRET)).toBe(false)
  })
})
