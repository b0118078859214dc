// Writes src/api/wire.ts from the contract (npm run api:wire).
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { WIRE_MODULE, wireModuleText } from './wire-module.js'

fs.writeFileSync(WIRE_MODULE, await wireModuleText())
console.log(`Wrote ${fileURLToPath(WIRE_MODULE)}`)
