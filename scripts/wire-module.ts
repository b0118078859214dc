// The text of src/api/wire.ts, generated from the contract: each entry without its schemas or
// prose (method, path, security, 401 reason, whether answered before the body reader, query
// names, body, stream event), so that the client, and so every CLI command, loads no zod, and the
// sandbox's start no answer schema. `npm run api:wire` writes it; test/unit/contract.test.ts
// fails when the checked-in file differs from this output.
import { format, resolveConfig } from 'prettier'
import { contract } from '../src/api/contract/index.js'
import { wireOf, type Entry } from '../src/api/contract/entry.js'

export const WIRE_MODULE = new URL('../src/api/wire.ts', import.meta.url)

export async function wireModuleText(): Promise<string> {
  const wire = Object.fromEntries(
    Object.entries(contract as Record<string, Entry | Record<string, Entry>>).map(([group, node]) => [
      group,
      'operationId' in node
        ? wireOf(node as Entry)
        : Object.fromEntries(Object.entries(node as Record<string, Entry>).map(([name, entry]) => [name, wireOf(entry)])),
    ]),
  )
  const text = `// Generated from src/api/contract/ by \`npm run api:wire\` (scripts/wire-module.ts): do not edit.
// Each entry without its schemas or prose, in the contract's groups. The client sends with these
// (its types come from the contract, by import type) and the sandbox routes with them.
import type { EntryWire } from './contract/entry.js'

export const wire = ${JSON.stringify(wire)} as const satisfies Record<string, EntryWire | Record<string, EntryWire>>
`
  return format(text, { ...(await resolveConfig(WIRE_MODULE)), parser: 'typescript' })
}
