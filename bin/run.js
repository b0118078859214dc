#!/usr/bin/env node
// The installed entry point: runs the compiled commands in dist/. Two shortcuts for cold start,
// each doing what oclif would:
// - `paybox --version` is answered without loading oclif (its import and config):
//   the same line oclif prints, name/version platform-arch node-version;
// - a command line that names a command imports that command's module only, not all of them
//   through dist/commands/index.js, and runs it as oclif's execute() does. The module comes from
//   dist/bundle (npm run build bundles oclif with each command: a few files instead of ~160)
//   unless a compile since has left the bundle behind; `sandbox start` comes from a CommonJS
//   bundle of its own, with a code cache. Help, topics, and anything that does not name a
//   command exactly go to oclif as they are.
// A clone that was never built (no dist/) runs from the sources instead, as bin/dev.js does, so
// `npx paybox` works right after `npm ci` without making every install pay for a build.
import { existsSync, readFileSync, statSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'

const argv = process.argv.slice(2)
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

if (argv.length === 1 && argv[0] === '--version') {
  // As oclif names them: WSL apart from Linux, ia32 as x86.
  const platform = process.platform === 'linux' && os.release().toLowerCase().includes('microsoft') ? 'wsl' : process.platform
  const arch = os.arch() === 'ia32' ? 'x86' : os.arch()
  process.stdout.write(`${pjson.name}/${pjson.version} ${platform}-${arch} node-${process.version}\n`)
} else if (!existsSync(new URL('../dist/commands/command-files.js', import.meta.url))) {
  if (canRunSources()) await import('./dev.js')
  else {
    process.stderr.write('paybox is not built (no dist/) and cannot run its sources without tsx: run npm ci, or npm run build\n')
    process.exitCode = 1
  }
} else {
  const startsSandbox = argv[0] === 'sandbox:start' || (argv[0] === 'sandbox' && argv[1] === 'start')
  // Help goes to oclif as it is.
  const help = asksForHelp(argv)
  const current = bundleIsCurrent()
  const dist = new URL(current ? '../dist/bundle/' : '../dist/', import.meta.url)
  const cached = startsSandbox && current && !help ? await compileSandboxStart() : undefined
  // `sandbox start` holds V8's young generation back until it serves (src/cli/young-generation.ts),
  // from after compiling its cached bundle: V8 refuses a cache read under other flags than its own.
  if (startsSandbox) {
    const { holdYoungGeneration } = await import(new URL('../dist/src/cli/young-generation.js', import.meta.url).href)
    holdYoungGeneration()
  }
  const named = help ? undefined : cached ? sandboxStartFrom(cached, argv) : await commandNamedBy(argv, dist)
  if (named && oclifTakesSameId(named)) {
    const { executeNamedCommand } = named.execute
      ? { executeNamedCommand: named.execute }
      : await import(new URL('src/cli/run-command.js', dist).href)
    await executeNamedCommand(fileURLToPath(new URL('..', import.meta.url)), pjson, named)
  } else {
    const oclif = await import('@oclif/core')
    await oclif.execute({ dir: import.meta.url })
  }
}

/** tsx, a development dependency, is what runs the sources: a clone has it after `npm ci`. */
function canRunSources() {
  try {
    import.meta.resolve('tsx/esm/api')
    return true
  } catch {
    return false
  }
}

/** A bundle at least as new as the compiled commands it was made from (tsc rewrites them all). */
function bundleIsCurrent() {
  const modified = (file) => statSync(new URL(file, import.meta.url), { throwIfNoEntry: false })?.mtimeMs
  const bundled = modified('../dist/bundle/src/cli/run-command.js')
  return bundled !== undefined && bundled >= (modified('../dist/commands/command-files.js') ?? Infinity)
}

/**
 * The command whose id the leading words of argv spell (`payments get …` → payments:get), imported,
 * and the rest of argv; undefined for help, a topic, or a line that names no command.
 */
async function commandNamedBy(argv, dist) {
  const { COMMAND_FILES } = await import(new URL('commands/command-files.js', dist).href)
  let words = 1
  if ((pjson.oclif.topicSeparator ?? ':') !== ':' && !argv[0]?.includes(':')) {
    // As oclif's normalizeArgv: the longest run of words that is a command id or a topic of one.
    const usable = new Set(Object.keys(COMMAND_FILES).flatMap((id) => id.split(':').map((_, i, parts) => parts.slice(0, i + 1).join(':'))))
    words = 0
    while (words < argv.length && usable.has(argv.slice(0, words + 1).join(':'))) words += 1
  }
  const id = argv.slice(0, words).join(':')
  if (!Object.hasOwn(COMMAND_FILES, id)) return undefined
  const { default: command } = await import(new URL(`commands/${COMMAND_FILES[id]}`, dist).href)
  return { id, command, argv: argv.slice(words) }
}

function asksForHelp(argv) {
  const helpFlags = new Set(['--help', ...(pjson.oclif.additionalHelpFlags ?? [])])
  for (const arg of argv) {
    if (arg === '--') break
    if (helpFlags.has(arg)) return true
  }
  return false
}

/**
 * `sandbox start`'s CommonJS bundle, compiled with its V8 code cache (src/cli/cached-bundle.ts);
 * undefined without the bundle.
 */
async function compileSandboxStart() {
  const bundle = fileURLToPath(new URL('../dist/bundle/sandbox-start.cjs', import.meta.url))
  if (!existsSync(bundle)) return undefined
  const { compileCachedBundle } = await import(new URL('../dist/src/cli/cached-bundle.js', import.meta.url).href)
  return compileCachedBundle(bundle)
}

/** Runs the compiled bundle; the cache is saved once the sandbox serves, if it had none V8 took. */
function sandboxStartFrom(cached, argv) {
  const { command, executeNamedCommand, afterServing } = cached.run()
  afterServing(cached.saveCache)
  return { id: 'sandbox:start', command, argv: argv.slice(argv[0] === 'sandbox' ? 2 : 1), execute: executeNamedCommand }
}

/**
 * oclif reads on after the id while the next word is neither a flag nor `name=value` and the
 * command takes no arguments (and then finds no such command): leave those lines to it.
 */
function oclifTakesSameId({ command, argv }) {
  const next = argv[0]
  if (next === undefined || next.startsWith('-') || next.includes('=')) return true
  return command.strict === false || Object.keys(command.args ?? {}).length > 0
}
