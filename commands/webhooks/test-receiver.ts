import { Args, Flags } from '@oclif/core'
import { ApiCommand } from '../../src/cli/base-command.js'
import { durationFlag } from '../../src/cli/duration-flag.js'
import { UserError } from '../../src/user-error.js'
import { httpUrlArg } from '../../src/cli/flag-values.js'
import type { GradingReport } from '../../src/webhooks/receiver-grading.js'

export default class WebhooksTestReceiver extends ApiCommand<typeof WebhooksTestReceiver> {
  static override args = {
    url: Args.string({ description: 'Your webhook receiver (http or https URL)', required: true }),
  }

  static override summary = 'Grade your webhook receiver: signed, forged, repeated and out-of-order deliveries'
  static override description =
    'Sends a battery of webhook deliveries straight to <url> (no sandbox needed) and grades each answer: a correctly signed event ' +
    'must be accepted (2xx within 10 s); a wrong signature, a signature over re-serialized JSON, an empty or missing X-WEBHOOK-AUTH ' +
    'and a body changed after signing must be rejected (non-2xx); a duplicate and a resend must be accepted; events out of order ' +
    'must not get a 5xx or a dropped connection; and every answer must come within 10 s. Exits 1 when any check fails.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> http://localhost:3000/webhooks',
    '<%= config.bin %> <%= command.id %> http://localhost:3000/webhooks --secret sk_test_… --json',
  ]

  static override flags = {
    secret: Flags.string({ description: "The secret your receiver verifies with (default: the merchant's API secret)" }),
    timeout: Flags.string({ description: 'How long to wait for each answer: 10s, 500ms, or seconds', default: '10s' }),
  }

  public async run(): Promise<GradingReport> {
    const url = httpUrlArg(this.args.url, 'url')
    const timeoutMs = durationFlag(this.flags.timeout, 'timeout', {
      maxMs: 600_000,
      hint: 'a duration such as 10s, 500ms or 2 (seconds), at most 10m',
    })
    const secret = this.flags.secret ?? this.connection().apiSecret
    if (!secret) throw new UserError('No secret to sign deliveries with', 'pass --secret sk_…, set PAYBOX_API_SECRET, or run: paybox login')

    const { gradeReceiver } = await import('../../src/webhooks/receiver-grading.js')
    const report = await gradeReceiver({ url, secret, timeoutMs, userAgent: `paybox-test-receiver/${this.config.version}` })
    if (!this.jsonEnabled()) {
      const { renderGradingReport } = await import('../../src/cli/render/receiver-grading.js')
      this.print(renderGradingReport(report))
    }
    if (!report.passed) process.exitCode = 1
    return report
  }
}
