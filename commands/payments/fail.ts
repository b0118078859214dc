import { Args, Flags } from '@oclif/core'
import type { Payment } from '../../src/client/types.js'
import { ApiCommand } from '../../src/cli/base-command.js'
import { fetchPrecisions, renderPayment } from '../../src/cli/render/payments.js'

export default class PaymentsFail extends ApiCommand<typeof PaymentsFail> {
  static override args = {
    id: Args.string({ description: 'Payment id (pt_…)', required: true }),
  }

  static override summary = 'Simulate a processing failure: the payment becomes failed'
  static override examples = [
    '<%= config.bin %> <%= command.id %> pt_0194…',
    '<%= config.bin %> <%= command.id %> pt_0194… --reason "Card network timeout" --json',
  ]

  static override flags = {
    reason: Flags.string({ description: "Why it failed, recorded in the payment's history" }),
  }

  public async run(): Promise<Payment> {
    const client = this.client()
    const payment = await client.sandbox.fail(this.args.id, { reason: this.flags.reason })
    if (!this.jsonEnabled()) this.print(renderPayment(payment, await fetchPrecisions(client)))
    return payment
  }
}
