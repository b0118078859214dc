// The limits of both modes, as declared (sandbox/limits/) and as docs/security.md states them,
// and the pieces that derive from them: the file-descriptor cap, the loopback rule, token buckets.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../sandbox/clock.js'
import { RateLimiter } from '../../sandbox/limits/rate-limiter.js'
import { LOCAL_LIMITS, RESERVED_FILE_DESCRIPTORS, SHARED_LIMITS, isLoopbackHost, limitsFor } from '../../sandbox/limits/sandbox-limits.js'

const doc = fs.readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8')
/** The table row of docs/security.md that starts with `label`, split into cells. */
const row = (label: string) => {
  const line = doc.split('\n').find((text) => text.startsWith(`| ${label}`))
  expect(line, `docs/security.md has a row for ${label}`).toBeDefined()
  return line!.split('|').map((cell) => cell.trim())
}
const seconds = (ms: number) => `${ms / 1000} s`
const count = (n: number) => n.toLocaleString('en-US')

describe('sandbox limits', () => {
  it('are the ones docs/security.md lists', () => {
    const rows: Array<[string, (limits: typeof LOCAL_LIMITS) => string]> = [
      ["Time to send a request's headers", (l) => seconds(l.headersTimeoutMs)],
      ['Time to send a whole request', (l) => seconds(l.requestTimeoutMs)],
      ['Idle keep-alive connection', (l) => seconds(l.keepAliveTimeoutMs)],
      ['Open connections in all', (l) => count(l.maxConnections)],
      ['Open connections per client address', (l) => count(l.maxConnectionsPerClient)],
      ['Open event streams in all', (l) => count(l.maxStreams)],
      ['Open event streams per client address', (l) => count(l.maxStreamsPerClient)],
    ]
    for (const [label, value] of rows) expect(row(label).slice(2, 4), label).toEqual([value(LOCAL_LIMITS), value(SHARED_LIMITS)])
    expect(row('Each API key').slice(2, 4)).toEqual([String(SHARED_LIMITS.apiKeyRate!.burst), `${SHARED_LIMITS.apiKeyRate!.perSecond}/s`])
    expect(row('Each client address, without').slice(2, 4)).toEqual([
      String(SHARED_LIMITS.publicRate!.burst),
      `${SHARED_LIMITS.publicRate!.perSecond}/s`,
    ])
    expect(row('Each client address, admin').slice(2, 4)).toEqual([
      String(SHARED_LIMITS.adminFailureRate!.burst),
      `1 per ${1 / SHARED_LIMITS.adminFailureRate!.perSecond} s`,
    ])
    expect(row('Each client address, tenants').slice(2, 4)).toEqual([
      String(SHARED_LIMITS.tenantCreationRate!.burst),
      `${SHARED_LIMITS.tenantCreationRate!.perSecond}/s`,
    ])
    expect(row('Each client address, tenants')[4]).toContain(
      `at most ${count(SHARED_LIMITS.maxTenants)} active tenants (${count(LOCAL_LIMITS.maxTenants)} locally)`,
    )
    expect(doc).toContain(`less ${RESERVED_FILE_DESCRIPTORS} descriptors`)
    expect(LOCAL_LIMITS.apiKeyRate ?? LOCAL_LIMITS.publicRate ?? LOCAL_LIMITS.adminFailureRate).toBeUndefined()
  })

  it('never allow more connections than the process may open files', () => {
    expect(limitsFor(false, {}, 1024).maxConnections).toBe(1024 - RESERVED_FILE_DESCRIPTORS)
    expect(limitsFor(true, {}, 1024).maxConnectionsPerClient).toBe(SHARED_LIMITS.maxConnectionsPerClient)
    expect(limitsFor(false, {}, 100_000).maxConnections).toBe(LOCAL_LIMITS.maxConnections)
    expect(limitsFor(true, { maxStreams: 4 }, undefined)).toMatchObject({ maxStreams: 4, maxStreamsPerClient: 4 })
  })

  it('take loopback addresses and localhost as local, anything else as shared', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost', '::ffff:127.0.0.1']) expect(isLoopbackHost(host), host).toBe(true)
    for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'example.test', '::ffff:10.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(false)
  })

  it('refill a token bucket on the injected clock, and forget the least recently seen key first', () => {
    const clock = new ManualClock(0)
    const limiter = new RateLimiter({ burst: 2, perSecond: 0.5 }, clock)
    expect([limiter.take('a'), limiter.take('a')]).toEqual([{ allowed: true }, { allowed: true }])
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 2 })
    expect(limiter.retryAfter('b')).toBeUndefined()
    clock.advance(1_000)
    expect(limiter.retryAfter('a')).toBe(1)
    clock.advance(1_000)
    expect(limiter.take('a')).toEqual({ allowed: true })

    // Bounded memory: 10,000 other keys later, 'a' starts again with a full bucket.
    limiter.take('a')
    expect(limiter.take('a').allowed).toBe(false)
    for (let i = 0; i < 10_000; i++) limiter.take(`key-${i}`)
    expect(limiter.take('a').allowed).toBe(true)
  })
})
