import { Flags } from '@oclif/core'
import { BaseCommand } from '../../src/cli/base-command.js'
import { UserError } from '../../src/user-error.js'
import { sandboxLogFile } from '../../src/config/paths.js'

export default class SandboxLogs extends BaseCommand<typeof SandboxLogs> {
  static override summary = 'Print the log of the sandbox started with --detach'
  static override description =
    'The log is what the detached sandbox writes to stderr (start, errors, stop), in sandbox.log of the data folder; ' +
    'each --detach start begins a new one. With -f it keeps printing what is added until the sandbox stops or Ctrl+C.'

  static override enableJsonFlag = false
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> -f']
  static override flags = {
    follow: Flags.boolean({ char: 'f', description: 'Keep printing new lines until the sandbox stops (or Ctrl+C)' }),
  }

  public async run(): Promise<void> {
    const { followLog, readLog } = await import('../../src/config/sandbox-log.js')
    const file = sandboxLogFile()
    const write = (text: string) => process.stdout.write(text)
    if (!this.flags.follow) {
      const text = readLog(file)
      if (text === undefined)
        throw new UserError(`No sandbox log in ${file}`, 'logs are kept for sandboxes started with paybox sandbox start --detach')
      write(text)
      return
    }
    const stop = new AbortController()
    const interrupt = () => stop.abort()
    process.once('SIGINT', interrupt)
    process.once('SIGTERM', interrupt)
    try {
      await followLog(file, write, stop.signal)
    } finally {
      process.off('SIGINT', interrupt)
      process.off('SIGTERM', interrupt)
    }
  }
}
