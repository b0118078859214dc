// The contract (src/api/contract/) is the one place an endpoint is declared: what is derived from
// it must exist for every entry, and nothing derived may hold an endpoint the contract lacks.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { ENTRIES, NAMED_ENTRIES } from '../../src/api/contract/index.js'
import { wire } from '../../src/api/wire.js'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { buildOpenApiDocument, toOpenApiPath } from '../../sandbox/openapi/openapi-document.js'
import { ROUTES } from '../../sandbox/openapi/operations.js'
import { WIRE_MODULE, wireModuleText } from '../../scripts/wire-module.js'
import { ROOT } from '../../harness/cli.js'
import { fromPackage, moduleLog } from '../../harness/module-log.js'

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
