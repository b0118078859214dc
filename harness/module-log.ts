// A preload that logs every module a process loads to a file: the URL of each ES module (and of
// CommonJS ones imported from ES modules) as it loads, and require's cache at exit. For the tests
// that check what a command or a start does not load.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { temporaryDir } from './sandbox.js'

export interface ModuleLog {
  /** Pass as `--import <preload>` to the process to watch. */
  preload: string
  /** The file the process appends to, one module per line. */
  file: string
}

export function moduleLog(): ModuleLog {
  const dir = temporaryDir('paybox-modules-')
  const file = path.join(dir, 'loaded.txt')
  const hooks = `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) { appendFileSync(${JSON.stringify(file)}, url + '\\n'); return next(url, context) }`
  const preload = path.join(dir, 'log-modules.mjs')
  fs.writeFileSync(
    preload,
    `import { appendFileSync } from 'node:fs'
import { createRequire, register } from 'node:module'
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)})
process.on('exit', () => appendFileSync(${JSON.stringify(file)}, Object.keys(createRequire(import.meta.url).cache).join('\\n')))
`,
  )
  return { preload: pathToFileURL(preload).href, file }
}

/** The modules of one package among logged lines. */
export const fromPackage = (modules: string[], name: string): string[] =>
  modules.filter((module) => module.includes(`node_modules/${name}/`))
