// `sandbox start` runs from a CommonJS bundle with a V8 code cache beside it
// (src/cli/cached-bundle.ts): a cache is used only for the bundle it was made from, a bad one is
// ignored, and what runs is always the bundle's code. Each run is a process of its own, as each
// start is: within one process V8 would reuse its in-memory compilation instead of the file.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cacheFileOf } from '../../src/cli/cached-bundle.js'
import { ROOT } from '../../harness/cli.js'
import { temporaryDir } from '../../harness/sandbox.js'

const MODULE = pathToFileURL(path.join(ROOT, 'src', 'cli', 'cached-bundle.ts')).href

function writeBundle(file: string, answer: number, mtime: Date): void {
  fs.writeFileSync(file, `module.exports = { answer: ${answer}, dir: __dirname, require: typeof require }\n`)
  fs.utimesSync(file, mtime, mtime)
}

/** Compiles and runs `bundle` in a new process, then saves its cache: what V8 used, and what the bundle exported. */
function start(bundle: string): { cacheUsed: boolean; exports: unknown } {
  const script = `const { compileCachedBundle } = await import(${JSON.stringify(MODULE)})
const bundle = compileCachedBundle(${JSON.stringify(bundle)})
const exports = bundle.run()
bundle.saveCache()
console.log(JSON.stringify({ cacheUsed: bundle.cacheUsed, exports }))`
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })
  return JSON.parse(out) as { cacheUsed: boolean; exports: unknown }
}

describe('a bundle run with a code cache', () => {
  it('compiles without one, saves one, and uses it on the next start', () => {
    const bundle = path.join(temporaryDir('paybox-cache-'), 'bundle.cjs')
    writeBundle(bundle, 1, new Date(1_000_000))
    expect(start(bundle)).toEqual({ cacheUsed: false, exports: { answer: 1, dir: path.dirname(bundle), require: 'function' } })
    const saved = fs.statSync(cacheFileOf(bundle)).mtimeMs
    expect(start(bundle)).toMatchObject({ cacheUsed: true, exports: { answer: 1 } })
    // A cache that served is left as it is.
    expect(fs.statSync(cacheFileOf(bundle)).mtimeMs).toBe(saved)
  })

  it("never runs another bundle's cached code, even one of the same length and date", () => {
    const bundle = path.join(temporaryDir('paybox-cache-'), 'bundle.cjs')
    writeBundle(bundle, 1, new Date(1_000_000))
    start(bundle)
    writeBundle(bundle, 2, new Date(1_000_000))
    expect(start(bundle)).toMatchObject({ cacheUsed: false, exports: { answer: 2 } })
    expect(start(bundle)).toMatchObject({ cacheUsed: true, exports: { answer: 2 } })
  })

  it('uses the cache of the same bundle whatever its date, as a package installed by npm has', () => {
    const bundle = path.join(temporaryDir('paybox-cache-'), 'bundle.cjs')
    writeBundle(bundle, 4, new Date(1_000_000))
    start(bundle)
    // npm gives every file of a package the date 1985-10-26.
    const packed = new Date('1985-10-26T08:15:00Z')
    fs.utimesSync(bundle, packed, packed)
    expect(start(bundle)).toMatchObject({ cacheUsed: true, exports: { answer: 4 } })
  })

  it('ignores a damaged cache and replaces it', () => {
    const bundle = path.join(temporaryDir('paybox-cache-'), 'bundle.cjs')
    writeBundle(bundle, 3, new Date(1_000_000))
    start(bundle)
    const cache = fs.readFileSync(cacheFileOf(bundle))
    const identity = cache.subarray(0, cache.indexOf(10) + 1)
    fs.writeFileSync(cacheFileOf(bundle), Buffer.concat([identity, Buffer.alloc(cache.length - identity.length, 0xff)]))
    expect(start(bundle)).toMatchObject({ cacheUsed: false, exports: { answer: 3 } })
    expect(start(bundle)).toMatchObject({ cacheUsed: true, exports: { answer: 3 } })
  })
})
