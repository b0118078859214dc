// The text of src/api/wire.ts, generated from the contract: the wire of each entry (method, path,
// security, whether it takes a body or query, its stream's event name) without its schemas, so
// the client, and so every CLI command, loads no zod. `npm run api:wire` writes it; a test fails
// when the checked-in file differs from this output.
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
// Each endpoint's wire without its schemas, in the contract's groups: the client sends with these
// and takes its types from the contract (import type), so a CLI command loads no zod.
import type { EntryWire } from './contract/entry.js'

export const wire = ${JSON.stringify(wire)} as const satisfies Record<string, EntryWire | Record<string, EntryWire>>
`
  return format(text, { ...(await resolveConfig(WIRE_MODULE)), parser: 'typescript' })
}
