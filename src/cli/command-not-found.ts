// oclif's command_not_found hook: one line in the words the user typed, with the nearest command,
// and exit 1. It never prompts (@oclif/plugin-not-found asks on a terminal).
import type { Hook } from '@oclif/core'
import { nearestCommand } from './did-you-mean.js'

const hook: Hook.CommandNotFound = async function ({ id, config }) {
  const spoken = (commandId: string): string => commandId.replaceAll(':', config.topicSeparator)
  // Topics too: `paybox paymnts` means the payments topic, whose help lists its commands.
  const visible = [
    ...config.commands.filter((command) => !command.hidden).map((command) => command.id),
    ...config.topics.filter((topic) => !topic.hidden).map((topic) => topic.name),
  ]
  const { typed, match } = nearestCommand(id, visible)
  const hint = match === undefined ? ` (see ${config.bin} --help for the commands)` : `. Did you mean ${config.bin} ${spoken(match)}?`
  process.stderr.write(`Error: Unknown command "${spoken(typed)}"${hint}\n`)
  process.exitCode = 1
}

export default hook
