// The second half of `npm run build`: bundles the compiled commands with @oclif/core and their
// dependencies into dist/bundle, which bin/run.js runs a named command from. oclif is ~160
// CommonJS files, and the sandbox's dependencies (express, zod, kysely, stellar-base…) hundreds
// more, whose loading (resolving, reading, wrapping each) was the largest part of a cold start
// and of `sandbox start`; bundled, shared code is a few chunks, and each command one more entry.
// What loads lazily stays lazy: a dynamic import becomes a chunk of its own.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { cacheFileOf } from '../src/cli/cached-bundle.js'
import { COMMAND_FILES } from '../commands/command-files.js'

const dist = fileURLToPath(new URL('../dist/', import.meta.url))
const outdir = `${dist}bundle`

/**
 * Packages that stay imports: native ones (better-sqlite3 loads a compiled .node file); oclif's
 * optional typescript; what only human output and prompts load (test/cli/built-cli.test.ts
 * checks, package by package, that --json loads none of them); undici, loaded with the first
 * webhook only, whose exports esbuild's CommonJS wrapping loses; and base32.js, which calls the
 * deprecated Buffer() that Node forgives only from inside node_modules.
 */
const UNBUNDLED = new Set([
  'better-sqlite3',
  'typescript',
  'chalk',
  'cli-table3',
  'qrcode-terminal',
  '@inquirer/prompts',
  'undici',
  'base32.js',
])
const keepUnbundled = (packages: ReadonlySet<string>): Plugin => ({
  name: 'keep-unbundled',
  setup(bundle) {
    bundle.onResolve({ filter: /^[^./]/ }, ({ path }) => (packages.has(path) ? { external: true } : undefined))
  },
})

/**
 * zod's namespace re-exports its ~40 message locales (z.locales), so a bundle keeps them all:
 * code that every process compiles and none uses (English is the default, and nothing here
 * sets another). Only English stays.
 */
const englishZodOnly: Plugin = {
  name: 'english-zod-only',
  setup(bundle) {
    bundle.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(importer)
        ? { path: path.join(path.dirname(importer), '../locales/en.js'), namespace: 'zod-locales' }
        : undefined,
    )
    bundle.onLoad({ filter: /.*/, namespace: 'zod-locales' }, ({ path: en }) => ({
      contents: `export { default as en } from ${JSON.stringify(en)}`,
      resolveDir: path.dirname(en),
    }))
  },
}

/**
 * A package's JSON (mime-db's types, iconv-lite's code pages) as JSON.parse of a
 * string rather than an object literal: V8 scans a string and parses JSON far faster than it
 * compiles and runs a literal of that size.
 */
