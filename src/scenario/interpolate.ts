// `${steps.<id>.<path>}`, `${receiver.url}`, `${merchant.<field>}` and `${run.id}` in a scenario: checked
// by the loader, resolved by the runner just before each step.

export const REFERENCE_ROOTS = ['steps', 'receiver', 'merchant', 'run'] as const
export type ReferenceRoot = (typeof REFERENCE_ROOTS)[number]

export interface Reference {
  /** The text between `${` and `}`. */
  expression: string
  root: ReferenceRoot
  /** Path segments after the root: for steps, the step id first. */
  path: Array<string | number>
}

/** What references resolve against while a scenario runs. */
export type ReferenceScope = Record<ReferenceRoot, unknown>

export class ScenarioReferenceError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ScenarioReferenceError'
  }
}

// `$${` writes a literal `${`.
const PLACEHOLDER = /\$?\$\{([^}]*)\}/g
const SEGMENT = /\.([A-Za-z0-9_-]+)|\[(\d+)\]/y

/** Reads a path such as `steps.create.history[0].status` into segments; undefined if malformed. */
export function parsePath(text: string): Array<string | number> | undefined {
  const head = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text)
  if (!head) return undefined
  const segments: Array<string | number> = [head[0]]
  SEGMENT.lastIndex = head[0].length
  while (SEGMENT.lastIndex < text.length) {
    const match = SEGMENT.exec(text)
    if (!match) return undefined
    segments.push(match[1] ?? Number(match[2]))
  }
  return segments
}

/** Parses one reference expression, or explains why it is not one. */
export function parseReference(expression: string): Reference {
  const segments = parsePath(expression.trim())
  if (!segments)
    throw new ScenarioReferenceError(
      `\${${expression}} is not a reference: write \${steps.<id>.<field>}, \${receiver.url}, \${merchant.<field>} or \${run.id}`,
    )
  const [root, ...path] = segments
  if (!REFERENCE_ROOTS.includes(root as ReferenceRoot)) {
    throw new ScenarioReferenceError(`\${${expression}}: unknown root "${root}"; references start with ${REFERENCE_ROOTS.join(', ')}`)
  }
  if (root === 'steps' && typeof path[0] !== 'string')
    throw new ScenarioReferenceError(`\${${expression}}: name a step, as in \${steps.<id>.<field>}`)
  return { expression, root: root as ReferenceRoot, path }
}

/** Every reference in a string (escaped `$${` excluded). */
export function referencesIn(text: string): Reference[] {
  const found: Reference[] = []
  for (const match of text.matchAll(PLACEHOLDER)) if (!match[0].startsWith('$$')) found.push(parseReference(match[1]!))
  return found
}

/** Every string inside a value, with its path (for the loader's checks). */
export function* stringsIn(value: unknown, path: Array<string | number> = []): Generator<[string, Array<string | number>]> {
  if (typeof value === 'string') yield [value, path]
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* stringsIn(item, [...path, index])
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) yield* stringsIn(item, [...path, key])
}

/** Follows `path` into `value`; undefined where it leads nowhere. */
export function valueAt(value: unknown, path: Array<string | number>): unknown {
  let current = value
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string | number, unknown>)[segment]
  }
  return current
}

/** `history[0].status` style text of a path. */
export const formatPath = (path: Array<string | number>): string =>
  path.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('')

function resolveReference(reference: Reference, scope: ReferenceScope): unknown {
  const { root, path, expression } = reference
  const base = scope[root]
  if (base === undefined) {
    throw new ScenarioReferenceError(
      root === 'receiver'
        ? `\${${expression}}: the scenario has no receiver (add receiver: true)`
        : `\${${expression}}: nothing to refer to`,
    )
  }
  if (root === 'steps') {
    const [id, ...rest] = path as [string, ...Array<string | number>]
    const results = base as Record<string, unknown>
    if (!(id in results)) throw new ScenarioReferenceError(`\${${expression}}: no earlier step with id "${id}" has run`)
    const value = valueAt(results[id], rest)
    if (value === undefined) throw new ScenarioReferenceError(`\${${expression}}: the result of step "${id}" has no ${formatPath(rest)}`)
    return value
  }
  const value = valueAt(base, path)
  if (value === undefined) throw new ScenarioReferenceError(`\${${expression}}: ${root} has no ${formatPath(path)}`)
  return value
}

/** A string that is exactly one reference becomes the value itself (a number stays a number); others get text. */
export function interpolateString(text: string, scope: ReferenceScope): unknown {
  const whole = /^\$\{([^}]*)\}$/.exec(text)
  if (whole) return resolveReference(parseReference(whole[1]!), scope)
  return text.replace(PLACEHOLDER, (match, expression: string) => {
    if (match.startsWith('$$')) return match.slice(1)
    const value = resolveReference(parseReference(expression), scope)
    return typeof value === 'string' ? value : JSON.stringify(value)
  })
}

export function interpolate<T>(value: T, scope: ReferenceScope): T {
  if (typeof value === 'string') return interpolateString(value, scope) as T
  if (Array.isArray(value)) return value.map((item) => interpolate(item, scope)) as T
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, scope)])) as T
  }
  return value
}
