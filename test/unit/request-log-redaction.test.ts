// The request log keeps bodies and headers for the inspector with their secrets redacted, the
// bytes around them as sent, and cut to a bound.
import { describe, expect, it } from 'vitest'
import { bounded, REDACTED, redactHeaders, redactText } from '../../sandbox/request-log/redaction.js'

describe('request log redaction', () => {
  it('redacts secret-bearing JSON fields and keeps every other byte as sent', () => {
    const body =
      '{"name": "Shop",  "apiSecret":"sk_live_1","nested":{"api_secret" : "s2","secret":42},"webhook_secret_hint":null,"memo":"keep"}'
    expect(redactText(body)).toBe(
      `{"name": "Shop",  "apiSecret":"${REDACTED}","nested":{"api_secret" : "${REDACTED}","secret":"${REDACTED}"},"webhook_secret_hint":"${REDACTED}","memo":"keep"}`,
    )
  })

  it('redacts a secret cut short by truncation, and tokens in URLs', () => {
    expect(redactText('{"apiSecret":"sk_live_abc')).toBe(`{"apiSecret":"${REDACTED}"`)
    expect(redactText('{"url":"http://h/dashboard/sign-in?token=abc123&x=1"}')).toBe(
      `{"url":"http://h/dashboard/sign-in?token=${REDACTED}&x=1"}`,
    )
  })

  it('redacts the digest signature, admin token and cookies among headers, and bounds the rest', () => {
    const headers = redactHeaders(
      {
        'x-digest-key': 'pk_1',
        'x-digest-signature': 'ab'.repeat(32),
        'x-sandbox-admin-token': 'admin',
        cookie: 'a=b',
        'user-agent': 'x'.repeat(500),
      },
      { count: 40, length: 256 },
    )
    expect(headers).toMatchObject({
      'x-digest-key': 'pk_1',
      'x-digest-signature': REDACTED,
      'x-sandbox-admin-token': REDACTED,
      cookie: REDACTED,
    })
    expect(headers['user-agent']!.startsWith('x'.repeat(256))).toBe(true)
    expect(headers['user-agent']!.length).toBeLessThan(320)
  })

  it('cuts long text and says so', () => {
    expect(bounded('abcdef', 3)).toMatch(/^abc… \[cut/)
    expect(bounded('abc', 3)).toBe('abc')
  })
})
