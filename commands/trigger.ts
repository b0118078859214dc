import { Args, Flags } from '@oclif/core'
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../src/client/types.js'
import { ApiCommand } from '../src/cli/base-command.js'
import { UserError } from '../src/user-error.js'
import { httpUrlFlag, minorUnitsFlag } from '../src/cli/flag-values.js'
import { fetchPrecisions } from '../src/cli/render/payments.js'
import { renderTriggerResult } from '../src/cli/render/webhooks.js'
import { TRIGGER_STATUSES, triggerEvent, undeliveredProblem, type TriggerResult, type TriggerStatus } from '../src/cli/webhook-trigger.js'

/** Long enough for five deliveries to a receiver that times out, and a ledger close. */
const TRIGGER_TIMEOUT_MS = 60_000

export default class Trigger extends ApiCommand<typeof Trigger> {
  static override args = {
    event: Args.string({ description: 'The webhook event to emit', required: true, options: [...WEBHOOK_EVENT_TYPES] }),
  }

  static override summary = 'Make the sandbox send a webhook event to a URL, for real'
  static override description =
    'Creates a payment with --webhook-url and drives it through the states that emit the event: transaction_created just ' +
    'creates it; transaction_updated pays half (--status underpaid) or all of it (paid; settled also fails unless the settlement ' +
    'completes); transaction_failed fails it. Then waits until no event of the payment is still to come (a settlement in ' +
    'processing reports paid when its ledger closes) and the sandbox has logged each of its deliveries as finished, and ' +
    "prints the payment id and every event it emitted with your receiver's answer. Exits 1 when a delivery did not get a 2xx answer."

  static override examples = [
    '<%= config.bin %> <%= command.id %> transaction_created --webhook-url http://localhost:3000/webhooks',
    '<%= config.bin %> <%= command.id %> transaction_updated --status underpaid --webhook-url http://localhost:3000/webhooks',
    '<%= config.bin %> <%= command.id %> transaction_failed --webhook-url https://example.test/hooks --currency EUR --amount 25 --json',
  ]

  static override flags = {
    'webhook-url': Flags.string({ description: "Where the payment's webhooks go (http or https URL)", required: true }),
    status: Flags.string({
      description: 'For transaction_updated: what the update reports (default paid)',
      options: [...TRIGGER_STATUSES],
    }),
    currency: Flags.string({
      description: 'Pricing currency of the payment (ISO 4217)',
      default: 'USD',
      parse: async (input) => input.toUpperCase(),
    }),
    amount: Flags.string({ description: 'Amount in major units (default 10)' }),
  }

  public async run(): Promise<TriggerResult> {
    const { args, flags } = this
    const event = args.event as WebhookEventType
    if (flags.status !== undefined && event !== 'transaction_updated') {
      throw new UserError(`--status applies only to transaction_updated, not ${event}`)
    }
    const webhookUrl = httpUrlFlag(flags['webhook-url'], 'webhook-url')
    const client = this.client()
    const precisions = await fetchPrecisions(client)
    const amount = minorUnitsFlag(flags.amount ?? '10', flags.currency, precisions)
    const status = event === 'transaction_updated' ? ((flags.status ?? 'paid') as TriggerStatus) : undefined
    const result = await triggerEvent(client, {
      event,
      status,
      webhookUrl,
      amount,
      currency: flags.currency,
      timeoutMs: TRIGGER_TIMEOUT_MS,
    })
    this.print(renderTriggerResult(result))
    const problem = undeliveredProblem(result)
    if (problem !== undefined) this.reportFailure(problem)
    return result
  }
}
