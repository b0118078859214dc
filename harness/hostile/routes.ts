// The routes of an Express app, read from its router stack, and which routes a case reaches.
import type { Express } from 'express'
import { parseJsonBody } from '../../sandbox/http/body.js'
import type { HostileCase } from './hostile-case.js'

export interface RouteInfo {
  /** Upper case. */
  method: string
  /** The Express pattern, such as /payments/:id/refunds. */
  path: string
  /** Registered before the JSON body parser: browser pages, /health and short links. */
  beforeBodyParser: boolean
}

export const routeLabel = (route: Pick<RouteInfo, 'method' | 'path'>): string => `${route.method} ${route.path}`

interface StackLayer {
  route?: { path: string | string[]; methods: Record<string, boolean | undefined> }
  handle?: unknown
  /** The path the layer was mounted at (app.use(path, router)). */
  rawPath?: unknown
}

/**
 * Every route of an Express app, in registration order, with the path routers are mounted at
 * put in front. A route or mount path Express keeps in a form this cannot read (a RegExp, a
 * list under a router) is refused loudly rather than left without cases.
 */
export function listRoutes(app: Express): RouteInfo[] {
  const routes: RouteInfo[] = []
  let bodyParserSeen = false
  const walk = (stack: StackLayer[], prefix: string) => {
    for (const layer of stack) {
      const nested = (layer.handle as { stack?: StackLayer[] } | undefined)?.stack
      if (layer.handle === parseJsonBody) {
        bodyParserSeen = true
      } else if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path]
        for (const path of paths) {
          if (typeof path !== 'string') throw new Error(`listRoutes: a route under "${prefix}" has a path that is not a string`)
          const full = prefix === '' ? path : path === '/' ? prefix : `${prefix}${path}`
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (!on) continue
            if (method === '_all')
              throw new Error(`listRoutes: ${full} is registered with .all(); name its methods so hostile cases can reach them`)
            routes.push({ method: method.toUpperCase(), path: full, beforeBodyParser: !bodyParserSeen })
          }
        }
      } else if (Array.isArray(nested)) {
        if (typeof layer.rawPath !== 'string')
          throw new Error(`listRoutes: a router under "${prefix}" is mounted at a path that is not one string`)
        walk(nested, layer.rawPath === '/' ? prefix : `${prefix}${layer.rawPath}`)
      }
    }
  }
  walk((app as unknown as { router: { stack: StackLayer[] } }).router.stack, '')
  return routes
}

/** Whether Express would route `wirePath` (query aside) to `pattern`: ":name" is one segment, "*name" the rest, "{…}" optional. */
export function routeMatches(pattern: string, wirePath: string): boolean {
  let source = ''
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!
    const name = /^[:*]([A-Za-z_$][\w$]*)/.exec(pattern.slice(i))
    if (name) {
      source += char === ':' ? '[^/]+' : '.+'
      i += name[0].length - 1
    } else if (char === '{') source += '(?:'
    else if (char === '}') source += ')?'
    else source += char.replace(/[.+?^$()[\]|\\]/g, '\\$&')
  }
  return new RegExp(`^${source}/?$`, 'i').test(wirePath.split('?')[0]!)
}

// Cases on a route's path with a method no route of that path has count too: they probe the path.
export function casesPerRoute(cases: readonly HostileCase[], routes: readonly RouteInfo[]): Map<string, number> {
  const counts = new Map(routes.map((route) => [routeLabel(route), 0]))
  for (const c of cases) {
    const onPath = routes.filter((route) => routeMatches(route.path, c.path))
    const sameMethod = onPath.filter((route) => route.method === c.method)
    for (const route of sameMethod.length > 0 ? sameMethod : onPath) counts.set(routeLabel(route), counts.get(routeLabel(route))! + 1)
  }
  return counts
}
