import { Flags } from '@oclif/core'
import { BaseCommand } from '../../src/cli/base-command.js'
import { durationFlag } from '../../src/cli/duration-flag.js'
import { stopSandboxProcess, type StoppedSandbox } from '../../src/config/sandbox-process.js'

export default class SandboxStop extends BaseCommand<typeof SandboxStop> {
  static override summary = 'Stop the sandbox started from this data folder (e.g. with --detach)'
  static override description =
    'Sends SIGTERM to the process in the pid file of the data folder (~/.paybox, or PAYBOX_HOME) and waits until it has ' +
    'finished its in-flight requests, closed the database and exited. Fails if none runs.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --timeout 30s --json']
  static override flags = {
    timeout: Flags.string({ description: 'How long to wait for it to exit', default: '15s' }),
  }

  public async run(): Promise<StoppedSandbox> {
    const stopped = await stopSandboxProcess(durationFlag(this.flags.timeout, 'timeout'))
    this.print(`Stopped the sandbox (pid ${stopped.pid}${stopped.baseUrl ? `, ${stopped.baseUrl}` : ''})`)
    return stopped
  }
}
