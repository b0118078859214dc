// oclif's execute() for a command bin/run.js already found, without the command list (which imports
// every command module). Imported from the bundle beside the command, so both use one oclif.
import type { Command, Interfaces } from '@oclif/core'
// By subpath, not oclif's index: `sandbox start`'s bundle then runs none of its help and ux modules.
import { Config } from '@oclif/core/config'
import { flush } from '@oclif/core/flush'
import { handle } from '@oclif/core/handle'
import { Performance } from '@oclif/core/performance'

export interface NamedCommand {
  id: string
  command: Command.Class
  /** argv after the words of the id. */
  argv: string[]
}

/** Runs the command as execute() would: then flush stdout, or print the error and set the exit code. */
export async function executeNamedCommand(root: string, pjson: Interfaces.PJSON, named: NamedCommand): Promise<void> {
  await runNamedCommand(root, pjson, named)
    .then(() => {
      void flush()
    })
    .catch(handle)
}

/** As oclif's run() from there: init hook, prerun, run, postrun, then the finally hook. */
async function runNamedCommand(root: string, pjson: Interfaces.PJSON, { id, command, argv }: NamedCommand): Promise<unknown> {
  // Without plugins: a command named here is always one of ours (plugins add only autocomplete).
  const config = await Config.load({ root, pjson: { ...pjson, oclif: { ...pjson.oclif, commands: undefined, plugins: undefined } } })
  // As oclif's findCommand() leaves a command class it found.
  Object.assign(command, { id, plugin: config.plugins.get(config.name) })
  // runCommand reads only these of a found command (and load()).
  const loadable = { id, pluginName: config.name, load: async () => command } as unknown as Command.Loadable
  let error: Error | undefined
  try {
    await config.runHook('init', { argv, id })
    return await config.runCommand(id, argv, loadable)
  } catch (caught) {
    error = caught as Error
    throw caught
  } finally {
    await Performance.collect()
    Performance.debug()
    await config.runHook('finally', { argv, Command: loadable, error, id })
  }
}
