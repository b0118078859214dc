#!/usr/bin/env node
// Runs the CLI straight from the TypeScript sources: tsx compiles them on the fly, and oclif
// is pointed at commands/index.ts instead of the built dist/commands/index.js.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { register } from 'tsx/esm/api'
import { execute, settings } from '@oclif/core'

register()
// We register tsx ourselves; oclif's own dist→source path mapping does not fit a top-level
// commands/ folder and would only print warnings.
settings.enableAutoTranspile = false

const root = fileURLToPath(new URL('..', import.meta.url))
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
pjson.oclif.commands.target = './commands/index.ts'
// Hooks too: ./dist/src/x.js is ./src/x.ts.
for (const [event, target] of Object.entries(pjson.oclif.hooks ?? {}))
  pjson.oclif.hooks[event] = target.replace(/^\.\/dist\/(.*)\.js$/, './$1.ts')

await execute({ development: true, dir: import.meta.url, loadOptions: { root, pjson } })