const jsonAsJsonParse: Plugin = {
  name: 'json-as-json-parse',
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]node_modules[\\/].*\.json$/ }, ({ path: file }) => ({
      contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(fs.readFileSync(file, 'utf8'))))})`,
      loader: 'js',
    }))
  },
}

/**
 * A CommonJS package its dependents reach only through calls made while serving, behind a facade
 * that loads it at the first: mime-types scores all of mime-db into its extension maps when
 * loaded, about 10 ms of `sandbox start` that only a response's content type needs. The facade
 * has the package's exports, each function calling the package's own, each value a getter.
 */
const loadedAtFirstUse = (packages: ReadonlySet<string>): Plugin => ({
  name: 'loaded-at-first-use',
  setup(bundle) {
    const require = createRequire(import.meta.url)
    bundle.onResolve({ filter: /^[^./]/ }, ({ path: name }) => (packages.has(name) ? { path: name, namespace: 'facade' } : undefined))
    bundle.onLoad({ filter: /.*/, namespace: 'facade' }, ({ path: name }) => {
      const file = require.resolve(name)
      const members = Object.entries(require(name) as Record<string, unknown>).map(([key, value]) =>
        typeof value === 'function'
          ? `${JSON.stringify(key)}: (...args) => loaded()[${JSON.stringify(key)}](...args)`
          : `get ${JSON.stringify(key)}() { return loaded()[${JSON.stringify(key)}] }`,
      )
      return {
        contents: `let real\nconst loaded = () => (real ??= require(${JSON.stringify(file)}))\nmodule.exports = { ${members.join(', ')} }`,
        resolveDir: path.dirname(file),
      }
    })
  },
})

fs.rmSync(outdir, { recursive: true, force: true })
const { metafile } = await build({
  entryPoints: [
    `${dist}src/cli/run-command.js`,
    `${dist}commands/command-files.js`,
    ...Object.values(COMMAND_FILES).map((file) => `${dist}commands/${file.slice('./'.length)}`),
  ],
  outbase: dist,
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Bundled CommonJS (oclif and its dependencies) requires Node's built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [keepUnbundled(UNBUNDLED), englishZodOnly, jsonAsJsonParse],
  logLevel: 'warning',
  metafile: true,
})

/**
 * `sandbox start` once more, as one CommonJS file that bin/run.js runs with a V8 code cache
 * (src/cli/cached-bundle.ts). No dynamic import(): V8 drops a script's import() callback when it
 * deserializes the script from a cache. So ESM-only packages are bundled too.
 */
const SANDBOX_START = `${outdir}/sandbox-start.cjs`
/** Besides those, CommonJS packages a start does not run (PostgreSQL's driver, the QR code) or runs little of (iconv-lite's code pages): V8 keeps a script's whole source. */
const START_UNBUNDLED = new Set(['better-sqlite3', 'typescript', 'undici', 'base32.js', 'pg', 'qrcode', 'iconv-lite'])
/** Bundled, but loaded at first use (loadedAtFirstUse). */
const START_AT_FIRST_USE = new Set(['mime-types'])
const { metafile: startMetafile } = await build({
  stdin: {
    contents: [
      "export { executeNamedCommand } from './src/cli/run-command.js'",
      "export { default as command } from './commands/sandbox/start.js'",
      "export { afterServing } from './src/cli/sandbox-runner.js'",
    ].join('\n'),
    resolveDir: dist,
    sourcefile: 'sandbox-start-entry.js',
  },
  outfile: SANDBOX_START,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [keepUnbundled(START_UNBUNDLED), loadedAtFirstUse(START_AT_FIRST_USE), englishZodOnly, jsonAsJsonParse],
  logLevel: 'warning',
  metafile: true,
})

// The WAL checkpoint worker is a file of its own (new Worker(new URL('./wal-checkpointer.js',
// import.meta.url))): it goes beside whichever output holds the database code that starts it.
const WORKER = 'sandbox/db/wal-checkpointer.js'
const holders = [...Object.entries(metafile.outputs), ...Object.entries(startMetafile.outputs)].filter(([, output]) =>
  Object.keys(output.inputs).some((input) => input.endsWith('sandbox/db/database.js')),
)
if (holders.length === 0) throw new Error('No bundled output holds sandbox/db/database.js: where does the checkpoint worker go?')
for (const [output] of holders) fs.copyFileSync(`${dist}${WORKER}`, path.join(path.dirname(output), 'wal-checkpointer.js'))

/**
 * Makes the code cache the way a user's first start would: one start on a new database, until
 * the cache is written (once the banner is out). A package built here ships with it; a Node whose
 * V8 refuses it gets a new one from its own first start.
 */
async function primeCodeCache(): Promise<void> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'paybox-build-'))
  const cache = cacheFileOf(SANDBOX_START)
  fs.rmSync(cache, { force: true })
  const child = spawn(
    process.execPath,
    [`${dist}../bin/run.js`, 'sandbox', 'start', '--port', '0', '--db', path.join(home, 'sandbox.db'), '--json', '--quiet'],
    {
      env: { ...process.env, PAYBOX_HOME: home, PAYBOX_CONFIG_DIR: path.join(home, 'config') },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  try {
    const deadline = Date.now() + 60_000
    while (!fs.existsSync(cache)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`sandbox start wrote no code cache:\n${stderr}`)
      await delay(20)
    }
  } finally {
    child.kill('SIGTERM')
    await exited
    fs.rmSync(home, { recursive: true, force: true })
  }
}
await primeCodeCache()
