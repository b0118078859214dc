// Reads a scenario file (YAML, or JSON, which is YAML too) and validates it, reporting any
// problem as `file:line:col: path: message` at the node that holds it.
import fs from 'node:fs'
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml'
import type { z } from 'zod'
import { UserError } from '../user-error.js'
import { formatPath, referencesIn, ScenarioReferenceError, stringsIn } from './interpolate.js'
import { actionOf, scenarioSchema, STEP_ACTION_NAMES, STEP_ACTIONS, type Scenario } from './schema.js'

export interface LoadedScenario {
  /** The file as named on the command line. */
  file: string
  scenario: Scenario
}

/** Where a problem is in the file (1-based), and what it is. */
export interface ScenarioProblem {
  detail: string
  position?: { line: number; column: number }
}

const located = (file: string, { detail, position }: ScenarioProblem): string =>
  position ? `${file}:${position.line}:${position.column}: ${detail}` : `${file}: ${detail}`

/**
 * A scenario file that cannot be read or is not valid; the CLI exits 2 with one line per
 * problem, each `file:line:col: path: problem`.
 */
export class ScenarioFileError extends UserError {
  readonly exitCode = 2

  constructor(
    readonly file: string,
    readonly problems: [ScenarioProblem, ...ScenarioProblem[]],
  ) {
    super(problems.map((problem) => located(file, problem)).join('\n'))
    this.name = 'ScenarioFileError'
  }
}

type Path = Array<string | number>

export function loadScenarioFile(file: string): LoadedScenario {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new ScenarioFileError(file, [{ detail: `cannot read the scenario file${code ? ` (${code})` : ''}` }])
  }
  return parseScenario(text, file)
}

export function parseScenario(text: string, file: string): LoadedScenario {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true })
  const at = (offset: number, detail: string): ScenarioProblem => {
    const { line, col } = lineCounter.linePos(offset)
    return { detail, position: { line, column: col } }
  }
  const refuse = (problems: ScenarioProblem[]): void => {
    if (problems.length > 0) throw new ScenarioFileError(file, problems as [ScenarioProblem, ...ScenarioProblem[]])
  }
  // YAML errors after the first are often its echoes: the first alone is reported.
  const [syntax] = doc.errors
  if (syntax) refuse([at(syntax.pos[0], syntax.message.split('\n')[0]!)])

  const parsed = scenarioSchema.safeParse(doc.toJS())
  if (!parsed.success) {
    // A misspelt field also shows as a missing one: said at the same place, the unknown name comes first.
    const issues = parsed.error.issues.toSorted((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'))
    refuse(issues.flatMap((issue) => describeIssue(doc, issue).map(([offset, detail]) => at(offset, detail))))
  }
  const scenario = parsed.data!
  const problems: ScenarioProblem[] = []
  checkSteps(scenario, (path, detail) => problems.push(at(offsetOf(doc, path), `${formatPath(path)}: ${detail}`)))
  refuse(problems)
  return { file, scenario }
}

/** What the schema cannot see: unique step ids, and references to steps that exist and came earlier. */
function checkSteps(scenario: Scenario, fail: (path: Path, detail: string) => void): void {
  const declared = new Map<string, number>()
  for (const [index, step] of scenario.steps.entries()) if (step.id !== undefined && !declared.has(step.id)) declared.set(step.id, index)
  const seen = new Set<string>()
  for (const [index, step] of scenario.steps.entries()) {
    const action = actionOf(step)
    const refer = (id: string, path: Path, what: string): void => {
      const at = declared.get(id)
      if (at === undefined) fail(path, `${what}: no step has id "${id}"`)
      else if (at >= index) fail(path, `${what}: step "${id}" runs later (steps[${at}]); refer only to earlier steps`)
    }
    for (const [text, inner] of stringsIn(step[action], ['steps', index, action])) {
      let references
      try {
        references = referencesIn(text)
      } catch (error) {
        if (!(error instanceof ScenarioReferenceError)) throw error
        fail(inner, error.message)
        continue
      }
      for (const reference of references) {
        const what = `\${${reference.expression}}`
        if (reference.root === 'steps') refer(String(reference.path[0]), inner, what)
        if (reference.root === 'receiver' && !scenario.receiver) fail(inner, `${what}: the scenario has no receiver (add receiver: true)`)
      }
    }
    if (action === 'expect' && step.expect?.step !== undefined)
      refer(step.expect.step, ['steps', index, 'expect', 'step'], `step "${step.expect.step}"`)
    if (step.id !== undefined) {
      if (seen.has(step.id)) fail(['steps', index, 'id'], `another step already has id "${step.id}"`)
      seen.add(step.id)
    }
  }
}

/** Where in the text an issue belongs, and what to say about it (an unknown field each, when there are several). */
function describeIssue(doc: Document, issue: z.core.$ZodIssue): Array<[number, string]> {
  const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol')
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeys(path)
    const hint = known ? `; expected one of ${known.join(', ')}` : ''
    return issue.keys.map((key) => [offsetOf(doc, [...path, key], true), `${label([...path, key])}: unknown field${hint}`])
  }
  return [[offsetOf(doc, path), `${label(path)}: ${messageOf(issue)}`]]
}

const label = (path: Path): string => (path.length === 0 ? '(scenario)' : formatPath(path))

/** The field names allowed where an unknown one was found, to help with a typo. */
function knownKeys(path: Path): string[] | undefined {
  if (path.length === 0) return Object.keys(scenarioSchema.shape)
  if (path.length === 2 && path[0] === 'steps') return ['id', 'name', ...STEP_ACTION_NAMES]
  const action = path.length === 3 && path[0] === 'steps' ? (path[2] as string) : undefined
  const schema = action === undefined ? undefined : STEP_ACTIONS[action as keyof typeof STEP_ACTIONS]
  if (!schema) return undefined
  // Each action is a (possibly refined) strict object: its shape names the fields.
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape
  return shape ? Object.keys(shape) : undefined
}

/** zod's message without its "Invalid input:" prefix; for unions, the branch that explains most. */
function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const firsts = issue.errors.map((branch) => branch[0]).filter((branchIssue) => branchIssue !== undefined)
    const telling = firsts.find((branchIssue) => branchIssue.code !== 'invalid_type') ?? firsts[0]
    if (telling) return messageOf(telling)
  }
  return issue.message.replace(/^Invalid input: /, '')
}

// The deepest node on the way that exists: a missing field is reported at the object that lacks it.
function offsetOf(doc: Document, path: Path, key = false): number {
  let node: Node | null | undefined = doc.contents as Node | null
  let offset = node?.range?.[0] ?? 0
  for (const [index, segment] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment))
      if (!pair) break
      const keyNode = pair.key as Node
      const isLast = index === path.length - 1
      if (key && isLast) return keyNode.range?.[0] ?? offset
      node = pair.value as Node | null
      // A key with no value (`amount:`) is reported at its key.
      offset = node?.range?.[0] ?? keyNode.range?.[0] ?? offset
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment] as Node | undefined
      if (!node) break
      offset = node.range?.[0] ?? offset
    } else {
      break
    }
  }
  return offset
}
