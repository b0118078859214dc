import { Flags } from '@oclif/core'
import type { SandboxHealth } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { durationFlag } from '../../src/cli/duration-flag.js'
import { details } from '../../src/cli/output.js'

export interface SandboxWaitResult extends SandboxHealth {
  baseUrl: string
}

export default class SandboxWait extends ApiCommand<typeof SandboxWait> {
  static override summary = 'Wait until the sandbox answers its health check'
  static override description =
    'Exits 0 as soon as GET /health reports the database, the ledger and the webhook dispatcher ok; exits 1 with the last ' +
    'problem seen once the timeout passes. Without --url it asks the sandbox the CLI would talk to (flags, env, profile, ' +
    'then the local sandbox, looked up again on every try), so it can wait for one that is still starting.'

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --timeout 60s',
    '<%= config.bin %> <%= command.id %> --url http://127.0.0.1:4242 --json',
  ]

  static override flags = {
    timeout: Flags.string({ description: 'How long to keep trying', default: '30s' }),
    url: Flags.string({ description: 'Base URL of the sandbox (default: as --base-url)' }),
  }

  public async run(): Promise<SandboxWaitResult> {
    const timeoutMs = durationFlag(this.flags.timeout, 'timeout')
    const { waitForHealthy } = await import('../../src/cli/wait-for-health.js')
    const result = await waitForHealthy(() => this.flags.url ?? this.connection().baseUrl, timeoutMs)
    this.print(
      details([
        ['Ready', result.baseUrl],
        ...Object.entries(result.checks).map(([name, check]): [string, string] => [name, check.detail ?? check.status]),
      ]),
    )
    return result
  }
}
