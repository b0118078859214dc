import { describe, expect, it } from 'vitest'
import { authenticationOf, expressPathsPattern } from '../../sandbox/http/authentication.js'
import type { Route } from '../../sandbox/http/operation.js'
import { ROUTES } from '../../sandbox/openapi/operations.js'

const OPERATIONS: readonly Route[] = ROUTES

const resolve = authenticationOf(OPERATIONS)
/** What a request path needs, in a word: none, admin, or the digest scheme and its 401 reason. */
const needs = (path: string): string => {
  const operation = resolve(path)
  if (!operation || operation.security === 'none' || operation.security === 'admin') return operation?.security ?? 'none'
  return `${operation.security}: ${operation.authReason}`
}

describe('authentication as declared', () => {
  it('gives every declared path what its operation declares, whatever the method', () => {
    for (const operation of OPERATIONS) {
      const path = operation.path.replace(/:\w+/g, 'x1')
      const resolved = resolve(path)
      expect({ security: resolved?.security, authReason: resolved?.authReason }, `${operation.method} ${operation.path}`).toEqual({
        security: operation.security,
        authReason: operation.authReason,
      })
    }
  })

  it("answers an unknown path under a family as the family's shallowest operation, and other paths not at all", () => {
    expect({
      '/payments/pt_1/nope': needs('/payments/pt_1/nope'),
      '/PAYMENTS/': needs('/PAYMENTS/'),
      '/refunds/rf_1/x': needs('/refunds/rf_1/x'),
      '/invoices/x/y/z': needs('/invoices/x/y/z'),
      '/merchant/x': needs('/merchant/x'),
      '/merchants': needs('/merchants'),
      '/cross-chain/nope': needs('/cross-chain/nope'),
      '/sandbox/clock/%ZZ': needs('/sandbox/clock/%ZZ'),
      '/sandbox/payments/pt_1/nope': needs('/sandbox/payments/pt_1/nope'),
      '/sandbox/nope': needs('/sandbox/nope'),
      '/sandbox': needs('/sandbox'),
      '/paymentsx': needs('/paymentsx'),
      '/checkout/pt_1/nope': needs('/checkout/pt_1/nope'),
      '/nowhere': needs('/nowhere'),
    }).toEqual({
      '/payments/pt_1/nope': 'digest: Unauthorized',
      '/PAYMENTS/': 'digest: Unauthorized',
      '/refunds/rf_1/x': 'digest: Unauthorized',
      '/invoices/x/y/z': 'digest: Signature verification failed',
      '/merchant/x': 'digest: Signature verification failed',
      '/merchants': 'digest: Signature verification failed',
      '/cross-chain/nope': 'optional-digest: Unauthorized',
      '/sandbox/clock/%ZZ': 'admin',
      '/sandbox/payments/pt_1/nope': 'digest: Unauthorized',
      '/sandbox/nope': 'none',
      '/sandbox': 'none',
      '/paymentsx': 'none',
      '/checkout/pt_1/nope': 'none',
      '/nowhere': 'none',
    })
  })

  it('matches a path that differs from its family as Express routes it: any case, one trailing slash', () => {
    expect(needs('/payments/pt_1/cross-chain/quote')).toBe('optional-digest: Unauthorized')
    expect(needs('/Payments/pt_1/Cross-Chain/Quote/')).toBe('optional-digest: Unauthorized')
    expect(needs('/payments/pt_1/cross-chain/quote/x')).toBe('digest: Unauthorized')
    expect(needs('/cross-chain/quotes/qt_1')).toBe('digest: Unauthorized')
    expect(expressPathsPattern([]).test('/')).toBe(false)
  })

  it('refuses declarations that leave a path ambiguous', () => {
    const op = (method: Route['method'], path: string, security: Route['security']): Route => ({
      method,
      path,
      security,
      authReason: 'Unauthorized',
      operationId: `${method}${path}`,
    })
    expect(() => authenticationOf([op('get', '/things', 'digest'), op('post', '/things', 'admin')])).toThrow(/different authentication/)
    expect(() =>
      authenticationOf([op('get', '/things', 'digest'), op('get', '/things/:id', 'none'), op('post', '/things/:id', 'digest')]),
    ).toThrow(/share a path/)
  })
})
