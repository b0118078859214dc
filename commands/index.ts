// Every command of the CLI, by id, for oclif's explicit strategy (no directory scan at start-up):
// each file of COMMAND_FILES, imported at once. Command modules load heavy dependencies lazily
// inside run(), so importing them all is cheap; bin/run.js imports just the one that runs.
import type { Command } from '@oclif/core'
import { COMMAND_FILES, type CommandId } from './command-files.js'

export const COMMANDS = Object.fromEntries(
  await Promise.all(
    Object.entries(COMMAND_FILES).map(async ([id, file]) => [id, ((await import(file)) as { default: Command.Class }).default]),
  ),
) as Record<CommandId, Command.Class>
