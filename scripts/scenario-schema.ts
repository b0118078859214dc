// Writes scenarios/scenario.schema.json from the zod schema the loader validates with
// (npm run scenario:schema). A test fails when the checked-in file differs from this output.
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { scenarioJsonSchemaText } from '../src/scenario/schema.js'

const target = fileURLToPath(new URL('../scenarios/scenario.schema.json', import.meta.url))
fs.writeFileSync(target, scenarioJsonSchemaText())
console.log(`Wrote ${target}`)
