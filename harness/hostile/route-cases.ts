// Route cases: every route of the app, found in its router stack, attacked with hostile path
// segments, query strings, bodies and headers, so that a new route is attacked without anyone
// listing it. The dashboard's pages are attacked signed in, their forms carrying the CSRF token.
import {
  encodeQuery,
  EVERY_ROUTE,
  MAX_BODY_BYTES,
  onTheWire,
  setOwn,
  toJson,
  type Expectation,
  type HostileCase,
  type HostileCredentials,
} from './hostile-case.js'
import { KEY_ALPHABET, Rng } from './rng.js'
import type { RouteInfo } from './routes.js'

/** The route's path with each parameter filled in by `fill`, optional groups kept. */
function concretePath(pattern: string, fill: (name: string) => string): string {
  return pattern.replace(/[{}]/g, '').replace(/[:*]([A-Za-z_$][\w$]*)/g, (_m, name: string) => fill(name))
}

const paramNames = (pattern: string): string[] => [...pattern.matchAll(/[:*]([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!)

/** A plausible value for a parameter: the shape of a real id, or the caller's own merchant id. */
function sampleParam(name: string, pattern: string, rng: Rng, creds: HostileCredentials): string {
  if (name === 'merchantId') return creds.direct.id
  if (name === 'hash') return rng.hex(64)
  if (name === 'id' && /^\/(sandbox\/)?(payments|checkout)\//.test(pattern)) return `pt_${rng.hex(32)}`
  return `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-8${rng.hex(3)}-${rng.hex(12)}`
}

/** Path segments no route accepts as an id (already percent-encoded where it matters). */
const HOSTILE_SEGMENTS = [
  '%ZZ',
  '%',
  '%C3',
  '%E0%A4%A',
  '%ED%A0%80',
  '%FF',
  '%00',
  'x'.repeat(5000),
  'é中🙂',
  "'%20OR%201%3D1--",
  '..%2F..%2Fetc%2Fpasswd',
  '-1',
  '0',
  '1e309',
  'null',
  'undefined',
  '%2F',
  '%20',
  '__proto__',
  'constructor',
  '%24%7B7*7%7D',
  '%3Cscript%3E',
  'NaN',
  '[]',
  '%7B%7D',
]
/** Query strings no route accepts: unknown, out-of-range, repeated, malformed or huge parameters. */
const HOSTILE_QUERIES = [
  'zz_unknown=1',
  'page=0',
  'page=-1',
  'limit=0',
  'limit=1e3',
  'limit=99999999999',
  'page=abc',
  'page=%',
  'page=%ZZ',
  'limit=1&limit=2',
  'page[]=1',
  'page[x]=1',
  '__proto__=1',
  'constructor=x',
  `zz=${'v'.repeat(6000)}`,
  `${'k'.repeat(3000)}=1`,
  'status=%00',
  'order=sideways',
  'after=-1',
  '%ZZ=1',
]
/** Bodies refused before any route reads them (sandbox/http/body.ts): [status, name, body, content-type]. */
const PARSER_REFUSALS: Array<[number, string, string | Uint8Array, string | undefined]> = [
  [400, 'truncated JSON', '{"zz":', undefined],
  [400, 'single quotes', "{'zz': 1}", undefined],
  [400, 'trailing comma', '{"zz":1,}', undefined],
  [400, 'NaN', '{"zz":NaN}', undefined],
  [400, 'BOM', '\ufeff{}', undefined],
  [400, 'two documents', '{}{}', undefined],
  [400, '33 levels', `${'['.repeat(33)}${']'.repeat(33)}`, undefined],
  [400, '20000 levels', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`, undefined],
  [400, 'invalid UTF-8', Uint8Array.from([0x7b, 0x22, 0x7a, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), 'application/json'],
  [415, 'text/plain', '{}', 'text/plain'],
  [415, 'form', 'zz=1', 'application/x-www-form-urlencoded'],
  [415, 'XML', '<zz/>', 'application/xml'],
  [413, 'over 256 KiB', `{"zz":"${'o'.repeat(MAX_BODY_BYTES)}"}`, undefined],
]
/** Well-formed JSON that is no route's body: not an object, or an object with fields no route has. */
const FOREIGN_BODIES = [
  '[]',
  '[{}]',
  '"text"',
  '42',
  'true',
  'null',
  '{"zz_unknown":1}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `{"zz":"${'z'.repeat(100_000)}"}`,
]
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
/**
 * GET routes that answer whatever else the query holds, by design: the probe, the API's own
 * description, and browser pages (links pick up tracking parameters). Every other GET route
 * refuses a parameter it does not know, and so does every other route (docs/api.md).
 */
const QUERY_IGNORED = [
  /^\/health$/,
  /^\/openapi\.json$/,
  /^\/s\//,
  /^\/checkout\//,
  // The dashboard's assets, its start (a redirect to the first view) and its event stream read no query.
  /^\/dashboard\/assets\//,
  /^\/dashboard$/,
  /^\/dashboard\/events$/,
]
/** The dashboard's pages (sandbox/dashboard/), under the body parser of their own forms. */
const isDashboardPath = (path: string) => path === '/dashboard' || path.startsWith('/dashboard/')
/** How many values of each family a route gets before random variants fill up the count. */
const PER_ROUTE = { segments: 6, queries: 5, parserRefusals: 4, foreignBodies: 4 }
/** Over Node's 16 KiB limit on request headers: refused before routing, with 431. */
const OVERSIZED_HEADER: [string, string] = ['x-hostile-padding', 'h'.repeat(17 * 1024)]

/** JSON of random shape: nested, unicode, extreme numbers, keys no schema has. */
function junkValue(rng: Rng, depth: number): unknown {
  switch (rng.int(0, depth >= 4 ? 3 : 5)) {
    case 0:
      return rng.text(0, 40)
    case 1:
      return rng.pick([0, -1, -0, 1.5, 1e308, -1e308, 2 ** 53 + 1, 5e-324, rng.int(-1e9, 1e9)])
    case 2:
      return rng.pick([true, false, null])
    case 3:
      return rng.text(200, 3000, KEY_ALPHABET)
    case 4:
      return Array.from({ length: rng.int(0, 4) }, () => junkValue(rng, depth + 1))
    default:
      return junkObject(rng, depth + 1)
  }
}
function junkObject(rng: Rng, depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  setOwn(object, `zz_${rng.hex(6)}`, junkValue(rng, depth))
  for (let i = rng.int(0, 3); i > 0; i--)
    setOwn(object, rng.pick(['amount', 'description', 'name', 'seconds', 'reason', rng.text(1, 12, KEY_ALPHABET)]), junkValue(rng, depth))
  return object
}

/**
 * `count` cases over every route in `routes`, numbered from `firstIndex`: for each route, its
 * parameters replaced by hostile segments, junk query strings, bodies the parser refuses, bodies
 * of the wrong shape, and headers over Node's limit; for each path, the methods it does not
 * have. Then random variants of these, until there are `count`. Every case is signed as the
 * direct merchant and carries the admin token, so it passes whichever authentication its route
 * has and reaches the route's own checks.
 */
export function generateRouteCases(
  seed: number,
  routes: readonly RouteInfo[],
  creds: HostileCredentials,
  count: number,
  firstIndex = 0,
): HostileCase[] {
  const rng = new Rng(seed ^ 0x7a11_0e5)
  const cases: HostileCase[] = []
  const credentials: Array<[string, string]> = [['x-sandbox-admin-token', creds.adminToken]]
  const add = (route: RouteInfo, family: string, name: string, path: string, expect: Expectation, extra: Partial<HostileCase> = {}) => {
    const method = extra.method ?? route.method
    const session = dashboardSession(route, method)
    cases.push({
      endpoint: EVERY_ROUTE,
      family,
      method,
      path: onTheWire(path),
      name: `#${firstIndex + cases.length} ${method} ${route.path} ${family}: ${name}`,
      headers: [...credentials, ...(session?.headers ?? []), ...(extra.headers ?? [])],
      signAs: 'direct',
      expect,
      ...(session?.body !== undefined ? { body: session.body } : extra.body !== undefined ? { body: extra.body } : {}),
    })
  }
  // The dashboard's pages are attacked signed in, as the API's routes are, so that a case reaches
  // the page's own checks; a POST carries the session's CSRF token as its form.
  const dashboardSession = (route: RouteInfo, method: string): { headers: Array<[string, string]>; body?: string } | undefined => {
    if (!creds.dashboard || !isDashboardPath(route.path)) return undefined
    const headers: Array<[string, string]> = [['cookie', creds.dashboard.cookie]]
    if (method !== 'POST') return { headers }
    headers.push(['content-type', 'application/x-www-form-urlencoded'])
    return { headers, body: new URLSearchParams({ csrf_token: creds.dashboard.csrfToken }).toString() }
  }
  const rejected = (route: RouteInfo, statuses: number[]): Expectation => ({
    kind: 'rejected',
    statuses,
    pageAllowed: route.beforeBodyParser,
  })
  const sample = (route: RouteInfo) => concretePath(route.path, (name) => sampleParam(name, route.path, rng, creds))
  // With a parameter, the lookup may refuse first (404); without one, only the input is wrong (400).
  const refusal = (route: RouteInfo) => rejected(route, paramNames(route.path).length > 0 ? [400, 404] : [400])
  // A dashboard page refuses a filter it cannot read (400) and, as a browser page, renders past a
  // parameter it does not read (links pick up tracking parameters): either way a page, never a 5xx.
  const queryRefusal = (route: RouteInfo) =>
    isDashboardPath(route.path) ? rejected(route, [200, 400, ...(paramNames(route.path).length > 0 ? [404] : [])]) : refusal(route)
  const takesBody = (route: RouteInfo) => route.method !== 'GET' && !route.beforeBodyParser
  // Every JSON route refuses a parameter it does not declare, POSTs included (?amount= on a refund).
  const readsQuery = (route: RouteInfo) =>
    (route.method === 'GET' || !route.beforeBodyParser) && !QUERY_IGNORED.some((pattern) => pattern.test(route.path))

  const systematic: Array<() => void> = []
  for (const route of routes) {
    systematic.push(() =>
      add(route, 'route-header', 'headers over 16 KiB', sample(route), rejected(route, [431]), { headers: [OVERSIZED_HEADER] }),
    )
    for (const param of paramNames(route.path)) {
      for (const segment of rng.sample(HOSTILE_SEGMENTS, PER_ROUTE.segments)) {
        const path = concretePath(route.path, (name) => (name === param ? segment : sampleParam(name, route.path, rng, creds)))
        systematic.push(() =>
          add(
            route,
            'route-param',
            `${param} = ${segment.slice(0, 30)}${segment.length > 30 ? `…(${segment.length})` : ''}`,
            path,
            rejected(route, [400, 404]),
          ),
        )
      }
    }
    if (readsQuery(route)) {
      for (const query of rng.sample(HOSTILE_QUERIES, PER_ROUTE.queries))
        systematic.push(() => add(route, 'route-query', query.slice(0, 40), `${sample(route)}?${query}`, queryRefusal(route)))
    }
    if (takesBody(route)) {
      for (const [status, name, body, type] of rng.sample(PARSER_REFUSALS, PER_ROUTE.parserRefusals)) {
        const headers: Array<[string, string]> = type === undefined ? [] : [['content-type', type]]
        systematic.push(() => add(route, 'route-body-parser', name, sample(route), rejected(route, [status]), { body, headers }))
      }
      for (const body of rng.sample(FOREIGN_BODIES, PER_ROUTE.foreignBodies))
        systematic.push(() => add(route, 'route-body-shape', body.slice(0, 40), sample(route), refusal(route), { body }))
    }
  }
  const byPath = new Map<string, RouteInfo[]>()
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route])
  for (const [path, onPath] of byPath) {
    for (const method of METHODS.filter((m) => !onPath.some((route) => route.method === m))) {
      const route = onPath[0]!
      const extra: Partial<HostileCase> = method === 'GET' ? { method } : { method, body: '{}' }
      systematic.push(() => add(route, 'route-method', `${method} of ${path}`, sample(route), rejected(route, [404, 405]), extra))
    }
  }
  for (const make of systematic) make()

  // Random variants, as many as asked for beyond the systematic ones.
  while (cases.length < count) {
    const route = rng.pick(routes)
    const params = paramNames(route.path)
    const families = [
      ...(params.length > 0 ? ['param'] : []),
      ...(readsQuery(route) ? ['query'] : []),
      ...(takesBody(route) ? ['body', 'bytes'] : []),
    ]
    if (families.length === 0) continue
    switch (rng.pick(families)) {
      case 'param': {
        const param = rng.pick(params)
        const segment = encodeURIComponent(rng.text(1, rng.chance(0.1) ? 4000 : 60))
        const path = concretePath(route.path, (name) => (name === param ? segment : sampleParam(name, route.path, rng, creds)))
        add(route, 'route-param', `random ${param} of ${segment.length} chars`, path, rejected(route, [400, 404]))
        break
      }
      case 'query': {
        const pairs = Array.from(
          { length: rng.int(1, 4) },
          () => [`zz_${rng.text(1, 20, KEY_ALPHABET)}`, rng.text(0, rng.chance(0.1) ? 3000 : 40)] as [string, string],
        )
        add(
          route,
          'route-query',
          `random ${pairs.length} unknown parameters`,
          `${sample(route)}?${encodeQuery(pairs)}`,
          queryRefusal(route),
        )
        break
      }
      case 'body': {
        const text = toJson(junkObject(rng, 0))
        add(route, 'route-body-shape', `random object of ${text.length} bytes`, sample(route), refusal(route), {
          body: rng.chance(0.2) ? text.slice(0, rng.int(1, text.length - 1)) : text,
        })
        break
      }
      default: {
        const bytes = Uint8Array.from([0x7b, 0xff, ...Array.from({ length: rng.int(0, 300) }, () => rng.int(0, 255))])
        add(route, 'route-body-parser', `${bytes.length} random bytes`, sample(route), rejected(route, [400]), {
          body: bytes,
          headers: [['content-type', 'application/json']],
        })
      }
    }
  }
  return cases
}
