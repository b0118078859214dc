// Runs a CommonJS bundle (`sandbox start`'s, scripts/bundle-cli.ts) with a V8 code cache beside
// it, so a start deserializes the functions an earlier start compiled instead of compiling them
// again. Node 20 takes cached data only for scripts: ES modules get none before Node 22's
// module.enableCompileCache(). docs/performance.md has the figures.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import vm from 'node:vm'

export interface CachedBundle<Exports> {
  /** Runs the bundle's top level once; its exports. */
  run(): Exports
  /** Whether V8 used the cache (false: none yet, from another bundle, or V8 refused it). */
  cacheUsed: boolean
  /** Writes the cache from what has been compiled so far, unless the one used is still good. */
  saveCache(): void
}

/** The file beside `bundle` that holds its cache. */
export const cacheFileOf = (bundle: string) => `${bundle}.cache`

/**
 * V8 checks its own version, its flags and the source's length, not the source itself: the cache
 * starts with the SHA-256 of the bundle it was made from, and a cache for another is not offered.
 * Not the file's date: npm gives every file of a package the same one.
 */
const identityOf = (bundle: Buffer): string => createHash('sha256').update(bundle).digest('hex')

function readCache(file: string, identity: string): Buffer | undefined {
  let contents: Buffer
  try {
    contents = fs.readFileSync(file)
  } catch {
    return undefined
  }
  const newline = contents.indexOf(10)
  if (newline < 0 || contents.toString('utf8', 0, newline) !== identity) return undefined
  return contents.subarray(newline + 1)
}

/**
 * Compiles `bundle`, from its cache when V8 takes it. V8 checks its flags when it reads a cache:
 * change them (the young-generation hold) only after this, and save once they are back.
 */
export function compileCachedBundle<Exports>(bundle: string): CachedBundle<Exports> {
  // Hashed as read and decoded once: hashing the text encoded it to UTF-8 again, about 10 ms of a
  // start. The bytes are garbage from here; the full collection once serving (young-generation.ts) frees them.
  const bytes = fs.readFileSync(bundle)
  const identity = identityOf(bytes)
  const text = bytes.toString('utf8')
  const cacheFile = cacheFileOf(bundle)
  const cachedData = readCache(cacheFile, identity)
  // The wrapper Node gives a CommonJS module; the bundle has no dynamic import() (bundle-cli.ts).
  const source = `(function (exports, require, module, __filename, __dirname) {${text}\n})`
  const script = new vm.Script(source, { filename: bundle, cachedData })
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected
  return {
    cacheUsed,
    run() {
      const module = { exports: {} as Exports }
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void
      wrapper(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle))
      return module.exports
    },
    saveCache() {
      if (cacheUsed) return
      // Whole or not at all: another start may be reading it. A read-only install keeps compiling.
      const partial = `${cacheFile}.${process.pid}.tmp`
      try {
        fs.writeFileSync(partial, Buffer.concat([Buffer.from(`${identity}\n`), script.createCachedData()]))
        fs.renameSync(partial, cacheFile)
      } catch {
        fs.rmSync(partial, { force: true })
      }
    },
  }
}
