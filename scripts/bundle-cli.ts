// The second half of `npm run build`: bundles the compiled commands with @oclif/core into
// dist/bundle, which bin/run.js runs a named command from. oclif is ~160 CommonJS files whose
// loading (resolving, reading, wrapping each) is the largest part of a cold start; bundled, it
// is one shared chunk, and each command one more entry. Our own dependencies stay packages,
// imported from node_modules as the compiled code does (native ones such as better-sqlite3
// cannot be bundled, and the others load lazily where they are used).
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { COMMAND_FILES } from '../commands/command-files.js'

const dist = fileURLToPath(new URL('../dist/', import.meta.url))
const outdir = `${dist}bundle`

/** Bare imports of our code other than oclif's, and oclif's optional typescript, stay imports. */
const keepOurDependencies: Plugin = {
  name: 'keep-our-dependencies',
  setup(bundle) {
    bundle.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
      if (path === 'typescript') return { external: true }
      const fromOurCode = !/[\\/]node_modules[\\/]/.test(importer)
      if (fromOurCode && path !== '@oclif/core' && !path.startsWith('@oclif/core/')) return { external: true }
      return undefined
    })
  },
}

fs.rmSync(outdir, { recursive: true, force: true })
await build({
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
  plugins: [keepOurDependencies],
  logLevel: 'warning',
})
