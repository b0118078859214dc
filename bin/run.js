#!/usr/bin/env node
// The installed entry point: runs the compiled commands in dist/. Two shortcuts for cold start,
// each doing what oclif would:
// - `paybox --version` is answered without loading oclif (about 60 ms of import and config):
//   the same line oclif prints, name/version platform-arch node-version;
// - a command line that names a command imports that command's module only, not all of them
//   through dist/commands/index.js, and runs it as oclif's run() does. Help, topics, and
//   anything that does not name a command exactly go to oclif as they are.
import { readFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'

const argv = process.argv.slice(2)
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

if (argv.length === 1 && argv[0] === '--version') {
  // As oclif names them: WSL apart from Linux, ia32 as x86.
  const platform = process.platform === 'linux' && os.release().toLowerCase().includes('microsoft') ? 'wsl' : process.platform
  const arch = os.arch() === 'ia32' ? 'x86' : os.arch()
  process.stdout.write(`${pjson.name}/${pjson.version} ${platform}-${arch} node-${process.version}\n`)
} else {
  const [named, oclif] = await Promise.all([commandNamedBy(argv), import('@oclif/core')])
  if (named && oclifTakesSameId(named)) {
    // As oclif's execute(): flush stdout, and turn any error into its message and exit code.
    await runNamedCommand(oclif, named)
      .then(async (result) => {
        oclif.flush()
        return result
      })
      .catch(oclif.handle)
  } else {
    await oclif.execute({ dir: import.meta.url })
  }
}

/**
 * The command whose id the leading words of argv spell (`payments get …` → payments:get), imported,
 * and the rest of argv; undefined for help, a topic, or a line that names no command.
 */
async function commandNamedBy(argv) {
  const helpFlags = new Set(['--help', ...(pjson.oclif.additionalHelpFlags ?? [])])
  for (const arg of argv) {
    if (arg === '--') break
    if (helpFlags.has(arg)) return undefined
  }
  const { COMMAND_FILES } = await import('../dist/commands/command-files.js')
  let words = 1
  if ((pjson.oclif.topicSeparator ?? ':') !== ':' && !argv[0]?.includes(':')) {
    // As oclif's normalizeArgv: the longest run of words that is a command id or a topic of one.
    const usable = new Set(Object.keys(COMMAND_FILES).flatMap((id) => id.split(':').map((_, i, parts) => parts.slice(0, i + 1).join(':'))))
    words = 0
    while (words < argv.length && usable.has(argv.slice(0, words + 1).join(':'))) words += 1
  }
  const id = argv.slice(0, words).join(':')
  if (!Object.hasOwn(COMMAND_FILES, id)) return undefined
  const { default: command } = await import(new URL(`../dist/commands/${COMMAND_FILES[id]}`, import.meta.url).href)
  return { id, command, argv: argv.slice(words) }
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

/** What oclif's run() does once it has found the command: init hook, prerun, run, postrun, finally. */
async function runNamedCommand({ Config, Performance }, { id, command, argv }) {
  // oclif's Config without the command list, which only help and finding a command need, and
  // which would import every command module.
  const root = fileURLToPath(new URL('..', import.meta.url))
  const config = await Config.load({ root, pjson: { ...pjson, oclif: { ...pjson.oclif, commands: undefined } } })
  // As oclif's findCommand() leaves a command class it found.
  Object.assign(command, { id, plugin: config.rootPlugin })
  let error
  try {
    await config.runHook('init', { argv, id })
    return await config.runCommand(id, argv, { id, pluginName: config.name, load: async () => command })
  } catch (caught) {
    error = caught
    throw caught
  } finally {
    await Performance.collect()
    Performance.debug()
    await config.runHook('finally', { argv, Command: command, error, id })
  }
}
