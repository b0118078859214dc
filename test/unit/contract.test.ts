// The contract (src/api/contract/) is the one place an endpoint is declared: what is derived from
// it must exist for every entry, and nothing derived may hold an endpoint the contract lacks.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { ENTRIES, NAMED_ENTRIES } from '../../src/api/contract/index.js'
import type { Entry } from '../../src/api/contract/entry.js'
import * as examples from '../../src/api/examples.js'
import * as resources from '../../src/api/resources.js'
import { wire } from '../../src/api/wire.js'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { buildOpenApiDocument, toOpenApiPath } from '../../sandbox/openapi/openapi-document.js'
import { ROUTES } from '../../sandbox/openapi/operations.js'
import { WIRE_MODULE, wireModuleText } from '../../scripts/wire-module.js'
import { ROOT } from '../../harness/cli.js'
import { fromPackage, moduleLog } from '../../harness/module-log.js'

/** Every schema a schema is built from (its fields, items, options, inner types). */
function partsOf(schema: z.ZodType): Set<unknown> {
  const parts = new Set<unknown>()
  const walk = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || parts.has(value)) return
    if (value instanceof z.ZodType) parts.add(value)
    for (const child of Object.values(value instanceof z.ZodType ? value._zod.def : value)) walk(child)
  }
  walk(schema._zod.def)
  return parts
}

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- walks the OpenAPI JSON

describe('the contract', () => {
  it('src/api/wire.ts is what npm run api:wire generates from it', async () => {
    expect(fs.readFileSync(WIRE_MODULE, 'utf8')).toBe(await wireModuleText())
  })

  it('gives the client a method for every entry, and the client no method without one', () => {
    const client = new PayboxClient({ baseUrl: 'http://127.0.0.1:1' }) as unknown as Record<string, unknown>
    const methodAt = (name: string) => name.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], client)
    for (const { name } of NAMED_ENTRIES) expect(typeof methodAt(name), name).toBe('function')
    const wireNames = Object.entries(wire).flatMap(([group, node]) =>
      'operationId' in node ? [group] : Object.keys(node).map((name) => `${group}.${name}`),
    )
    expect(wireNames).toEqual(NAMED_ENTRIES.map(({ name }) => name))
  })

  it('has one operation id per entry, and each entry is a route and an operation of the OpenAPI document', () => {
    const ids = ENTRIES.map((entry) => entry.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    const document = buildOpenApiDocument({ serverUrl: 'http://127.0.0.1:1' }) as Json
    for (const entry of ENTRIES) {
      expect(document.paths[toOpenApiPath(entry.path)]?.[entry.method]?.operationId, entry.operationId).toBe(entry.operationId)
    }
    expect(ROUTES.filter((route) => ids.includes(route.operationId))).toHaveLength(ids.length)
  })

  it("declares each endpoint's own schemas and examples in its resource's file, beside its entry", async () => {
    // A schema only the entries of one resource's file take or answer with, and that no schema of
    // another file is built from, is that file's own, and so is its example; one that several files
    // use (a payment, the clock bodies) lives in a shared module. index.ts only puts the files together.
    const folder = path.join(ROOT, 'src', 'api', 'contract')
    const files = [
      ...(await Promise.all(
        fs
          .readdirSync(folder)
          .filter((file) => file !== 'index.ts')
          .map(async (file) => ({ file, exports: Object.values(await import(pathToFileURL(path.join(folder, file)).href)) })),
      )),
      { file: 'resources.ts', exports: Object.values(resources) },
    ]
    const isEntry = (value: unknown): value is Entry => typeof (value as Entry | undefined)?.operationId === 'string'
    const fileOf = new Map<Entry, string>()
    for (const { file, exports } of files)
      for (const value of exports)
        for (const entry of isEntry(value) ? [value] : Object.values(value ?? {}).filter(isEntry)) fileOf.set(entry, file)
    expect(ENTRIES.filter((entry) => !fileOf.has(entry)).map((entry) => entry.operationId)).toEqual([])

    const schemasOf = (entry: Entry) =>
      [entry.body, entry.query, entry.response, entry.stream?.data, ...(entry.otherAnswers ?? []).map((other) => other.response)].filter(
        (schema) => schema !== undefined,
      )
    const built = files.flatMap(({ file, exports }) =>
      exports.filter((value): value is z.ZodType => value instanceof z.ZodType).map((schema) => ({ file, schema, parts: partsOf(schema) })),
    )
    const sharedExamples: unknown[] = Object.values(examples)
    const misplaced = [...new Set(ENTRIES.flatMap(schemasOf))].flatMap((schema) => {
      const takers = ENTRIES.filter((entry) => schemasOf(entry).includes(schema))
      const users = new Set([
        ...takers.map((entry) => fileOf.get(entry)!),
        ...built.filter((other) => other.schema !== schema && other.parts.has(schema)).map((other) => other.file),
      ])
      if (users.size !== 1) return []
      const [file] = users as Set<string>
      const named = `${takers.map((entry) => entry.operationId).join(', ')}: its ${takers[0]!.body === schema ? 'body' : takers[0]!.query === schema ? 'query' : 'answer'}`
      return [
        ...(files.find((module) => module.file === file)!.exports.includes(schema) ? [] : [`${named} is not declared in ${file}`]),
        ...(sharedExamples.includes(z.globalRegistry.get(schema)?.example) ? [`${named}'s example is in examples.ts, not ${file}`] : []),
      ]
    })
    expect(misplaced).toEqual([])
  })

  it('names the reason of its 401s wherever it takes digest auth', () => {
    for (const entry of ENTRIES.filter((entry) => entry.security === 'digest' || entry.security === 'optional-digest'))
      expect(entry.authReason, entry.operationId).toBeDefined()
  })

  it("carries, on each answer's schema, an example that parses with it", () => {
    for (const entry of ENTRIES) {
      for (const schema of [entry.response, entry.stream?.data, ...(entry.otherAnswers ?? []).map((other) => other.response)]) {
        if (!schema) continue
        const example: unknown = z.globalRegistry.get(schema)?.example
        expect(example, `${entry.operationId}: no example`).toBeDefined()
        expect(schema.safeParse(example).success, `${entry.operationId}: its example does not parse`).toBe(true)
      }
    }
  })

  it('lets the client, and so a CLI command, load no zod', () => {
    const log = moduleLog()
    const client = pathToFileURL(path.join(ROOT, 'src', 'client', 'paybox-client.ts')).href
    const script = `const { PayboxClient } = await import(${JSON.stringify(client)}); new PayboxClient({ baseUrl: 'http://127.0.0.1:1' })`
    execFileSync(process.execPath, ['--import', 'tsx', '--import', log.preload, '--input-type=module', '-e', script], { cwd: ROOT })
    const modules = fs.readFileSync(log.file, 'utf8').split('\n')
    expect(modules.some((module) => module.endsWith('/src/api/wire.ts'))).toBe(true)
    expect(fromPackage(modules, 'zod')).toEqual([])
  })
})
