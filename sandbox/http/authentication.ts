// Who may call what, as each entry of the contract declares it (src/api/contract/: its security
// and the reason of its 401s), through sandbox/openapi/operations.ts. A request needs what the
// operations declared at its path need, whatever its method; any other path under a family
// (/payments/…, /sandbox/clock/…) needs what the family's shallowest operation needs, so it is
// refused for missing credentials before it is found missing.
import type { RequestHandler } from 'express'
import type { SandboxContext } from '../context.js'
import type { Route } from './operation.js'
import { ADMIN_TOKEN_HEADER } from '../../src/api/headers.js'
import { adminAuth, digestAuth, type DigestAuthDeps } from './auth.js'

/** What authenticating a request takes: a scheme and, for digest auth, the reason of its 401s. */
export type Authentication = Pick<Route, 'security' | 'authReason'>

/** Sandbox extensions live under /sandbox/…: there, the second segment names the family. */
const NAMESPACE = 'sandbox'

/** The family of a path: /payments/pt_1/refunds → payments, /sandbox/clock/advance → sandbox/clock. */
function familyOf(path: string): string {
  // Express matches paths without regard to case, so the families do too.
  const [, first = '', second = ''] = path.toLowerCase().split('/', 3)
  return first === NAMESPACE ? `${first}/${second}` : first
}

/** A regular expression matching the request paths of Express paths (/payments/:id), as Express does. */
export function expressPathsPattern(paths: readonly string[]): RegExp {
  if (paths.length === 0) return /(?!)/
  const source = (path: string) =>
    path
      .split(/(:\w+)/)
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('')
  return new RegExp(`^(?:${paths.map(source).join('|')})/?$`, 'i')
}

const depth = (operation: Route) => operation.path.split('/').length
const sameAuthentication = (a: Authentication, b: Authentication) => a.security === b.security && a.authReason === b.authReason
const label = (operation: Route) => `${operation.method.toUpperCase()} ${operation.path}`

interface Family {
  fallback: Route
  /** Operations whose authentication differs from the fallback's, and the paths they answer. */
  exceptions: Array<{ paths: RegExp; operation: Route }>
}

/**
 * The declared operation whose authentication applies to a request path, or undefined for a path
 * in no family. Throws at build time when the declarations leave a path ambiguous.
 */
export function authenticationOf(operations: readonly Route[]): (path: string) => Route | undefined {
  let resolve = resolvers.get(operations)
  if (!resolve) resolvers.set(operations, (resolve = buildAuthenticationOf(operations)))
  return resolve
}

/** Built once per table: authentication and the fast routes ask of the same one, at every core start. */
const resolvers = new WeakMap<readonly Route[], (path: string) => Route | undefined>()

function buildAuthenticationOf(operations: readonly Route[]): (path: string) => Route | undefined {
  const byFamily = new Map<string, Route[]>()
  for (const operation of operations) {
    const name = familyOf(operation.path)
    byFamily.set(name, [...(byFamily.get(name) ?? []), operation])
  }
  const families = new Map<string, Family>()
  for (const [name, members] of byFamily) {
    const shallowest = Math.min(...members.map(depth))
    const fallback = members.find((operation) => depth(operation) === shallowest)!
    const exceptions: Family['exceptions'] = []
    for (const operation of members) {
      if (sameAuthentication(operation, fallback)) continue
      if (depth(operation) === shallowest)
        throw new Error(`${label(operation)} and ${label(fallback)} open the family ${name} with different authentication`)
      const samePath = members.find((other) => other.path === operation.path && !sameAuthentication(other, operation))
      if (samePath) throw new Error(`${label(operation)} and ${label(samePath)} share a path but not its authentication`)
      exceptions.push({ paths: expressPathsPattern([operation.path]), operation })
    }
    families.set(name, { fallback, exceptions })
  }
  return (path) => {
    const family = families.get(familyOf(path))
    if (!family) return undefined
    return family.exceptions.find((exception) => exception.paths.test(path))?.operation ?? family.fallback
  }
}

/**
 * Authenticates every request as its declarations say: the admin token, digest auth with the
 * reason of its family (spec 7), digest auth only when sent, or nothing.
 */
export function authenticateAsDeclared(
  ctx: Pick<SandboxContext, 'rateLimits' | 'identity'>,
  merchants: DigestAuthDeps,
  operations: readonly Route[],
): RequestHandler {
  const resolve = authenticationOf(operations)
  const admin = adminAuth(ctx.identity.adminToken, ctx.rateLimits?.adminFailures)
  const handlers = new Map<Route, RequestHandler | undefined>()
  const handlerOf = ({ security, authReason }: Route): RequestHandler | undefined => {
    if (security === 'none') return undefined
    if (security === 'admin') return admin
    if (!authReason) throw new Error(`A ${security} operation must name the reason of its 401s`)
    const digest = digestAuth(merchants, authReason, { optional: security === 'optional-digest' })
    if (security !== 'admin-or-digest') return digest
    // The admin token when sent; else the merchant's key (its route decides what the merchant may do).
    return (req, res, next) => (req.headers[ADMIN_TOKEN_HEADER] === undefined ? digest : admin)(req, res, next)
  }
  for (const operation of operations) handlers.set(operation, handlerOf(operation))
  return (req, res, next) => {
    const operation = resolve(req.path)
    const handler = operation && handlers.get(operation)
    return handler ? handler(req, res, next) : next()
  }
}
