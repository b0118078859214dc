import { describe, expect, it } from 'vitest'
import { canonicalJson, requestFingerprint } from '../../sandbox/idempotency/idempotency-service.js'

describe('request fingerprints', () => {
  it('ignore key order and whitespace but not values', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}')
    const a = requestFingerprint('POST', '/payments', { amount: { value: 1, currency: 'USD' }, description: 'x' })
    const b = requestFingerprint('post', '/payments', { description: 'x', amount: { currency: 'USD', value: 1 } })
    expect(a).toBe(b)
    expect(requestFingerprint('POST', '/payments', { description: 'y', amount: { currency: 'USD', value: 1 } })).not.toBe(a)
    expect(requestFingerprint('POST', '/invoices', { description: 'x', amount: { currency: 'USD', value: 1 } })).not.toBe(a)
  })

  it('distinguish strings from numbers and arrays from objects', () => {
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }))
    expect(canonicalJson([1])).not.toBe(canonicalJson({ 0: 1 }))
  })
})
