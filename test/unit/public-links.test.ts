import { describe, expect, it } from 'vitest'
import { publicLink } from '../../sandbox/public-links.js'
import { SEP7_MESSAGE_LIMIT, buildPayUri } from '../../sandbox/ledger/sep7.js'

describe('publicLink', () => {
  it('joins a path to the public base, with or without its trailing slash or a prefix', () => {
    expect(publicLink('http://127.0.0.1:4242', '/s/abc')).toBe('http://127.0.0.1:4242/s/abc')
    expect(publicLink('http://127.0.0.1:4242/', 's/abc')).toBe('http://127.0.0.1:4242/s/abc')
    expect(publicLink('https://pay.example/sandbox', '/s/abc')).toBe('https://pay.example/sandbox/s/abc')
    expect(publicLink('https://pay.example/sandbox/', '//s/abc')).toBe('https://pay.example/sandbox/s/abc')
  })

  it('encodes the query as form data, and leaves no "?" for an empty one', () => {
    const link = publicLink('http://127.0.0.1:4242', '/checkout/pt_1', { paymentId: 'pt_1', note: 'a b&c=d#e+é/?', lang: 'en' })
    expect(link).toBe('http://127.0.0.1:4242/checkout/pt_1?paymentId=pt_1&note=a+b%26c%3Dd%23e%2B%C3%A9%2F%3F&lang=en')
    expect(Object.fromEntries(new URL(link).searchParams)).toEqual({ paymentId: 'pt_1', note: 'a b&c=d#e+é/?', lang: 'en' })
    expect(publicLink('http://127.0.0.1:4242', '/payments', {})).toBe('http://127.0.0.1:4242/payments')
  })
})

describe('buildPayUri', () => {
  const input = {
    destination: 'GDEST',
    amount: '12.5',
    assetCode: 'USDC',
    assetIssuer: 'GISSUER',
    memo: 'pb-1',
    memoType: 'MEMO_TEXT' as const,
  }
  const msgOf = (uri: string) => new URLSearchParams(uri.slice(uri.indexOf('?') + 1)).get('msg')

  it('keeps a message of up to 300 code points whole, spaces as %20', () => {
    const message = `${'☕'.repeat(SEP7_MESSAGE_LIMIT - 1)} `
    const uri = buildPayUri({ ...input, message })
    expect(msgOf(uri)).toBe(message)
    expect(uri.slice(uri.indexOf('?'))).not.toContain('+')
  })

  it('cuts a longer message at 300 code points, never inside a surrogate pair', () => {
    const message = `${'a'.repeat(SEP7_MESSAGE_LIMIT - 1)}😀😀`
    expect(msgOf(buildPayUri({ ...input, message }))).toBe(`${'a'.repeat(SEP7_MESSAGE_LIMIT - 1)}😀`)
    const astral = '😀'.repeat(SEP7_MESSAGE_LIMIT + 5)
    expect([...msgOf(buildPayUri({ ...input, message: astral }))!]).toHaveLength(SEP7_MESSAGE_LIMIT)
  })
})
