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

  it('write what JSON.stringify writes, keys sorted by code unit', () => {
    expect(canonicalJson({})).toBe('{}')
    expect(canonicalJson([])).toBe('[]')
    expect(canonicalJson({ a: undefined, b: [undefined, 1], c: {} })).toBe('{"b":[null,1],"c":{}}')
    expect(canonicalJson({ a: undefined })).toBe('{}')
    expect(canonicalJson(undefined)).toBe('null')
    expect(canonicalJson({ é: 1, Z: 2, a: 3, '"q"': 4, '\u2028': 'x\ny' })).toBe('{"\\"q\\"":4,"Z":2,"a":3,"é":1,"\u2028":"x\\ny"}')
    const nested = { list: [{ b: 2, a: [{ d: 1, c: 'x' }] }], n: -0.5e-7, t: true, s: '' }
    expect(JSON.parse(canonicalJson(nested))).toEqual(nested)
  })
})
