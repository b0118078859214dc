import { Flags } from '@oclif/core'
import { ApiCommand } from '../../src/cli/base-command.js'
import { followStream, jsonLine, streamNotice, untilStopped } from '../../src/cli/live-stream.js'
import { requestLine } from '../../src/cli/render/request-logs.js'

export default class LogsTail extends ApiCommand<typeof LogsTail> {
  static override summary = 'Print each API request as the sandbox answers it, until Ctrl+C'
  static override description =
    'One line per request: time, method, path, status, duration, merchant, idempotency key and request id (the Request-Id ' +
    "header, and requestId in error bodies). The merchant's own requests; with --all (needs the admin token) every request, " +
    'public and admin ones too. With --json, one JSON object per line. Reconnects by itself if the stream drops.'

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --status 4xx --path /payments',
    '<%= config.bin %> <%= command.id %> --all --json | jq .requestId',
  ]

  static override flags = {
    status: Flags.string({ description: 'Only this status class (2xx, 4xx, 5xx…) or status (404)' }),
    path: Flags.string({ description: 'Only paths under this one (/payments: /payments and /payments/…)' }),
    all: Flags.boolean({ description: "Every merchant's requests and unauthenticated ones (needs the admin token)" }),
  }

  public async run(): Promise<void> {
    const { status, path, all } = this.flags
    if (status !== undefined && !/^[1-5](xx|\d\d)$/.test(status))
      this.error(`--status must be a status class such as 4xx or a status such as 404, got "${status}"`)
    if (path !== undefined && !path.startsWith('/')) this.error(`--path must start with /, got "${path}"`)
    const client = all ? this.adminClient() : this.client()
    const query = { status, path }
    await untilStopped((signal) =>
      followStream(
        (onOpen) => (all ? client.requestLogs.streamAll : client.requestLogs.stream)({ signal, onOpen, query }),
        (entry) => (this.jsonEnabled() ? jsonLine(entry) : this.log(requestLine(entry))),
        {
          signal,
          onOpen: (reconnected) =>
            streamNotice(reconnected ? 'Reconnected.' : `Waiting for requests to ${client.baseUrl} (Ctrl+C to stop)`),
          onDrop: (reason, retryInMs) => streamNotice(`Stream dropped (${reason}); reconnecting in ${retryInMs} ms`),
        },
      ),
    )
  }
}
